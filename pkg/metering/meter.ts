// Usage metering of the API and MCP: counters per tenant, key, connected app, channel and UTC day,
// upserted in Postgres (one row per combination and day, never a row per request).
import type { Db } from '../db/index.js';
import type { Clock } from '../clock.js';
import type { Logger } from '../log.js';
import type { Metrics } from '../metrics/index.js';
import { appName } from './app.js';

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

export const dayOf = (clock: Pick<Clock, 'now'>): string => clock.now().toISOString().slice(0, 10);

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
export async function countCallPlaced(ctx: { db: Db; clock: Pick<Clock, 'now'>; metrics: Metrics }, ref: UsageRef): Promise<void> {
  await addUsage(ctx.db, [{ ...emptyRow(ref, dayOf(ctx.clock)), calls_placed: 1 }]);
  ctx.metrics.callsPlaced.inc({ tenant: ref.tenantId, key: ref.keyId, channel: ref.channel });
}

/** Postgres refused a row's values (SQLSTATE class 22, data exception, or 23, integrity constraint): writing it again cannot succeed. */
const refusedRow = (err: unknown): boolean => /^2[23]/.test(String((err as { code?: unknown }).code ?? ''));

/**
 * Request counts, kept in memory and added to Postgres every `flushMs` (and on flush/close), so a
 * request costs no database write. A failed write keeps its counts for the next flush, but a row the
 * database refuses is dropped alone.
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
      if (!refusedRow(err)) {
        this.log.error({ err: (err as Error).message, rows: batch.length }, 'usage counters not written; kept for the next flush');
        this.#keep(batch);
        return;
      }
      // A row the database refuses (its tenant deleted meanwhile) must not hold back the others'.
      for (const [i, row] of batch.entries()) {
        try {
          await addUsage(this.db, [row]);
        } catch (rowErr) {
          if (!refusedRow(rowErr)) return this.#keep(batch.slice(i));
          this.log.error(
            { err: (rowErr as Error).message, tenantId: row.tenant_id, keyId: row.key_id, day: row.day },
            'usage row refused by the database; dropped',
          );
        }
      }
    }
  }

  #keep(rows: UsageRow[]): void {
    for (const row of rows) {
      const key = rowKey(row);
      const now = this.#pending.get(key);
      if (now) for (const c of ['requests', 'requests_over_limit', 'calls_placed'] as const) now[c] += row[c];
      else this.#pending.set(key, row);
    }
  }
}
