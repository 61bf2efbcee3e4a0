// What an agent turn reads before the model is asked (a chat turn, or a job's run), under the
// conversation's lock (TurnLocks.withLock). The reads go out side by side, so they take about one
// round trip.
import type { Ctx } from '../context.js';
import { Conflict, NotFound } from '../errors.js';
import { toAgent, type Agent } from './agents.js';
import { assertActive, companyConversation, type Conversation } from './conversations.js';
import { balance, checkCanSpend } from './credits.js';
import { toStoredMessage, type StoredMessage } from './messages.js';
import { toTenant, type Tenant } from './tenants.js';
import type { TriggerRow } from './triggers.js';

interface Read {
  conversation: Conversation;
  agent: Agent;
  history: StoredMessage[];
  contactMemory: string | null;
}

export interface TurnContext extends Read {
  /** With asHumanReply: the conversation's single job waiting for a reply, which the turn resumes. */
  waitingJobId: string | null;
}

export interface JobRunContext extends Read {
  tenant: Tenant;
}

/**
 * Conversation `id` with its jobs waiting for a reply and its contact's memory, its agent (else
 * `fallbackAgent`) if company `tenantId` may use it, and its messages. `id` must be a UUID.
 */
async function readConversation(db: Ctx['db'], tenantId: string, id: string, fallbackAgent: string | null) {
  const [conversation, agent, messages] = await Promise.all([
    db('conversations as c')
      .select(
        'c.*',
        db.raw(`array(select t.id from triggers t where t.conversation_id = c.id and t.status = 'waiting_for_reply' order by t.seq) as waiting_job_ids`),
        db.raw('(select k.memory from contacts k where k.id = c.contact_id and k.tenant_id = ?) as contact_memory', [tenantId]),
      )
      .where('c.id', id)
      .first(),
    db('agents')
      .where('id', db.raw('coalesce((select agent_id from conversations where id = ?), ?::uuid)', [id, fallbackAgent]))
      .andWhere((q) => q.where({ tenant_id: tenantId }).orWhere({ is_public: true }))
      .first(),
    db('messages').where({ conversation_id: id }).orderBy('seq'),
  ]);
  return { conversation, agent, messages };
}

const read = (conversation: Conversation, row: Record<string, any>, agent: Record<string, any>, messages: Record<string, any>[]): Read => ({
  conversation,
  agent: toAgent(agent),
  history: messages.map(toStoredMessage),
  contactMemory: row.contact_memory,
});

/**
 * A chat turn's context, checked in the order the API's errors take precedence: the conversation
 * (404, 403, 409 ended), the company's credits (402), asHumanReply's single waiting job (409), then
 * the agent (404). `conversationId` must be a UUID.
 */
export async function readTurnContext(ctx: Pick<Ctx, 'db'>, tenant: Tenant, conversationId: string, asHumanReply = false): Promise<TurnContext> {
  const [rows, total] = await Promise.all([readConversation(ctx.db, tenant.id, conversationId, null), balance(ctx, tenant.id)]);
  const conversation = companyConversation(rows.conversation, tenant.id, conversationId);
  assertActive(conversation);
  checkCanSpend(tenant, total);
  const waiting: string[] = rows.conversation.waiting_job_ids;
  if (asHumanReply && waiting.length !== 1) {
    throw new Conflict(`asHumanReply needs exactly one job waiting for a reply; this conversation has ${waiting.length}`);
  }
  if (!rows.agent) throw new NotFound('The conversation has no usable agent');
  return { ...read(conversation, rows.conversation, rows.agent, rows.messages), waitingJobId: asHumanReply ? waiting[0]! : null };
}

/** A job run's context (the agent is the conversation's, else the job's), checked in order: company, conversation, usable agent, credits. */
export async function readJobRunContext(ctx: Pick<Ctx, 'db'>, row: TriggerRow): Promise<JobRunContext> {
  const [tenantRow, rows, total] = await Promise.all([
    ctx.db('tenants').where({ id: row.tenant_id }).first(),
    readConversation(ctx.db, row.tenant_id, row.conversation_id, row.agent_id),
    balance(ctx, row.tenant_id),
  ]);
  if (!tenantRow) throw new NotFound(`Unknown tenant ${row.tenant_id}`);
  const tenant = toTenant(tenantRow);
  const conversation = companyConversation(rows.conversation, tenant.id, row.conversation_id);
  if (!rows.agent) throw new NotFound(`Unknown agent ${conversation.agentId ?? row.agent_id}`);
  checkCanSpend(tenant, total);
  return { ...read(conversation, rows.conversation, rows.agent, rows.messages), tenant };
}
