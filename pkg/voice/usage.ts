// Usage metering of the API and MCP: counters per account, key, connected app, channel and UTC day,
// upserted in Postgres (one row per combination and day, never a row per request).
import type { Ctx } from '../context.js';
import type { Db } from '../db/index.js';
import type { Clock } from '../clock.js';
import type { Logger } from '../log.js';
import { invalid } from '../validate.js';

export type UsageChannel = 'api' | 'mcp';

/** Who made a request or placed a call. `app` is the connected app's name; null or '' when none was declared. */
export interface UsageRef {
  tenantId: string;
  keyId: string;
  app?: string | null;
  channel: UsageChannel;
}

type Counter = 'requests' | 'requests_over_limit' | 'calls_placed';

interface UsageRow {
  tenant_id: string;
  key_id: string;
  app: string;
  channel: UsageChannel;
  day: string;
  requests: number;
  requests_over_limit: number;
  calls_placed: number;
}

/** The longest app name kept, in characters; longer declared names are cut there. */
const MAX_APP_LENGTH = 100;

/** A declared app name as stored and limited: trimmed, at most MAX_APP_LENGTH characters (never half of one), '' for none. */
export const appName = (declared: string | null | undefined): string => [...(declared ?? '').trim()].slice(0, MAX_APP_LENGTH).join('');

const dayOf = (clock: Pick<Clock, 'now'>): string => clock.now().toISOString().slice(0, 10);

const emptyRow = (ref: UsageRef, day: string): UsageRow => ({
  tenant_id: ref.tenantId,
  key_id: ref.keyId,
  app: appName(ref.app),
  channel: ref.channel,
  day,
  requests: 0,
  requests_over_limit: 0,
  calls_placed: 0,
});

const rowKey = (r: Pick<UsageRow, 'tenant_id' | 'key_id' | 'app' | 'channel' | 'day'>): string =>
  JSON.stringify([r.tenant_id, r.key_id, r.app, r.channel, r.day]);

/** Adds the rows' counts to the stored counters; rows go in key order so concurrent writers cannot deadlock. */
async function addUsage(db: Db, rows: UsageRow[]): Promise<void> {
  if (rows.length === 0) return;
  const sorted = [...rows].sort((a, b) => (rowKey(a) < rowKey(b) ? -1 : 1));
  await db('api_usage')
    .insert(sorted)
    .onConflict(['tenant_id', 'key_id', 'app', 'channel', 'day'])
    .merge({
      requests: db.raw('api_usage.requests + excluded.requests'),
      requests_over_limit: db.raw('api_usage.requests_over_limit + excluded.requests_over_limit'),
      calls_placed: db.raw('api_usage.calls_placed + excluded.calls_placed'),
    });
}

/**
 * Counts one placed call. Written at once (not batched), so a caller that passes its transaction
 * as `ctx.db` counts the call exactly when the call is stored.
 */
export async function countCallPlaced(ctx: Pick<Ctx, 'db' | 'clock' | 'metrics'>, ref: UsageRef): Promise<void> {
  await addUsage(ctx.db, [{ ...emptyRow(ref, dayOf(ctx.clock)), calls_placed: 1 }]);
  ctx.metrics.callsPlaced.inc({ tenant: ref.tenantId, key: ref.keyId, channel: ref.channel });
}

/**
 * Request counts, kept in memory and added to Postgres every `flushMs` (and on flush/close), so a
 * request costs no database write. A failed write keeps its counts for the next flush.
 */
export class UsageMeter {
  #pending = new Map<string, UsageRow>();
  #chain: Promise<void> = Promise.resolve();
  readonly #timer: NodeJS.Timeout;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly log: Logger,
    flushMs = 1000,
  ) {
    this.#timer = setInterval(() => void this.flush(), flushMs).unref();
  }

  /** Counts one authenticated request; `overLimit` when a rate limit refused it (it is still a request made). */
  countRequest(ref: UsageRef, overLimit: boolean): void {
    this.#add(ref, overLimit ? ['requests', 'requests_over_limit'] : ['requests']);
  }

  /** Writes what is pending; flushes run one after another. */
  flush(): Promise<void> {
    this.#chain = this.#chain.then(() => this.#write());
    return this.#chain;
  }

  async close(): Promise<void> {
    clearInterval(this.#timer);
    await this.flush();
  }

  #add(ref: UsageRef, counters: Counter[]): void {
    const fresh = emptyRow(ref, dayOf(this.clock));
    const key = rowKey(fresh);
    const row = this.#pending.get(key) ?? fresh;
    for (const c of counters) row[c] += 1;
    this.#pending.set(key, row);
  }

  async #write(): Promise<void> {
    if (this.#pending.size === 0) return;
    const batch = [...this.#pending.values()];
    this.#pending = new Map();
    try {
      await addUsage(this.db, batch);
    } catch (err) {
      this.log.error({ err: (err as Error).message, rows: batch.length }, 'usage counters not written; kept for the next flush');
      for (const row of batch) {
        const key = rowKey(row);
        const now = this.#pending.get(key);
        if (now) for (const c of ['requests', 'requests_over_limit', 'calls_placed'] as const) now[c] += row[c];
        else this.#pending.set(key, row);
      }
    }
  }
}

/** What a usage report may be grouped by, and the column each reads. */
export const USAGE_GROUPS = ['key', 'app', 'channel', 'day'] as const;
export type UsageGroup = (typeof USAGE_GROUPS)[number];

const GROUP_COLUMN: Record<UsageGroup, string> = { key: 'key_id', app: 'app', channel: 'channel', day: 'day' };

/** The longest period one report covers, in days. */
export const MAX_REPORT_DAYS = 366;

export interface UsageReportRow {
  key_id?: string;
  app?: string | null;
  channel?: UsageChannel;
  day?: string;
  requests: number;
  requests_over_limit: number;
  calls_placed: number;
}

export interface UsageReport {
  from: string;
  to: string;
  group_by: UsageGroup[];
  data: UsageReportRow[];
}

const addDays = (day: string, n: number): string => new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

/**
 * An account's usage between two UTC days (both included), summed over everything not grouped
 * by; with no grouping, one row of totals. This replica's pending counts are written first.
 */
export async function usageReport(
  ctx: Pick<Ctx, 'db' | 'clock' | 'usage'>,
  tenantId: string,
  q: { from?: string; to?: string; groupBy: UsageGroup[] },
): Promise<UsageReport> {
  const to = q.to ?? dayOf(ctx.clock);
  const from = q.from ?? addDays(to, -29);
  if (from > to) throw invalid('usage query', [{ path: 'from', message: 'must not be after to' }]);
  if (addDays(from, MAX_REPORT_DAYS - 1) < to) throw invalid('usage query', [{ path: 'to', message: `a report covers at most ${MAX_REPORT_DAYS} days` }]);
  await ctx.usage.flush();

  const columns = q.groupBy.map((g) => GROUP_COLUMN[g]);
  const rows: Record<string, any>[] = await ctx.db('api_usage')
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

const csvCell = (v: unknown): string => {
  const s = v === null || v === undefined ? '' : String(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};

/** The report as CSV (RFC 4180): a header row, then the same columns as the JSON rows. */
export function usageCsv(report: UsageReport): string {
  const header = [...report.group_by.map((g) => (g === 'key' ? 'key_id' : g)), 'requests', 'requests_over_limit', 'calls_placed'];
  const lines = [header, ...report.data.map((row) => header.map((h) => row[h as keyof UsageReportRow]))];
  return lines.map((cells) => cells.map(csvCell).join(',')).join('\r\n') + '\r\n';
}
