// Creating a job: idempotent per company, capped per conversation (pending-cap.ts), all in one
// transaction, or one statement when nothing else is written with it.
import type { Ctx } from '../context.js';
import { Conflict, Invalid } from '../errors.js';
import { uuid } from '../ids.js';
import { getUsableAgent } from '../store/agents.js';
import { resolveContact, type ContactHints } from '../store/contacts.js';
import { bindContact, getConversation, newConversationRow, updateConversation, type Conversation } from '../store/conversations.js';
import type { Tenant } from '../store/tenants.js';
import { findByIdempotencyKey } from '../store/triggers/get.js';
import { insertTrigger } from '../store/triggers/insert.js';
import type { TriggerRow } from '../store/triggers/row.js';
import { mergeTools, sealTools, type CustomTool } from '../tools/custom-tools.js';
import { checkPendingCap } from './pending-cap.js';
import { startTime } from './schedule.js';

export interface CreateTriggerInput {
  agentId?: string;
  conversationId?: string;
  task: string;
  /** The text as submitted (task, legacy message, or the event line). */
  inputMessage: string;
  triggerType: 'api' | 'event' | 'agent';
  eventType?: string;
  successCriteria?: string;
  businessKeys?: Record<string, unknown>;
  idempotencyKey?: string;
  metadata?: Record<string, unknown>;
  contactId?: number;
  contact?: ContactHints;
  customTools?: CustomTool[];
  delayMinutes?: number;
  runAt?: string;
  /** Asked for in a chat turn by a contact not verified: its run is held back like their turns. */
  askedUnverified?: boolean;
}

export interface Created {
  created: boolean;
  trigger: TriggerRow;
}

async function mergeCustomTools(ctx: Ctx, c: Conversation, tools: CustomTool[] | undefined): Promise<Conversation> {
  if (!tools?.length) return c;
  return updateConversation(ctx, c, { customTools: mergeTools(c.customTools, sealTools(tools, ctx.secrets)) });
}

async function existingConversation(ctx: Ctx, tenant: Tenant, input: CreateTriggerInput): Promise<Conversation> {
  let c = await getConversation(ctx, tenant.id, input.conversationId!);
  // The row lock makes the pending-job cap's count (pending-cap.ts) exact against concurrent creates.
  await ctx.db('conversations').where({ id: c.id }).forUpdate().first();
  c = await getConversation(ctx, tenant.id, c.id);
  if (c.status === 'ended') throw new Conflict('Conversation has ended');
  if (!c.agentId) throw new Conflict('Conversation has no agent');
  if (input.agentId && input.agentId !== c.agentId) throw new Conflict("agentId does not match the conversation's agent");
  const contactId = await resolveContact(ctx, tenant.id, input);
  if (contactId !== null) c = await bindContact(ctx, c, contactId);
  return c;
}

function requiredAgentId(input: CreateTriggerInput): string {
  if (input.agentId) return input.agentId;
  throw new Invalid('agentId or conversationId is required', [{ path: 'agentId', message: 'agentId or conversationId is required' }]);
}

/** The row of a new trigger of company `tenantId` on `conversation`, starting at `start` (null: now). */
function triggerRow(ctx: Ctx, tenantId: string, input: CreateTriggerInput, start: Date | null, now: Date) {
  const from = start ?? now;
  return (conversation: { id: string; agentId: string }): Partial<TriggerRow> => ({
    id: uuid(),
    tenant_id: tenantId,
    conversation_id: conversation.id,
    agent_id: conversation.agentId,
    status: start ? 'waiting' : 'queued',
    trigger_type: input.triggerType,
    task: input.task,
    input_message: input.inputMessage,
    success_criteria: input.successCriteria ?? null,
    business_keys: input.businessKeys ?? {},
    metadata: input.metadata ?? {},
    asked_unverified: input.askedUnverified ?? false,
    event_type: input.eventType ?? null,
    idempotency_key: input.idempotencyKey ?? null,
    max_attempts: ctx.config.SWITCHBOARD_JOB_MAX_ATTEMPTS,
    next_run_at: start,
    expires_at: new Date(from.getTime() + ctx.config.SWITCHBOARD_JOB_TTL_HOURS * 3_600_000),
    due_at: from,
    created_at: now,
    updated_at: now,
  });
}

