// The console's client for usage and limits (/console/api/usage, /usage.csv, /overview).
import { api } from '../api';

export const USAGE_GROUPS = ['day', 'key', 'app', 'channel'] as const;
export type UsageGroup = (typeof USAGE_GROUPS)[number];

export interface UsageQuery {
  from: string;
  to: string;
  groupBy: UsageGroup[];
}

export interface UsageRow {
  day?: string;
  key_id?: string;
  app?: string | null;
  channel?: string;
  requests: number;
  requests_over_limit: number;
  calls_placed: number;
}

export interface UsageReport {
  from: string;
  to: string;
  group_by: UsageGroup[];
  data: UsageRow[];
}

export interface Overview {
  from: string;
  to: string;
  days: { day: string; requests: number; calls_placed: number; credits_used: number }[];
  jobs_by_status: Record<string, number>;
  limits: {
    requests_per_minute: { limit: number; busiest_key_this_minute: number };
    max_concurrent_calls: { limit: number; live: number };
    calls_per_minute: { limit: number; this_minute: number };
    max_pending_jobs: { limit: number; most_pending_in_one_conversation: number };
    /** null: no cap. */
    max_concurrent_jobs: { limit: number | null; running: number };
    calls_per_number: { per_day: number; per_week: number };
    allowed_countries: string[];
    credits: { balance: number; min_credits: number; billing: 'prepaid' | 'payg' };
  };
}

function queryString(q: UsageQuery): string {
  const params = new URLSearchParams({ from: q.from, to: q.to });
  if (q.groupBy.length) params.set('group_by', q.groupBy.join(','));
  return params.toString();
}

export const usageApi = {
  overview: () => api.get<Overview>('/overview'),
  report: (q: UsageQuery) => api.get<UsageReport>(`/usage?${queryString(q)}`),
  /** Where the same report downloads as CSV. */
  csvHref: (q: UsageQuery) => `/console/api/usage.csv?${queryString(q)}`,
};
