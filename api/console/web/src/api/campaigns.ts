// The console's client for campaigns, their runs and results, and connections (/console/api), in
// the Voice API's shapes.
import { api } from '../api';

export const DAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Day = (typeof DAYS)[number];

export interface Schedule {
  days: Day[];
  start_time: string;
  timezone: string;
}

export interface Campaign {
  id: string;
  name: string;
  agent_id: string;
  connection_id: string;
  task: string | null;
  greeting: string | null;
  questions: { key: string; question: string }[];
  outcomes: string[] | null;
  from: string | null;
  schedule: Schedule | null;
  timezone: string;
  calling_hours: { start: string; end: string };
  max_attempts: number;
  retry_after_minutes: number;
  concurrency: number;
  leave_voicemail: boolean;
  next_start_at: string | null;
  archived: boolean;
  created_at: string;
  updated_at: string;
}

/** What a campaign is made or changed with (the Voice API's request fields). */
export type CampaignChange = Partial<Omit<Campaign, 'id' | 'next_start_at' | 'archived' | 'created_at' | 'updated_at'>>;

export interface Run {
  id: string;
  campaign_id: string;
  test: boolean;
  status: 'running' | 'done' | 'stopped' | 'failed';
  started_at: string;
  ended_at: string | null;
  error: string | null;
  contacts: { total: number; done: number; no_answer: number; skipped: number; pending: number; unfinished: number };
  outcomes: Record<string, number>;
  results_not_taken: number;
}

/** A person's result as the connection's results path was sent it. */
export interface RunResult {
  contact_id: string;
  call_id: string;
  attempts: number;
  status: string;
  skipped_reason?: string;
  outcome?: string;
  note?: string;
  summary?: string;
  opt_out?: boolean;
}

export interface Connection {
  id: string;
  name: string;
  base_url: string;
  list_path: string;
  results_path: string;
  sign_in_header: { name: string; value_set: true } | null;
  created_at: string;
  updated_at: string;
}

export interface ConnectionChange {
  name?: string;
  base_url?: string;
  list_path?: string;
  results_path?: string;
  /** The value is write-only: sent to set or replace it, never read back; null removes the header. */
  sign_in_header?: { name: string; value: string } | null;
}

const list = <T>(path: string) => api.get<{ data: T[] }>(path).then((r) => r.data);

export const campaignsApi = {
  campaigns: () => list<Campaign>('/campaigns'),
  campaign: (id: string) => api.get<Campaign>(`/campaigns/${encodeURIComponent(id)}`),
  create: (body: CampaignChange) => api.post<Campaign>('/campaigns', body),
  update: (id: string, body: CampaignChange) => api.patch<Campaign>(`/campaigns/${encodeURIComponent(id)}`, body),
  archive: (id: string) => api.delete<Campaign>(`/campaigns/${encodeURIComponent(id)}`),
  agents: () => list<{ id: string; name: string }>('/campaign-agents'),

  runs: (campaignId: string) => list<Run>(`/campaigns/${encodeURIComponent(campaignId)}/runs`),
  start: (campaignId: string, testNumber?: string) =>
    api.post<Run>(
      `/campaigns/${encodeURIComponent(campaignId)}/runs`,
      testNumber === undefined ? {} : { test: true, test_number: testNumber },
    ),
  run: (id: string) => api.get<Run>(`/campaign-runs/${encodeURIComponent(id)}`),
  results: (id: string) =>
    api.get<{ data: RunResult[]; next_cursor: string | null }>(`/campaign-runs/${encodeURIComponent(id)}/results?limit=100`),
  stop: (id: string) => api.post<Run>(`/campaign-runs/${encodeURIComponent(id)}/stop`),

  connections: () => list<Connection>('/connections'),
  createConnection: (body: ConnectionChange) => api.post<Connection>('/connections', body),
  updateConnection: (id: string, body: ConnectionChange) => api.patch<Connection>(`/connections/${encodeURIComponent(id)}`, body),
  deleteConnection: (id: string) => api.delete<Connection>(`/connections/${encodeURIComponent(id)}`),
};
