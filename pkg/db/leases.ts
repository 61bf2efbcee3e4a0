// Leases: a row worked on by one replica (lease_owner) until lease_until, kept alive by its owner's
// heartbeat and given up on shutdown. due_at follows lease_until, so a lease that runs out makes its
// row due to the sweep or the next claim. Every leased table (jobs, calls, webhook deliveries,
// campaign runs) renews and releases its leases here, and takes them with the pieces below (a one-row
// claim whole); which rows are due stays with each table's claim.
import type { Knex } from 'knex';
import type { Ctx } from '../context.js';
import { notifyIdColumn } from './notify.js';

/** A table whose rows are leased, and what holding one of its rows means. */
export interface Leased {
  table: string;
  /** What a row must still be, beside leased to the owner, for a heartbeat or release to touch it (its status); {} for any. */
  held: Record<string, unknown>;
  /** The NOTIFY channel its changes are announced on, each with the row's id. */
  channel: string;
  /** Its reconciler's name, the label of its queue lag. */
  reconciler: string;
  /** When a row whose lease is renewed until `until` is next due (SQL on the row); unset: `until`. */
  renewedDue?: (db: Knex, until: Date) => Knex.Raw;
}

/** A claim's assignments to the lease columns, bound by name: `:owner`, and `:until` (LeaseTaken). */
export const TAKE_LEASE = 'lease_owner = :owner, lease_until = :until, due_at = :until';

/** The named bindings of a claim made now: the time, the owner and when its lease runs out. */
export type LeaseTaken = { now: Date; owner: string; until: Date };

/** When a lease taken or renewed at `now` runs out. */
export const leaseEnd = (now: Date, leaseMs: number): Date => new Date(now.getTime() + leaseMs);

export function takeLease(ctx: Pick<Ctx, 'clock'>, owner: string, leaseMs: number): LeaseTaken {
  const now = ctx.clock.now();
  return { now, owner, until: leaseEnd(now, leaseMs) };
}

/** Counts the wait of a row claimed at `now` that was due at `due` in its reconciler's queue lag. */
export function observeClaimed(ctx: Pick<Ctx, 'metrics'>, leased: Leased, now: Date, due: Date): void {
  ctx.metrics.queueLag.observe({ reconciler: leased.reconciler }, Math.max(0, now.getTime() - due.getTime()) / 1000);
}

/** Which rows of a table whose claim takes one row at a time are due, and what else claiming one sets. */
export interface DueRows {
  /** SQL on the row, beside `due_at <= :now`; named bindings: LeaseTaken's and `bindings`. */
  where: string;
  /** More assignments (SQL, the same bindings). */
  set?: string;
  bindings?: Record<string, unknown>;
}

/** Claim for `owner` the earliest due row of `leased` that `due` selects. SKIP LOCKED lets replicas claim side by side. */
export async function claimEarliestDue<Row>(
  ctx: Pick<Ctx, 'db' | 'clock' | 'metrics'>,
  leased: Leased,
  due: DueRows,
  owner: string,
  leaseMs: number,
): Promise<Row | null> {
  const lease = takeLease(ctx, owner, leaseMs);
  const { rows } = await ctx.db.raw(
    `with candidate as (
       select id, due_at from ${leased.table}
       where due_at <= :now and ${due.where}
       order by due_at limit 1 for update skip locked
     )
     update ${leased.table} r set ${TAKE_LEASE}${due.set ? `, ${due.set}` : ''}
     from candidate where r.id = candidate.id
     returning r.*, candidate.due_at as was_due`,
    { ...due.bindings, ...lease },
  );
  const claimed = rows[0];
  if (!claimed) return null;
  const { was_due: wasDue, ...row } = claimed;
  observeClaimed(ctx, leased, lease.now, wasDue);
  return row as Row;
}

/**
 * The ids of `leased`'s rows among `ids` that `owner` holds, locked for the heartbeat's statement,
 * skipping those locked already: a row locked by a transition (or anything else) is renewed at the
 * next beat, a third of a lease later, rather than holding up every other row's renewal, and a
 * connection, until the lock goes.
 */
const heartbeatRows = (db: Knex, table: string, ids: string[], where: Record<string, unknown>): Knex.QueryBuilder =>
  db(table).select('id').whereRaw('id = any(?)', [ids]).andWhere(where).forUpdate().skipLocked();

/**
 * Keep `owner`'s leases on `ids` alive for `leaseMs` more: one statement, however many rows (their
 * ids as one array). Returns the rows renewed, with the `returning` columns.
 */
export async function renewLeases<Row = { id: string }>(
  ctx: Pick<Ctx, 'db' | 'clock'>,
  leased: Leased,
  ids: string[],
  owner: string,
  leaseMs: number,
  returning: readonly string[] = ['id'],
): Promise<Row[]> {
  if (!ids.length) return [];
  const until = leaseEnd(ctx.clock.now(), leaseMs);
  const renewed = await ctx
    .db(leased.table)
    .whereIn('id', heartbeatRows(ctx.db, leased.table, ids, { ...leased.held, lease_owner: owner }))
    .update({ lease_until: until, due_at: leased.renewedDue?.(ctx.db, until) ?? until })
    .returning([...returning]);
  return renewed as Row[];
}

/**
 * Give up `owner`'s leases on `ids` at once (on shutdown): the owner is cleared, so a run still going
 * can no longer record an outcome, and each row is due now and announced, so any replica's sweep or
 * claim takes it up rather than waiting for the lease to run out.
 */
export async function releaseLeases(ctx: Pick<Ctx, 'db' | 'clock'>, leased: Leased, ids: string[], owner: string): Promise<void> {
  if (!ids.length) return;
  const now = ctx.clock.now();
  await ctx
    .db(leased.table)
    .whereIn('id', ids)
    .andWhere({ ...leased.held, lease_owner: owner })
    .update({ lease_owner: null, lease_until: now, due_at: now })
    .returning(['id', notifyIdColumn(ctx.db, leased.channel)]);
}
