// The account's messages: listed newest first with filters, read, and moved new → read → archived.
import type { Ctx } from '../context.js';
import { Conflict, Unprocessable } from '../errors.js';
import { parseAgentRef } from '../ids.js';
import { getMessage, listVoiceMessages, setMessageStatus, type VoiceMessageRow } from '../store/voice-messages.js';
import { sourcesIn } from '../state-table.js';
import { EVENT_TO, MESSAGE_TRANSITIONS, type MessageStatus } from './state.js';
import { messageView } from './view.js';

interface MessageListQuery {
  status?: MessageStatus;
  type?: VoiceMessageRow['kind'];
  mailbox_id?: string;
  agent_id?: string;
  limit: number;
  cursor?: string;
}

const MESSAGE_ID = /^msg_[0-9A-HJKMNP-TV-Z]{26}$/;

export async function listMessagesPage(ctx: Pick<Ctx, 'db'>, tenantId: string, q: MessageListQuery) {
  if (q.cursor !== undefined && !MESSAGE_ID.test(q.cursor)) throw new Unprocessable('cursor: is not one this API gave out', 'invalid_cursor');
  const agentId = q.agent_id === undefined ? undefined : parseAgentRef(q.agent_id);
  if (agentId === null) throw new Unprocessable(`agent_id: ${q.agent_id} is not an agent id (agt_…)`, 'invalid_agent_id');
  const rows = await listVoiceMessages(ctx, tenantId, {
    status: q.status,
    kind: q.type,
    mailboxId: q.mailbox_id,
    agentId,
    beforeId: q.cursor,
    limit: q.limit + 1,
  });
  const page = rows.slice(0, q.limit);
  // The cursor is the last message's id: opaque enough, and stable.
  return { data: page.map(messageView), next_cursor: rows.length > q.limit ? page.at(-1)!.id : null };
}

/** Moves the message to `status` (the same status changes nothing); 409 for a move back. */
export async function changeMessageStatus(ctx: Pick<Ctx, 'db'>, tenantId: string, id: string, status: MessageStatus) {
  const message = await getMessage(ctx, tenantId, id);
  if (message.status === status) return messageView(message);
  const from = status === 'new' ? [] : sourcesIn(MESSAGE_TRANSITIONS, EVENT_TO[status]);
  if (!(await setMessageStatus(ctx, tenantId, id, from, status))) {
    throw new Conflict(`Message ${id} is ${message.status}; messages go new → read → archived`, 'status_conflict');
  }
  return messageView(await getMessage(ctx, tenantId, id));
}
