// The account's messages: listed newest first with filters, read, moved new → read → archived, and
// a voicemail's recording.
import { publicUrl } from '../config.js';
import type { Ctx } from '../context.js';
import { NotFound, Unprocessable } from '../errors.js';
import { parseAgentRef } from '../ids.js';
import { getMessage, getVoiceMessage, listVoiceMessages, setMessageStatus, type VoiceMessageRow } from '../store/voice-messages.js';
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

export async function listMessagesPage(ctx: Pick<Ctx, 'db' | 'config'>, tenantId: string, q: MessageListQuery) {
  if (q.cursor !== undefined && !MESSAGE_ID.test(q.cursor))
    throw new Unprocessable('cursor: is not one this API gave out', 'invalid_cursor');
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
  const baseUrl = publicUrl(ctx.config);
  return { data: page.map((m) => messageView(m, baseUrl)), next_cursor: rows.length > q.limit ? page.at(-1)!.id : null };
}

export async function readMessage(ctx: Pick<Ctx, 'db' | 'config'>, tenantId: string, id: string) {
  return messageView(await getMessage(ctx, tenantId, id), publicUrl(ctx.config));
}

/** Moves the message to `status` (the same status changes nothing); a move back is a refused value (422 invalid_status). */
export async function changeMessageStatus(ctx: Pick<Ctx, 'db' | 'config'>, tenantId: string, id: string, status: MessageStatus) {
  const message = await getMessage(ctx, tenantId, id);
  if (message.status === status) return messageView(message, publicUrl(ctx.config));
  const from = status === 'new' ? [] : sourcesIn(MESSAGE_TRANSITIONS, EVENT_TO[status]);
  if (!(await setMessageStatus(ctx, tenantId, id, from, status))) {
    throw new Unprocessable(`status: message ${id} is ${message.status}; messages go new → read → archived, never back`, 'invalid_status');
  }
  return readMessage(ctx, tenantId, id);
}

/** The account's message left in `mailboxId`; NotFound for one in another mailbox, as for another account's. */
export async function mailboxMessage(ctx: Pick<Ctx, 'db'>, tenantId: string, mailboxId: string, id: string): Promise<VoiceMessageRow> {
  const message = await getVoiceMessage(ctx, tenantId, id);
  if (message.mailbox_id !== mailboxId) throw new NotFound(`No message ${id} in mailbox ${mailboxId}`);
  return message;
}

/** The WAV of a voicemail; 404 for another account's message or one without audio. */
export async function messageRecording(ctx: Pick<Ctx, 'db' | 'recordings'>, tenantId: string, id: string): Promise<Buffer> {
  await getVoiceMessage(ctx, tenantId, id);
  const wav = await ctx.recordings.load(tenantId, id);
  if (!wav) throw new NotFound(`Message ${id} has no recording`);
  return wav;
}
