// What an agent turn reads before the model is asked (a chat turn, or a job's run), as statements
// sent with the conversation's lock (TurnLocks.withLock), so it waits for one round trip, not several.
import { escapeLiteral, type QueryResult } from 'pg';
import { isUuid } from '../ids.js';
import { Conflict, NotFound } from '../errors.js';
import { toAgent, type Agent } from './agents.js';
import { keyLookup, liveKey } from './keys.js';
import { assertActive, companyConversation, type Conversation } from './conversations.js';
import { columnsOf } from './columns.js';
import { balanceOf, checkCanSpend } from './credits.js';
import { toStoredMessage, type StoredMessage } from './messages.js';
import { toTenant, type Tenant } from './tenants.js';
import { ofClaimedJob, type TriggerRow } from './triggers.js';

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
 * The conversation's reads; `tenant` and `fallbackAgent` are SQL expressions. The conversation row
 * carries its jobs waiting for a reply and its contact's memory: each statement costs Postgres far
 * more than the round trip does, so fewer statements is the saving.
 */
function conversationReads(c: string, tenant: string, fallbackAgent: string): string[] {
  return [
    `select ${columnsOf('conversations', 'c')},
       array(select t.id from triggers t where t.conversation_id = c.id and t.status = 'waiting_for_reply' order by t.seq) as waiting_job_ids,
       (select k.memory from contacts k where k.id = c.contact_id and k.tenant_id = ${tenant}) as contact_memory
     from conversations c where c.id = ${c}`,
    `select ${columnsOf('agents')} from agents where id = coalesce((select agent_id from conversations where id = ${c}), ${fallbackAgent}) and (tenant_id = ${tenant} or is_public)`,
    `select ${columnsOf('messages')} from messages where conversation_id = ${c} order by seq`,
  ];
}

/**
 * A job run's statements, for conversation `conversationId` of company `tenantId`; the agent is the
 * conversation's own, else `agentId`. Throws 404 for a malformed id.
 */
export function turnContextReads(tenantId: string, conversationId: string, agentId: string | null = null): string[] {
  if (!isUuid(conversationId)) throw new NotFound(`Unknown conversation ${conversationId}`);
  return jobReads(escapeLiteral(tenantId), escapeLiteral(conversationId), agentId === null ? 'null' : escapeLiteral(agentId));
}

const jobReads = (tenant: string, conversation: string, agent: string): string[] => [
  `select ${columnsOf('tenants', 't')}, ${balanceOf('t.id')} as credit_total from tenants t where t.id = ${tenant}`,
  ...conversationReads(conversation, tenant, agent),
];

/** turnContextReads for the job a claim earlier in the same round trip took (none: they find nothing). */
export const claimedJobReads = (): string[] => jobReads(ofClaimedJob('tenant'), `${ofClaimedJob('conversation')}::uuid`, `${ofClaimedJob('agent')}::uuid`);

/**
 * A chat turn's statements: the bearer key's lookup (keyLookup: key and company) first, so the
 * request is authenticated in the same round trip, then the conversation's reads under its own
 * company (checked against the key's by turnContext). The lock is taken only for a live key of the
 * conversation's company (`onlyIf`), so no other caller waits on a turn or makes one wait.
 * `conversationId` must be a UUID.
 */
export function chatTurnReads(apiKey: string, conversationId: string): { reads: string[]; onlyIf: string } {
  const c = escapeLiteral(conversationId);
  return {
    reads: [keyLookup(apiKey, `${balanceOf('t.id')} as credit_total`), ...conversationReads(c, `(select tenant_id from conversations where id = ${c})`, 'null')],
    onlyIf: `from api_keys k join conversations c on c.tenant_id = k.tenant_id where ${liveKey('k', apiKey)} and c.id = ${c}`,
  };
}

type Results = [QueryResult, QueryResult, QueryResult, QueryResult];

function read(conversation: Conversation, [, conversations, agents, messages]: Results): Read {
  return {
    conversation,
    agent: toAgent(agents.rows[0]),
    history: messages.rows.map(toStoredMessage),
    contactMemory: conversations.rows[0].contact_memory,
  };
}

const balanceIn = (tenants: QueryResult): number => Number(tenants.rows[0]?.credit_total ?? 0);

/**
 * A chat turn's results (chatTurnReads; the key already checked by principalFrom), checked in the order the API's errors take precedence: the conversation
 * (404, 403, 409 ended), the company's credits (402), asHumanReply's single waiting job (409), then
 * the agent (404).
 */
export function turnContext(tenant: Tenant, conversationId: string, results: QueryResult[], asHumanReply = false): TurnContext {
  const all = results as Results;
  const [tenants, conversations, agents] = all;
  const conversation = companyConversation(conversations.rows[0], tenant.id, conversationId);
  assertActive(conversation);
  checkCanSpend(tenant, balanceIn(tenants));
  const waiting: string[] = conversations.rows[0].waiting_job_ids;
  if (asHumanReply && waiting.length !== 1) {
    throw new Conflict(`asHumanReply needs exactly one job waiting for a reply; this conversation has ${waiting.length}`);
  }
  if (!agents.rows[0]) throw new NotFound('The conversation has no usable agent');
  return { ...read(conversation, all), waitingJobId: asHumanReply ? waiting[0]! : null };
}

/** A job run's results (turnContextReads with the job's agent), checked in order: company, conversation, usable agent, credits. */
export function jobRunContext(row: TriggerRow, results: QueryResult[]): JobRunContext {
  const all = results as Results;
  const [tenants, conversations, agents] = all;
  if (!tenants.rows[0]) throw new NotFound(`Unknown tenant ${row.tenant_id}`);
  const tenant = toTenant(tenants.rows[0]);
  const conversation = companyConversation(conversations.rows[0], tenant.id, row.conversation_id);
  if (!agents.rows[0]) throw new NotFound(`Unknown agent ${conversation.agentId ?? row.agent_id}`);
  checkCanSpend(tenant, balanceIn(tenants));
  return { ...read(conversation, all), tenant };
}
