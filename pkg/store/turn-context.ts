// What an agent turn reads before the model is asked (a chat turn, or a job's run), as statements
// sent with the conversation's lock (TurnLocks.withLock), so it waits for one round trip, not several.
import { escapeLiteral, type QueryResult } from 'pg';
import { isUuid } from '../ids.js';
import { Conflict, NotFound } from '../errors.js';
import { toAgent, type Agent } from './agents.js';
import { assertActive, companyConversation, type Conversation } from './conversations.js';
import { checkCanSpend } from './credits.js';
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
 * The statements, for conversation `conversationId` of company `tenantId`; the agent is the
 * conversation's own, else (a job's conversation) `agentId`. Throws 404 for a malformed id.
 */
export function turnContextReads(tenantId: string, conversationId: string, agentId: string | null = null): string[] {
  if (!isUuid(conversationId)) throw new NotFound(`Unknown conversation ${conversationId}`);
  const c = escapeLiteral(conversationId);
  const t = escapeLiteral(tenantId);
  const fallback = agentId === null ? 'null' : escapeLiteral(agentId);
  return [
    `select * from tenants where id = ${t}`,
    `select * from conversations where id = ${c}`,
    `select id from triggers where conversation_id = ${c} and status = 'waiting_for_reply'`,
    `select * from agents where id = coalesce((select agent_id from conversations where id = ${c}), ${fallback}) and (tenant_id = ${t} or is_public)`,
    `select * from messages where conversation_id = ${c} order by seq`,
    `select memory from contacts where id = (select contact_id from conversations where id = ${c}) and tenant_id = ${t}`,
  ];
}

type Results = [QueryResult, QueryResult, QueryResult, QueryResult, QueryResult, QueryResult];

function read(conversation: Conversation, [, , , agents, messages, contacts]: Results): Read {
  return {
    conversation,
    agent: toAgent(agents.rows[0]),
    history: messages.rows.map(toStoredMessage),
    contactMemory: contacts.rows[0]?.memory ?? null,
  };
}

const balanceOf = (tenants: QueryResult): number => Number(tenants.rows[0]?.credit_balance ?? 0);

/**
 * A chat turn's results, checked in the order the API's errors take precedence: the conversation
 * (404, 403, 409 ended), the company's credits (402), asHumanReply's single waiting job (409), then
 * the agent (404).
 */
export function turnContext(tenant: Tenant, conversationId: string, results: QueryResult[], asHumanReply = false): TurnContext {
  const all = results as Results;
  const [tenants, conversations, waiting, agents] = all;
  const conversation = companyConversation(conversations.rows[0], tenant.id, conversationId);
  assertActive(conversation);
  checkCanSpend(tenant, balanceOf(tenants));
  if (asHumanReply && waiting.rows.length !== 1) {
    throw new Conflict(`asHumanReply needs exactly one job waiting for a reply; this conversation has ${waiting.rows.length}`);
  }
  if (!agents.rows[0]) throw new NotFound('The conversation has no usable agent');
  return { ...read(conversation, all), waitingJobId: asHumanReply ? waiting.rows[0]!.id : null };
}

/** A job run's results (turnContextReads with the job's agent), checked in order: company, conversation, usable agent, credits. */
export function jobRunContext(row: TriggerRow, results: QueryResult[]): JobRunContext {
  const all = results as Results;
  const [tenants, conversations, , agents] = all;
  if (!tenants.rows[0]) throw new NotFound(`Unknown tenant ${row.tenant_id}`);
  const tenant = toTenant(tenants.rows[0]);
  const conversation = companyConversation(conversations.rows[0], tenant.id, row.conversation_id);
  if (!agents.rows[0]) throw new NotFound(`Unknown agent ${conversation.agentId ?? row.agent_id}`);
  checkCanSpend(tenant, balanceOf(tenants));
  return { ...read(conversation, all), tenant };
}
