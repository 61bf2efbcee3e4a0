// What an agent turn reads before the model is asked (a chat turn, or a job's run), sent with the
// conversation's lock (TurnLocks.withLock) so they run once it is held, in the same round trip.
import type { Knex } from 'knex';
import { compiledOnce } from '../db/compiled.js';
import { Conflict, NotFound } from '../errors.js';
import { toAgent, type Agent } from './agents.js';
import { assertActive, tenantConversation, type Conversation } from './conversations.js';
import { balanceOf, checkCanSpend } from './credits.js';
import { toStoredMessage, type StoredMessage } from './messages.js';
import { toTenant, type Tenant } from './tenants.js';
import type { TriggerRow } from './triggers/row.js';

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

/** The conversation a turn reads, of tenant `tenantId`, and the agent a job falls back to. */
type ReadOf = { tenantId: string; id: string; fallbackAgent: string | null };

/**
 * The reads of conversation `id` (its jobs waiting for a reply and its contact's memory; its agent,
 * else `fallbackAgent`, if tenant `tenantId` may use it; its messages) and of the tenant's row
 * with its credit balance.
 */
const READS = [
  compiledOnce((db, { tenantId }: ReadOf) => db('tenants').select('*', db.raw(`${balanceOf('?')} as credit_total`, [tenantId])).where({ id: tenantId })),
  compiledOnce((db, { tenantId, id }: ReadOf) =>
    db('conversations as c')
      .select(
        'c.*',
        db.raw(`array(select t.id from triggers t where t.conversation_id = c.id and t.status = 'waiting_for_reply' order by t.seq) as waiting_job_ids`),
        db.raw('(select k.memory from contacts k where k.id = c.contact_id and k.tenant_id = ?) as contact_memory', [tenantId]),
      )
      .where('c.id', id),
  ),
  compiledOnce((db, { tenantId, id, fallbackAgent }: ReadOf) =>
    db('agents')
      .where('id', db.raw('coalesce((select agent_id from conversations where id = ?), ?::uuid)', [id, fallbackAgent]))
      .andWhere((q) => q.where({ tenant_id: tenantId }).orWhere({ is_public: true })),
  ),
  compiledOnce((db, { id }: ReadOf) => db('messages').where({ conversation_id: id }).orderBy('seq')),
];

const reads = (db: Knex, of: ReadOf): Knex.SqlNative[] => READS.map((read) => read(db, of));

/** A chat turn's reads, for conversation `conversationId` (a UUID) of tenant `tenantId`. */
export const turnReads = (db: Knex, tenantId: string, conversationId: string): Knex.SqlNative[] => reads(db, { tenantId, id: conversationId, fallbackAgent: null });

/** A job run's reads (the agent is the conversation's, else the job's). */
export const jobRunReads = (db: Knex, row: TriggerRow): Knex.SqlNative[] =>
  reads(db, { tenantId: row.tenant_id, id: row.conversation_id, fallbackAgent: row.agent_id });

type Rows = Record<string, any>[][];

const read = (conversation: Conversation, [, [row], [agent], messages]: Rows): Read => ({
  conversation,
  agent: toAgent(agent),
  history: messages!.map(toStoredMessage),
  contactMemory: row!.contact_memory,
});

const balanceIn = ([[tenant]]: Rows): number => Number(tenant?.credit_total ?? 0);

/**
 * A chat turn's context from its reads (turnReads), checked in the order the API's errors take
 * precedence: the conversation (404, 403, 409 ended), the tenant's credits (402), asHumanReply's
 * single waiting job (409), then the agent (404).
 */
export function turnContext(tenant: Tenant, conversationId: string, rows: Rows, asHumanReply = false): TurnContext {
  const [, [row], [agent]] = rows;
  const conversation = tenantConversation(row, tenant.id, conversationId);
  assertActive(conversation);
  checkCanSpend(tenant, balanceIn(rows));
  const waiting: string[] = row!.waiting_job_ids;
  if (asHumanReply && waiting.length !== 1) {
    throw new Conflict(`asHumanReply needs exactly one job waiting for a reply; this conversation has ${waiting.length}`);
  }
  if (!agent) throw new NotFound('The conversation has no usable agent');
  return { ...read(conversation, rows), waitingJobId: asHumanReply ? waiting[0]! : null };
}

/** A job run's context from its reads (jobRunReads), checked in order: tenant, conversation, usable agent, credits. */
export function jobRunContext(row: TriggerRow, rows: Rows): JobRunContext {
  const [[tenantRow], [conversationRow], [agent]] = rows;
  if (!tenantRow) throw new NotFound(`Unknown tenant ${row.tenant_id}`);
  const tenant = toTenant(tenantRow);
  const conversation = tenantConversation(conversationRow, tenant.id, row.conversation_id);
  if (!agent) throw new NotFound(`Unknown agent ${conversation.agentId ?? row.agent_id}`);
  checkCanSpend(tenant, balanceIn(rows));
  return { ...read(conversation, rows), tenant };
}
