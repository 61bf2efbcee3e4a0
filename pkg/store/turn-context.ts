// What a conversation turn reads before the model is asked, as statements sent with the
// conversation's lock (TurnLocks.withLock), so a turn waits for one round trip, not several.
import { escapeLiteral, type QueryResult } from 'pg';
import { isUuid } from '../ids.js';
import { Conflict, NotFound } from '../errors.js';
import { toAgent, type Agent } from './agents.js';
import { assertActive, companyConversation, type Conversation } from './conversations.js';
import { checkCanSpend } from './credits.js';
import { toStoredMessage, type StoredMessage } from './messages.js';
import type { Tenant } from './tenants.js';

export interface TurnContext {
  conversation: Conversation;
  agent: Agent;
  history: StoredMessage[];
  contactMemory: string | null;
  /** With asHumanReply: the conversation's single job waiting for a reply, which the turn resumes. */
  waitingJobId: string | null;
}

/** The statements, for the conversation `conversationId` of `tenant`; throws 404 for a malformed id. */
export function turnContextReads(tenant: Tenant, conversationId: string): string[] {
  if (!isUuid(conversationId)) throw new NotFound(`Unknown conversation ${conversationId}`);
  const c = escapeLiteral(conversationId);
  const t = escapeLiteral(tenant.id);
  return [
    `select * from conversations where id = ${c}`,
    `select credit_balance from tenants where id = ${t}`,
    `select id from triggers where conversation_id = ${c} and status = 'waiting_for_reply'`,
    `select * from agents where id = (select agent_id from conversations where id = ${c}) and (tenant_id = ${t} or is_public)`,
    `select * from messages where conversation_id = ${c} order by seq`,
    `select memory from contacts where id = (select contact_id from conversations where id = ${c} and tenant_id = ${t})`,
  ];
}

/**
 * The results of turnContextReads, checked in the order the API's errors take precedence: the
 * conversation (404, 403, 409 ended), the company's credits (402), asHumanReply's single waiting
 * job (409), then the agent (404).
 */
export function turnContext(tenant: Tenant, conversationId: string, results: QueryResult[], asHumanReply = false): TurnContext {
  const [conversations, tenants, waiting, agents, messages, contacts] = results as [QueryResult, QueryResult, QueryResult, QueryResult, QueryResult, QueryResult];
  const conversation = companyConversation(conversations.rows[0], tenant.id, conversationId);
  assertActive(conversation);
  checkCanSpend(tenant, Number(tenants.rows[0]?.credit_balance ?? 0));
  if (asHumanReply && waiting.rows.length !== 1) {
    throw new Conflict(`asHumanReply needs exactly one job waiting for a reply; this conversation has ${waiting.rows.length}`);
  }
  if (!agents.rows[0]) throw new NotFound('The conversation has no usable agent');
  return {
    conversation,
    agent: toAgent(agents.rows[0]),
    history: messages.rows.map(toStoredMessage),
    contactMemory: contacts.rows[0]?.memory ?? null,
    waitingJobId: asHumanReply ? waiting.rows[0]!.id : null,
  };
}
