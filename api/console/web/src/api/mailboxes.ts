// The console's client for the account's mailboxes and their voicemails (/console/api/mailboxes).
import { api } from '../api';

export const MESSAGE_STATUSES = ['new', 'read', 'archived'] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

export interface Mailbox {
  id: string;
  name: string;
  greeting: string;
  created_at: string;
}

export type ListedMailbox = Mailbox & { new_messages: number };

export interface VoiceMessage {
  id: string;
  kind: 'voicemail' | 'ai_message';
  caller: string;
  summary: string;
  status: MessageStatus;
  created_at: string;
  duration_sec?: number | null;
}

const path = (id: string) => `/mailboxes/${encodeURIComponent(id)}`;
const messagePath = (mailboxId: string, messageId: string) => `${path(mailboxId)}/messages/${encodeURIComponent(messageId)}`;

export const mailboxesApi = {
  list: () => api.get<{ data: ListedMailbox[] }>('/mailboxes').then((r) => r.data),
  get: (id: string) => api.get<Mailbox>(path(id)),
  create: (input: { name: string; greeting: string }) => api.post<Mailbox>('/mailboxes', input),
  messages: (id: string, filter: { status?: MessageStatus; cursor?: string }) => {
    const query = new URLSearchParams(Object.entries(filter).filter((e): e is [string, string] => !!e[1]));
    return api.get<{ data: VoiceMessage[]; next_cursor: string | null }>(`${path(id)}/messages?${query}`);
  },
  setStatus: (mailboxId: string, messageId: string, status: MessageStatus) =>
    api.patch<VoiceMessage>(messagePath(mailboxId, messageId), { status }),
  recordingUrl: (mailboxId: string, messageId: string) => `/console/api${messagePath(mailboxId, messageId)}/recording`,
};
