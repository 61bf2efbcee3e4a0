// The console's calls: list, a call's page, live changes (SSE), steer and hang up.
import { api } from '../api';

export const CALL_STATUSES = ['queued', 'ringing', 'in-progress', 'completed', 'busy', 'no-answer', 'failed', 'canceled'] as const;
export const LIVE_STATUSES: readonly string[] = ['queued', 'ringing', 'in-progress'];

export interface Call {
  id: string;
  direction: 'outbound' | 'inbound';
  from: string;
  to: string;
  status: string;
  duration_sec: number;
  created_at: string;
  answered_at: string | null;
  ended_at: string | null;
  hangup_cause: string | null;
  handler: string | null;
  ai: { agent_id: string } | null;
  queue: { name: string; position: number } | null;
}

export interface CallResult {
  final: boolean;
  outcome: string;
  result: { outcome: string; answers: Record<string, unknown>; note: string } | null;
  summary: string;
  transcript: { speaker: 'agent' | 'caller'; text: string }[];
}

export interface CallDetail {
  call: Call;
  result: CallResult;
  timeline: { at: string; kind: string; detail: string }[];
  messages: { id: string; kind: string; summary: string; duration_sec?: number }[];
}

export interface CallFilters {
  status?: string;
  direction?: string;
  to?: string;
  from?: string;
  created_after?: string;
  created_before?: string;
}

export type CallEvent = { type: 'call'; call: Call; result: CallResult } | { type: 'resync' | 'ready' | 'ping' };

export const listCalls = (filters: CallFilters, cursor?: string) => {
  const query = new URLSearchParams(Object.entries({ ...filters, cursor }).filter((e): e is [string, string] => !!e[1]));
  return api.get<{ data: Call[]; next_cursor: string | null }>(`/calls?${query}`);
};

export const getCall = (id: string) => api.get<CallDetail>(`/calls/${encodeURIComponent(id)}`);

export const steerCall = (id: string, steering: { say?: string; instruction?: string }) =>
  api.post<unknown>(`/calls/${encodeURIComponent(id)}/steer`, steering);

export const hangUpCall = (id: string) => api.post<{ call: Call }>(`/calls/${encodeURIComponent(id)}/hangup`);

export const recordingUrl = (callId: string, messageId: string) =>
  `/console/api/calls/${encodeURIComponent(callId)}/messages/${encodeURIComponent(messageId)}/recording`;

/** Every change of the account's calls while the page is open; returns the function that stops watching. */
export function watchCalls(onEvent: (event: CallEvent) => void): () => void {
  const source = new EventSource('/console/api/calls/stream');
  source.onmessage = (message) => onEvent(JSON.parse(message.data) as CallEvent);
  // Refused for good (the session ended): asking for the session sends the page to sign in.
  source.onerror = () => {
    if (source.readyState === EventSource.CLOSED) api.get('/session').catch(() => {});
  };
  return () => source.close();
}
