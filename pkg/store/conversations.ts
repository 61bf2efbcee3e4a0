// Conversations: the stateful thread, its additions (metadata, custom system message, tools).
import type { Ctx, DbClock } from '../context.js';
import { isUuid, uuid } from '../ids.js';
import { Conflict, Forbidden, NotFound } from '../errors.js';
import type { StoredTool } from './tools.js';
import type { DbRow } from '../db/index.js';

export interface Conversation {
  id: string;
  tenantId: string;
  agentId: string | null;
  contactId: number | null;
  channel: string;
  status: 'active' | 'ended';
  metadata: Record<string, unknown>;
  customSystemMessage: string | null;
  customTools: StoredTool[];
  memoryScope: 'company' | null;
  /** When its contact was verified for it (DECISIONS.md "Verification"); null: not verified. */
  verifiedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

const toConversation = (r: DbRow): Conversation => ({
  id: r.id,
  tenantId: r.tenant_id,
  agentId: r.agent_id,
  contactId: r.contact_id,
  channel: r.channel,
  status: r.status,
  metadata: r.metadata,
  customSystemMessage: r.custom_system_message,
  customTools: r.custom_tools,
  memoryScope: r.memory_scope,
  verifiedAt: r.verified_at?.toISOString() ?? null,
  createdAt: r.created_at.toISOString(),
  updatedAt: r.updated_at.toISOString(),
});

export async function createConversation(
  ctx: DbClock,
  input: {
    tenantId: string;
    agentId: string;
    contactId: number | null;
    metadata?: Record<string, unknown>;
    customSystemMessage?: string;
    customTools?: StoredTool[];
    memoryScope?: 'company';
    /** Default `api`; other channels (a call's `voice`) are hidden from the Agent API. */
    channel?: 'api' | 'voice';
  },
): Promise<Conversation> {
  const [row] = await ctx.db('conversations').insert(newConversationRow(ctx, input)).returning('*');
  return toConversation(row);
}

/** The row createConversation inserts, for statements that insert it along with other rows. */
export function newConversationRow(ctx: Pick<Ctx, 'clock'>, input: Parameters<typeof createConversation>[1]): DbRow {
  const now = ctx.clock.now();
  return {
    id: uuid(),
    tenant_id: input.tenantId,
    agent_id: input.agentId,
    contact_id: input.contactId,
    metadata: JSON.stringify(input.metadata ?? {}),
    custom_system_message: input.customSystemMessage ?? null,
    custom_tools: JSON.stringify(input.customTools ?? []),
    memory_scope: input.memoryScope ?? null,
    channel: input.channel ?? 'api',
    created_at: now,
    updated_at: now,
  };
}

/** 404 for unknown and non-API sessions, 403 for another tenant's (the spec's rule). */
export async function getConversation(ctx: Pick<Ctx, 'db'>, tenantId: string, id: string): Promise<Conversation> {
  if (!isUuid(id)) throw new NotFound(`Unknown conversation ${id}`);
  return tenantConversation(await ctx.db('conversations').where({ id }).first(), tenantId, id);
}

/** The rule of getConversation applied to a row read elsewhere (undefined when there was none). */
export function tenantConversation(row: DbRow | undefined, tenantId: string, id: string): Conversation {
  if (row?.channel !== 'api') throw new NotFound(`Unknown conversation ${id}`);
  if (row.tenant_id !== tenantId) throw new Forbidden('Conversation belongs to a different company');
  return toConversation(row);
}

/**
 * One of the account's conversations, of `channel` when given (a call's is `voice`, hidden from the Agent
 * API), else of any channel (the console's); another account's is unknown.
 */
export async function accountConversation(ctx: Pick<Ctx, 'db'>, tenantId: string, id: string, channel?: 'voice'): Promise<Conversation> {
  const row = isUuid(id)
    ? await ctx
        .db('conversations')
        .where({ id, tenant_id: tenantId, ...(channel && { channel }) })
        .first()
    : undefined;
  if (!row) throw new NotFound(`Unknown conversation ${id}`);
  return toConversation(row);
}

/**
 * The conversations an account's console lists, newest first, a page at a time, each with its call if it
 * had one: every channel but `api`, which the Agent API spec keeps out of the dashboard's chat views.
 */
export async function listConversations(
  ctx: Pick<Ctx, 'db'>,
  tenantId: string,
  page: { limit: number; offset: number },
): Promise<{ conversations: (Conversation & { callId: string | null })[]; total: number; hasMore: boolean }> {
  const scope = () => ctx.db('conversations').where({ tenant_id: tenantId }).whereNot({ channel: 'api' });
  const callId = ctx.db('calls').select('id').whereRaw('calls.conversation_id = conversations.id').orderBy('created_at').limit(1);
  const [rows, count] = await Promise.all([
    scope()
      .select('conversations.*', callId.as('call_id'))
      .orderBy([
        { column: 'created_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ])
      .limit(page.limit)
      .offset(page.offset),
    scope().count({ n: '*' }).first(),
  ]);
  const total = Number(count?.n ?? 0);
  return {
    conversations: rows.map((r) => ({ ...toConversation(r), callId: r.call_id ?? null })),
    total,
    hasMore: page.offset + rows.length < total,
  };
}

export function assertActive(c: Conversation): void {
  if (c.status === 'ended') throw new Conflict('Conversation has ended');
}

export async function getActiveConversation(ctx: Pick<Ctx, 'db'>, tenantId: string, id: string): Promise<Conversation> {
  const c = await getConversation(ctx, tenantId, id);
  assertActive(c);
  return c;
}

/**
 * Late bind: an unbound active conversation takes the contact; binding to a different contact,
 * or binding an ended conversation, is a conflict. The update is conditional so two concurrent
 * binds cannot both win.
 */
export async function bindContact(ctx: DbClock, c: Conversation, contactId: number): Promise<Conversation> {
  if (c.contactId === contactId) return c;
  if (c.contactId !== null) throw new Conflict('Conversation is bound to a different contact');
  const [row] = await ctx
    .db('conversations')
    .where({ id: c.id, status: 'active' })
    .andWhere((q) => q.whereNull('contact_id').orWhere({ contact_id: contactId }))
    .update({ contact_id: contactId, updated_at: ctx.clock.now() })
    .returning('*');
  if (!row) {
    const now = await ctx.db('conversations').where({ id: c.id }).first();
    throw new Conflict(now?.status === 'ended' ? 'Conversation has ended' : 'Conversation is bound to a different contact');
  }
  return toConversation(row);
}

export async function updateConversation(
  ctx: DbClock,
  c: Conversation,
  patch: {
    metadata?: Record<string, unknown>;
    customSystemMessage?: string;
    customTools?: StoredTool[];
    agentId?: string;
    memoryScope?: 'company';
    /** Its contact is verified from now on, unless it was already. */
    verified?: true;
  },
): Promise<Conversation> {
  const columns: DbRow = { updated_at: ctx.clock.now() };
  if (patch.metadata !== undefined) columns.metadata = JSON.stringify(patch.metadata);
  if (patch.customSystemMessage !== undefined) columns.custom_system_message = patch.customSystemMessage;
  if (patch.customTools !== undefined) columns.custom_tools = JSON.stringify(patch.customTools);
  if (patch.agentId !== undefined) columns.agent_id = patch.agentId;
  if (patch.memoryScope !== undefined) columns.memory_scope = patch.memoryScope;
  if (patch.verified) columns.verified_at = ctx.db.raw('coalesce(verified_at, ?)', [columns.updated_at]);
  const [row] = await ctx.db('conversations').where({ id: c.id, status: 'active' }).update(columns).returning('*');
  if (!row) throw new Conflict('Conversation has ended');
  return toConversation(row);
}

/** active → ended. Returns null when it had already ended. */
export async function markEnded(ctx: DbClock, c: Conversation): Promise<Conversation | null> {
  const now = ctx.clock.now();
  const [row] = await ctx
    .db('conversations')
    .where({ id: c.id, status: 'active' })
    .update({ status: 'ended', ended_at: now, updated_at: now })
    .returning('*');
  return row ? toConversation(row) : null;
}
