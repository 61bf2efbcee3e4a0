// Campaign run rows: reading, conditional transitions, and the campaigns controller's claim,
// heartbeat and release queries. Every change a controller must see is announced on CHANNELS.campaigns.
import type { Knex } from 'knex';
import type { Ctx } from '../../context.js';
import { NotFound } from '../../errors.js';
import { claimEarliestDue, releaseLeases, renewLeases, type Leased } from '../../db/leases.js';
import { CHANNELS, notify } from '../../db/notify.js';

export interface RunRow {
  id: string;
  seq: number;
  tenant_id: string;
  campaign_id: string;
  test: boolean;
  test_number: string | null;
  /** As pkg/campaigns/state.ts names it. */
  status: string;
  error: string | null;
  started_at: Date;
  ended_at: Date | null;
  list_requested_at: Date | null;
  listed_at: Date | null;
  stopped_at: Date | null;
  summary_sent_at: Date | null;
  due_at: Date | null;
  lease_owner: string | null;
  lease_until: Date | null;
}

/** A conditional status change: from any of `from` to `to`, as the domain's state table says. */
export interface StatusMove {
  from: readonly string[];
  to: string;
}

export async function insertRun(
  db: Knex,
  row: Pick<RunRow, 'id' | 'tenant_id' | 'campaign_id' | 'status' | 'test' | 'test_number' | 'started_at'>,
): Promise<RunRow> {
  const [inserted] = await db('campaign_runs')
    .insert({ ...row, due_at: row.started_at })
    .returning('*');
  await notify(db, CHANNELS.campaigns, inserted.id);
  return inserted;
}

export async function getRun(ctx: Pick<Ctx, 'db'>, tenantId: string, id: string): Promise<RunRow> {
  const row = await ctx.db('campaign_runs').where({ id, tenant_id: tenantId }).first();
  if (!row) throw new NotFound(`No campaign run ${id} on this account`);
  return row;
}

export const runById = (db: Knex, id: string): Promise<RunRow | undefined> => db('campaign_runs').where({ id }).first();

/** The campaign's active non-test run, if any. */
export const activeRunOf = (ctx: Pick<Ctx, 'db'>, campaignId: string): Promise<RunRow | undefined> =>
  ctx.db('campaign_runs').where({ campaign_id: campaignId, status: 'running', test: false }).first();

export const listRuns = (ctx: Pick<Ctx, 'db'>, campaignId: string): Promise<RunRow[]> =>
  ctx.db('campaign_runs').where({ campaign_id: campaignId }).orderBy('seq', 'desc').limit(100);

/** Move the run to `move.to` if it is still in one of `move.from` (its state table's move); null when it had moved on. */
export async function transitionRun(ctx: Pick<Ctx, 'db'>, id: string, move: StatusMove, patch: Partial<RunRow>): Promise<RunRow | null> {
  const [row] = await ctx
    .db('campaign_runs')
    .where({ id })
    .whereIn('status', move.from)
    .update({ ...patch, status: move.to })
    .returning('*');
  if (row) await notify(ctx.db, CHANNELS.campaigns, id);
  return row ?? null;
}

export async function updateRun(db: Knex, id: string, patch: Partial<RunRow>): Promise<void> {
  await db('campaign_runs').where({ id }).update(patch);
}

/** Make the run due now (a call of it ended, a result was taken, it was stopped). */
export async function wakeRun(ctx: Pick<Ctx, 'db' | 'clock'>, id: string): Promise<void> {
  await ctx.db('campaign_runs').where({ id }).whereNull('summary_sent_at').update({ due_at: ctx.clock.now() });
  await notify(ctx.db, CHANNELS.campaigns, id);
}

/** A run is leased for each step its controller takes; between steps nobody holds it. */
const RUN_LEASES: Leased = { table: 'campaign_runs', held: {}, channel: CHANNELS.campaigns, reconciler: 'campaigns' };

/** Claim one due run for `owner`: one nobody holds, or whose lease ran out. */
export const claimDueRun = (ctx: Pick<Ctx, 'db' | 'clock' | 'metrics'>, owner: string, leaseMs: number): Promise<RunRow | null> =>
  claimEarliestDue<RunRow>(ctx, RUN_LEASES, { where: '(lease_owner is null or lease_until <= :now)' }, owner, leaseMs);

/**
 * Hand the run back after a step, due again at `dueAt` (null: when something announces it). A
 * wake-up that came during the step (its due time moved before `dueAt`) is kept.
 */
export async function unleaseRun(
  ctx: Pick<Ctx, 'db' | 'clock'>,
  id: string,
  owner: string,
  dueAt: Date | null,
  claimedUntil: Date,
): Promise<void> {
  await ctx
    .db('campaign_runs')
    .where({ id, lease_owner: owner })
    .update({
      lease_owner: null,
      lease_until: null,
      due_at: ctx.db.raw('case when due_at < ? then due_at else ?::timestamptz end', [claimedUntil, dueAt]),
    });
}

export async function heartbeatRuns(ctx: Pick<Ctx, 'db' | 'clock'>, ids: string[], owner: string, leaseMs: number): Promise<void> {
  await renewLeases(ctx, RUN_LEASES, ids, owner, leaseMs);
}

export async function releaseRuns(ctx: Pick<Ctx, 'db' | 'clock'>, ids: string[], owner: string): Promise<void> {
  await releaseLeases(ctx, RUN_LEASES, ids, owner);
}

export async function nextRunDue(ctx: Pick<Ctx, 'db'>): Promise<Date | null> {
  const { rows } = await ctx.db.raw(
    `select least((select min(due_at) from campaign_runs where due_at is not null),
                  (select min(next_start_at) from campaigns where next_start_at is not null and archived_at is null)) as at`,
  );
  return rows[0]?.at ?? null;
}

/** Every run not ended, and those ended since `since` (what the CR mirror shows). */
export const runsEndedSince = (ctx: Pick<Ctx, 'db'>, since: Date): Promise<RunRow[]> =>
  ctx.db('campaign_runs').whereNull('ended_at').orWhere('ended_at', '>=', since).orderBy('seq');
