// Messages of calls: what an AI agent took down for the tenant (ai_message) and voicemails.
import type { Knex } from 'knex';
import type { Ctx } from '../context.js';
import { NotFound } from '../errors.js';
import { prefixedId } from '../ids.js';
import type { DbRow } from '../db/index.js';

export interface VoiceMessageRow {
  id: string;
  tenant_id: string;
  call_id: string | null;
  kind: 'ai_message' | 'voicemail';
  caller: string;
  summary: string;
  details: Record<string, unknown>;
  agent_id: string | null;
  status: 'new' | 'read' | 'archived';
  duration_sec: number | null;
  mailbox_id: string | null;
  created_at: Date;
}

export async function insertVoiceMessage(
  ctx: Pick<Ctx, 'db' | 'clock'>,
  m: Pick<VoiceMessageRow, 'tenant_id' | 'call_id' | 'kind' | 'caller' | 'summary' | 'details' | 'agent_id'> & {
    id?: string;
    duration_sec?: number;
    mailbox_id?: string;
  },
): Promise<VoiceMessageRow> {
  const [row] = await ctx
    .db('voice_messages')
    .insert({
      ...m,
      id: m.id ?? prefixedId('msg'),
      details: JSON.stringify(m.details),
      duration_sec: m.duration_sec ?? null,
      created_at: ctx.clock.now(),
    })
    .returning('*');
  return row;
}

export async function getVoiceMessage(ctx: Pick<Ctx, 'db'>, tenantId: string, id: string): Promise<VoiceMessageRow> {
  const row = await ctx.db('voice_messages').where({ id, tenant_id: tenantId }).first();
  if (!row) throw new NotFound(`No message ${id} on this account`);
  return row;
}

type WithMailbox = VoiceMessageRow & { mailbox_name: string | null };

/** Messages, each with the name of the mailbox it was left in (null for none). */
const withMailbox = (db: Knex) =>
  db('voice_messages as m').leftJoin('mailboxes as b', 'b.id', 'm.mailbox_id').select('m.*', 'b.name as mailbox_name');

export async function messagesOfCall(ctx: Pick<Ctx, 'db'>, callId: string): Promise<WithMailbox[]> {
  return withMailbox(ctx.db).where({ 'm.call_id': callId }).orderBy('m.created_at');
}

export interface MessageFilter {
  status?: VoiceMessageRow['status'];
  kind?: VoiceMessageRow['kind'];
  mailboxId?: string;
  agentId?: string;
  /** Only messages older than this one (the cursor). */
  beforeId?: string;
  limit: number;
}

/** Newest first (ids are ULIDs: they sort by creation time). */
export async function listVoiceMessages(ctx: Pick<Ctx, 'db'>, tenantId: string, f: MessageFilter): Promise<WithMailbox[]> {
  const q = withMailbox(ctx.db).where({ 'm.tenant_id': tenantId });
  if (f.status) q.andWhere({ 'm.status': f.status });
  if (f.kind) q.andWhere({ 'm.kind': f.kind });
  if (f.mailboxId) q.andWhere({ 'm.mailbox_id': f.mailboxId });
  if (f.agentId) q.andWhere({ 'm.agent_id': f.agentId });
  if (f.beforeId) q.andWhere('m.id', '<', f.beforeId);
  return q.orderBy('m.id', 'desc').limit(f.limit);
}

/** How many `new` messages each of the account's mailboxes holds (mailboxes with none are left out). */
export async function newMessagesByMailbox(ctx: Pick<Ctx, 'db'>, tenantId: string): Promise<Map<string, number>> {
  const rows = await ctx
    .db('voice_messages')
    .where({ tenant_id: tenantId, status: 'new' })
    .whereNotNull('mailbox_id')
    .groupBy('mailbox_id')
    .select('mailbox_id')
    .count({ n: '*' });
  return new Map(rows.map((r: DbRow) => [r.mailbox_id, Number(r.n)]));
}

export async function getMessage(ctx: Pick<Ctx, 'db'>, tenantId: string, id: string): Promise<WithMailbox> {
  const row = await withMailbox(ctx.db).where({ 'm.id': id, 'm.tenant_id': tenantId }).first();
  if (!row) throw new NotFound(`No message ${id} on this account`);
  return row;
}

/** Moves the message to `to` when it is in one of `from`; false when it is not (any more). */
export async function setMessageStatus(ctx: Pick<Ctx, 'db'>, tenantId: string, id: string, from: string[], to: string): Promise<boolean> {
  return (await ctx.db('voice_messages').where({ id, tenant_id: tenantId }).whereIn('status', from).update({ status: to })) > 0;
}
