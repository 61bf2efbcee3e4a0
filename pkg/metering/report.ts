// Usage reports: a tenant's metered requests and placed calls, summed by key, app, channel or day.
import type { Db } from '../db/index.js';
import type { Clock } from '../clock.js';
import { invalid } from '../validate.js';
import { dayOf, type UsageChannel, type UsageMeter } from './meter.js';
import { toCsv } from '../csv.js';
import type { DbRow } from '../db/index.js';

/** What a usage report may be grouped by, and the column each reads. */
export const USAGE_GROUPS = ['key', 'app', 'channel', 'day'] as const;
type UsageGroup = (typeof USAGE_GROUPS)[number];

const GROUP_COLUMN: Record<UsageGroup, string> = { key: 'key_id', app: 'app', channel: 'channel', day: 'day' };

/** The longest period one report covers, in days. */
const MAX_REPORT_DAYS = 366;

interface UsageReportRow {
  key_id?: string;
  app?: string | null;
  channel?: UsageChannel;
  day?: string;
  requests: number;
  requests_over_limit: number;
  calls_placed: number;
}

interface UsageReport {
  from: string;
  to: string;
  group_by: UsageGroup[];
  data: UsageReportRow[];
}

const addDays = (day: string, n: number): string => new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

/**
 * A tenant's usage between two UTC days (both included), summed over everything not grouped
 * by; with no grouping, one row of totals. This replica's pending counts are written first.
 */
export async function usageReport(
  ctx: { db: Db; clock: Pick<Clock, 'now'>; usage: Pick<UsageMeter, 'flush'> },
  tenantId: string,
  q: { from?: string; to?: string; groupBy: UsageGroup[] },
): Promise<UsageReport> {
  const to = q.to ?? dayOf(ctx.clock);
  const from = q.from ?? addDays(to, -29);
  if (from > to) throw invalid('usage query', [{ path: 'from', message: 'must not be after to' }]);
  if (addDays(from, MAX_REPORT_DAYS - 1) < to)
    throw invalid('usage query', [{ path: 'to', message: `a report covers at most ${MAX_REPORT_DAYS} days` }]);
  await ctx.usage.flush();

  const columns = q.groupBy.map((g) => GROUP_COLUMN[g]);
  const rows: DbRow[] = await ctx
    .db('api_usage')
    .where({ tenant_id: tenantId })
    .whereBetween('day', [from, to])
    .select(columns.map((c) => (c === 'day' ? ctx.db.raw(`to_char(day, 'YYYY-MM-DD') as day`) : c)))
    .select(
      ctx.db.raw('coalesce(sum(requests), 0)::bigint as requests'),
      ctx.db.raw('coalesce(sum(requests_over_limit), 0)::bigint as requests_over_limit'),
      ctx.db.raw('coalesce(sum(calls_placed), 0)::bigint as calls_placed'),
    )
    .modify((query) => {
      if (columns.length) query.groupBy(columns).orderBy(columns);
    });
  const data = rows.map((r) => {
    const row: UsageReportRow = { requests: r.requests, requests_over_limit: r.requests_over_limit, calls_placed: r.calls_placed };
    for (const g of q.groupBy) {
      if (g === 'key') row.key_id = r.key_id;
      if (g === 'app') row.app = r.app === '' ? null : r.app;
      if (g === 'channel') row.channel = r.channel;
      if (g === 'day') row.day = r.day;
    }
    return row;
  });
  return { from, to, group_by: q.groupBy, data };
}

/** The report as CSV (RFC 4180): a header row, then the same columns as the JSON rows. */
export function usageCsv(report: UsageReport): string {
  const header = [...report.group_by.map((g) => (g === 'key' ? 'key_id' : g)), 'requests', 'requests_over_limit', 'calls_placed'];
  const lines = [header, ...report.data.map((row) => header.map((h) => row[h as keyof UsageReportRow]))];
  return toCsv(lines);
}