function created(ctx: Ctx, trigger: TriggerRow): Created {
  ctx.metrics.triggerTransitions.inc({ event: trigger.status === 'waiting' ? 'create_deferred' : 'create', status: trigger.status });
  return { created: true, trigger };
}

/**
 * A transaction holds what must stay put until the job is written: an idempotency key (its
 * replays), an existing conversation (its pending jobs) or a contact found or made for it. Without
 * any, the job and its new conversation are the one statement written.
 */
const needsTransaction = (input: CreateTriggerInput): boolean =>
  Boolean(input.idempotencyKey || input.conversationId || input.contact) || input.contactId !== undefined;

export async function createTrigger(ctx: Ctx, tenant: Tenant, input: CreateTriggerInput): Promise<Created> {
  if (!needsTransaction(input)) return writeTrigger(ctx, tenant, input);
  return ctx.db.transaction((trx) => writeTrigger({ ...ctx, db: trx }, tenant, input));
}

async function writeTrigger(ctx: Ctx, tenant: Tenant, input: CreateTriggerInput): Promise<Created> {
  if (input.idempotencyKey) {
    // Same-key requests queue here, so exactly one of them creates the job.
    await ctx.db.raw('select pg_advisory_xact_lock(hashtext(?))', [`trigger:${tenant.id}:${input.idempotencyKey}`]);
    const existing = await findByIdempotencyKey(ctx.db, tenant.id, input.idempotencyKey);
    if (existing) {
      const c = await getConversation(ctx, tenant.id, existing.conversation_id);
      if (c.status === 'active') await mergeCustomTools(ctx, c, input.customTools);
      return { created: false, trigger: existing };
    }
  }
  // After the replay: a retry answers with its job even once the runAt it repeats is no longer ahead.
  const now = ctx.clock.now();
  const row = triggerRow(ctx, tenant.id, input, startTime(input, tenant.timezone, now), now);
  const conversation = await conversationFor(ctx, tenant, input);
  return created(ctx, await insertTrigger(ctx, row(conversation), conversation.newRow));
}

/** The conversation a new job runs on: an existing one (checked, locked, its tools merged), or a new one's row, written with the job. */
async function conversationFor(
  ctx: Ctx,
  tenant: Tenant,
  input: CreateTriggerInput,
): Promise<{ id: string; agentId: string; newRow?: Record<string, unknown> }> {
  if (input.conversationId) {
    const existing = await existingConversation(ctx, tenant, input);
    await checkPendingCap(ctx.db, tenant, existing.id);
    const merged = await mergeCustomTools(ctx, existing, input.customTools);
    return { id: merged.id, agentId: merged.agentId! };
  }
  // A conversation made with its job is under the pending-job cap (pending-cap.ts).
  const agentId = requiredAgentId(input);
  await getUsableAgent(ctx, tenant.id, agentId);
  const newRow = newConversationRow(ctx, {
    tenantId: tenant.id,
    agentId,
    contactId: await resolveContact(ctx, tenant.id, input),
    metadata: input.metadata,
    customTools: input.customTools?.length ? mergeTools([], sealTools(input.customTools, ctx.secrets)) : undefined,
  });
  return { id: newRow.id as string, agentId, newRow };
}

/**
 * POST /conversations/:id/triggers names its work by `task`, the legacy `message`, or an external
 * `eventType` (DECISIONS.md): task wins over message; an event alone reads `External event: <type>`.
 */
export function conversationTrigger(
  conversationId: string,
  input: Omit<CreateTriggerInput, 'conversationId' | 'task' | 'inputMessage' | 'triggerType'> & { task?: string; message?: string },
): CreateTriggerInput {
  const { task, message, ...rest } = input;
  const text = task ?? message ?? `External event: ${input.eventType}`;
  return { ...rest, conversationId, task: text, inputMessage: text, triggerType: input.eventType ? 'event' : 'api' };
}
