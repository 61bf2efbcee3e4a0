// The messages part of the Voice API contract (DECISIONS.md "Mailboxes and messages").
import { z } from 'zod';
import { MESSAGE_STATUSES } from '../../pkg/messages/state.js';
import { parseVoice } from './parse.js';

export const listMessagesQuery = z
  .object({
    status: z.enum(MESSAGE_STATUSES).optional(),
    type: z.enum(['ai_message', 'voicemail']).optional(),
    mailbox_id: z.string().min(1).max(64).optional(),
    agent_id: z.string().min(1).max(64).optional(),
    limit: z.coerce.number().int().min(1).max(100).default(20),
    cursor: z.string().max(64).optional(),
  })
  .strict();

export const patchMessageBody = z
  .object({ status: z.enum(MESSAGE_STATUSES).meta({ description: 'new → read → archived, forward only' }) })
  .strict()
  .meta({ id: 'MessagePatch' });

export const parsePatchMessage = (body: unknown) => parseVoice(patchMessageBody, body, 'message');

export const messageSchema = z
  .strictObject({
    id: z.string(),
    kind: z.enum(['ai_message', 'voicemail']),
    caller: z.string(),
    summary: z.string(),
    details: z.record(z.string(), z.unknown()),
    agent_id: z.string().nullable(),
    status: z.enum(MESSAGE_STATUSES),
    created_at: z.string(),
    duration_sec: z.int().nullable().optional().meta({ description: "Voicemails: the recording's length" }),
    mailbox_id: z.string().nullable().optional(),
    mailbox_name: z.string().nullable().optional(),
    recording_url: z
      .string()
      .optional()
      .meta({ description: 'Voicemails: absolute, on SWITCHBOARD_PUBLIC_URL; a WAV fetched with an API key' }),
  })
  .meta({ id: 'Message' });

export const messageListSchema = z.object({ data: z.array(messageSchema), next_cursor: z.string().nullable() }).meta({ id: 'MessageList' });
