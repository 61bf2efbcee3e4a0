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
import type { DbRow } from '../db/index.js';

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

type TurnReadKeys = { tenantId: string; conversationId: string; fallbackAgentId: string | null };

/**
 * The reads of conversation `conversationId` (its jobs waiting for a reply and its contact's memory; its agent,
 * else `fallbackAgentId`, if tenant `tenantId` may use it; its messages) and of the tenant's row
 * with its credit balance.
 */
const READS = [
  compiledOnce((db, { tenantId }: TurnReadKeys) =>
    db('tenants')
      .select('*', db.raw(`${balanceOf('?')} as credit_total`, [tenantId]))
      .where({ id: tenantId }),
  ),
  compiledOnce((db, { tenantId, conversationId }: TurnReadKeys) =>
    db('conversations as c')
      .select(
        'c.*',
        db.raw(
          `array(select t.id from triggers t where t.conversation_id = c.id and t.status = 'waiting_for_reply' order by t.seq) as waiting_job_ids`,
        ),
        db.raw('(select k.memory from contacts k where k.id = c.contact_id and k.tenant_id = ?) as contact_memory', [tenantId]),
      )
      .where('c.id', conversationId),
  ),
  compiledOnce((db, { tenantId, conversationId, fallbackAgentId }: TurnReadKeys) =>
    db('agents')
      .where('id', db.raw('coalesce((select agent_id from conversations where id = ?), ?::uuid)', [conversationId, fallbackAgentId]))
      .andWhere((q) => q.where({ tenant_id: tenantId }).orWhere({ is_public: true })),
  ),
  compiledOnce((db, { conversationId }: TurnReadKeys) => db('messages').where({ conversation_id: conversationId }).orderBy('seq')),
];

const reads = (db: Knex, keys: TurnReadKeys): Knex.SqlNative[] => READS.map((read) => read(db, keys));

/** A chat turn's reads, for conversation `conversationId` (a UUID) of tenant `tenantId`. */
export const turnReads = (db: Knex, tenantId: string, conversationId: string): Knex.SqlNative[] =>
  reads(db, { tenantId, conversationId, fallbackAgentId: null });

const ownConversation = compiledOnce((db, { id, tenantId }: { id: string; tenantId: string }) =>
  db('conversations').where({ id, tenant_id: tenantId }),
);

/** A chat turn's lock condition (withLock's onlyIf): conversation `conversationId` is tenant `tenantId`'s. */
export const tenantOwnsConversation = (db: Knex, tenantId: string, conversationId: string): Knex.SqlNative =>
  ownConversation(db, { id: conversationId, tenantId });

/** A job run's reads (the agent is the conversation's, else the job's). */
export const jobRunReads = (db: Knex, row: TriggerRow): Knex.SqlNative[] =>
  reads(db, { tenantId: row.tenant_id, conversationId: row.conversation_id, fallbackAgentId: row.agent_id });

type Rows = DbRow[][];

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
