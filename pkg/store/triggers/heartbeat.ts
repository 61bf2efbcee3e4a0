// The leases of running jobs: kept alive by their owner's heartbeat, or given up when the owner stops.
import type { Ctx } from '../../context.js';
import { CHANNELS, notifyIdColumn } from '../../db/notify.js';
import { heartbeatRows } from '../../db/leases.js';

/** Keep leases of running work alive: one statement, however many runs (their ids as one array). */
export async function heartbeatTriggers(ctx: Pick<Ctx, 'db' | 'clock'>, ids: string[], owner: string, leaseMs: number): Promise<void> {
  if (!ids.length) return;
  const until = new Date(ctx.clock.now().getTime() + leaseMs);
  await ctx.db('triggers')
    .whereIn('id', heartbeatRows(ctx.db, 'triggers', ids, { status: 'running', lease_owner: owner }))
    .update({ lease_until: until, due_at: until });
}

/**
 * Give up `owner`'s leases: the runs are lost. The owner is cleared so a run still going can no
 * longer record an outcome, and the announcement lets any replica's sweep fail them at once.
 */
export async function releaseTriggers(ctx: Pick<Ctx, 'db' | 'clock'>, ids: string[], owner: string): Promise<void> {
  if (!ids.length) return;
  const now = ctx.clock.now();
  await ctx.db('triggers')
    .whereRaw('id = any(?::uuid[])', [ids])
    .andWhere({ status: 'running', lease_owner: owner })
    .update({ lease_owner: null, lease_until: now, due_at: now })
    .returning(['id', notifyIdColumn(ctx.db, CHANNELS.triggers)]);
}
