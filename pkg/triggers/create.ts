// Creating a job: idempotent per company, capped per conversation (pending-cap.ts), all in one
// transaction (one statement when a new conversation needs nothing resolved first).
import type { Ctx } from '../context.js';
import { Conflict, Invalid } from '../errors.js';
import { uuid } from '../ids.js';
import { getUsableAgent, unknownAgent } from '../store/agents.js';
import { resolveContact, type ContactHints } from '../store/contacts.js';
import { bindContact, createConversation, getConversation, newConversationRow, updateConversation, type Conversation } from '../store/conversations.js';
import type { Tenant } from '../store/tenants.js';
import { findByIdempotencyKey } from '../store/triggers/get.js';
import { insertTrigger, insertTriggerWithConversation } from '../store/triggers/insert.js';
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

async function newConversation(ctx: Ctx, tenant: Tenant, input: CreateTriggerInput): Promise<Conversation> {
  const agent = await getUsableAgent(ctx, tenant.id, requiredAgentId(input));
  return createConversation(ctx, {
    tenantId: tenant.id,
    agentId: agent.id,
    contactId: await resolveContact(ctx, tenant.id, input),
    metadata: input.metadata,
  });
}

/** The row of a new job of company `tenantId` on `conversation`, starting at `start` (null: now). */
function jobRow(ctx: Ctx, tenantId: string, input: CreateTriggerInput, start: Date | null, now: Date) {
  const from = start ?? now;
  return (conversation: Conversation | { id: string; agentId: string }): Partial<TriggerRow> => ({
    id: uuid(),
    tenant_id: tenantId,
    conversation_id: conversation.id,
    agent_id: conversation.agentId!,
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

export async function createTrigger(ctx: Ctx, tenant: Tenant, input: CreateTriggerInput): Promise<Created> {
  if (isPlainNew(input)) {
    const { conversation, trigger } = newConversationJob(ctx, tenant.id, tenant.timezone, input);
    return created(ctx, (await insertTriggerWithConversation(ctx, conversation, trigger)) ?? unknown(input));
  }
  return ctx.db.transaction(async (trx) => {
    const tx: Ctx = { ...ctx, db: trx };
    if (input.idempotencyKey) {
      // Same-key requests queue here, so exactly one of them creates the job.
      await trx.raw('select pg_advisory_xact_lock(hashtext(?))', [`trigger:${tenant.id}:${input.idempotencyKey}`]);
      const existing = await findByIdempotencyKey(trx, tenant.id, input.idempotencyKey);
      if (existing) {
        const c = await getConversation(tx, tenant.id, existing.conversation_id);
        if (c.status === 'active') await mergeCustomTools(tx, c, input.customTools);
        return { created: false, trigger: existing };
      }
    }
    // After the replay: a retry answers with its job even once the runAt it repeats is no longer ahead.
    const now = ctx.clock.now();
    const row = jobRow(ctx, tenant.id, input, startTime(input, tenant.timezone, now), now);
    let conversation: Conversation;
    if (input.conversationId) {
      conversation = await existingConversation(tx, tenant, input);
      await checkPendingCap(trx, tenant, conversation.id);
    } else {
      // A conversation made in this transaction is under the pending-job cap (pending-cap.ts).
      conversation = await newConversation(tx, tenant, input);
    }
    conversation = await mergeCustomTools(tx, conversation, input.customTools);
    return created(ctx, await insertTrigger(trx, row(conversation)));
  });
}

/** A job on a new conversation with nothing to resolve or merge first: written by one statement. */
const isPlainNew = (input: CreateTriggerInput): boolean =>
  !input.conversationId && !input.idempotencyKey && input.contactId === undefined && !input.contact && !input.customTools?.length;

/** The rows of a plain new job of company `tenantId` (in `timezone`) and its conversation, which one statement writes. */
function newConversationJob(ctx: Ctx, tenantId: string, timezone: string, input: CreateTriggerInput) {
  const now = ctx.clock.now();
  const row = jobRow(ctx, tenantId, input, startTime(input, timezone, now), now);
  const agentId = requiredAgentId(input);
  const conversation = newConversationRow(ctx, { tenantId, agentId, contactId: null, metadata: input.metadata });
  // A conversation made here is under the pending-job cap (pending-cap.ts).
  return { conversation, trigger: row({ id: conversation.id as string, agentId }) };
}

const unknown = (input: CreateTriggerInput): never => {
  throw unknownAgent(requiredAgentId(input));
};

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
