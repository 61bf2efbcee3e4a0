// The console's calls for the access pages: API keys, webhooks, users and audit, carrier, do-not-call.
import { api, type Role } from '../api';

export interface ApiKey {
  id: string;
  name: string;
  prefix: string;
  created_at: string;
  last_used_at: string | null;
  revoked: boolean;
  revoked_at: string | null;
}
export interface Webhooks {
  events_url: string | null;
  message_webhook_url: string | null;
}
export interface TestMessage {
  event_id: string;
  url: string;
  delivered: boolean;
  status: number | null;
  error: string | null;
  sent_at: string;
  duration_ms: number;
}
export interface User {
  id: string;
  email: string;
  name: string;
  role: Role;
  password_set: boolean;
  created_at: string;
}
export interface AuditEntry {
  id: string;
  at: string;
  user: { id: string; email: string } | null;
  action: string;
  target: string | null;
  details: Record<string, unknown>;
}
export interface Carrier {
  carrier: string;
  source: 'account' | 'deployment';
  account_sid: string | null;
  auth_token_set: boolean;
}
export interface DoNotCall {
  number: string;
  reason: string | null;
  createdAt: string;
}

export const access = {
  keys: () => api.get<{ keys: ApiKey[] }>('/keys').then((r) => r.keys),
  createKey: (name: string) => api.post<{ key: ApiKey; secret: string }>('/keys', { name }),
  revokeKey: (id: string) => api.delete<{ key: ApiKey }>(`/keys/${encodeURIComponent(id)}`),

  webhooks: () => api.get<Webhooks>('/webhooks'),
  saveWebhooks: (w: Webhooks) => api.patch<Webhooks>('/webhooks', w),
  testMessage: () => api.post<TestMessage>('/webhooks/test-message'),
  secret: () => api.get<{ secret: string }>('/webhooks/secret').then((r) => r.secret),
  rotateSecret: () => api.post<{ secret: string }>('/webhooks/secret/rotate').then((r) => r.secret),

  users: () => api.get<{ users: User[] }>('/users').then((r) => r.users),
  invite: (user: { email: string; name: string; role: Role }) => api.post<{ user: User; sign_in_url: string }>('/users', user),
  changeRole: (id: string, role: Role) => api.patch<{ user: User }>(`/users/${encodeURIComponent(id)}`, { role }),
  removeUser: (id: string) => api.delete<void>(`/users/${encodeURIComponent(id)}`),
  audit: (cursor?: string) =>
    api.get<{ entries: AuditEntry[]; next_cursor: string | null }>(`/audit${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ''}`),

  carrier: () => api.get<Carrier>('/carrier'),

  doNotCall: () => api.get<{ numbers: DoNotCall[] }>('/do-not-call').then((r) => r.numbers),
  addDoNotCall: (number: string, reason: string) => api.post<DoNotCall>('/do-not-call', reason ? { number, reason } : { number }),
  removeDoNotCall: (number: string) => api.delete<void>(`/do-not-call/${encodeURIComponent(number)}`),
};
