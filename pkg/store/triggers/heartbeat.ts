// The leases of running jobs: kept alive by their owner's heartbeat, or given up when the owner stops.
import type { Ctx } from '../../context.js';
import { CHANNELS } from '../../db/notify.js';
import { releaseLeases, renewLeases, type Leased } from '../../db/leases.js';

/** A job is leased while it runs; the sweep fails it once the lease runs out (pkg/triggers/sweeps.ts). */
export const TRIGGER_LEASES: Leased = {
  table: 'triggers',
  held: { status: 'running' },
  channel: CHANNELS.triggers,
  reconciler: 'triggers',
};

/** Keep leases of running work alive: one statement, however many runs (their ids as one array). */
export async function heartbeatTriggers(ctx: Pick<Ctx, 'db' | 'clock'>, ids: string[], owner: string, leaseMs: number): Promise<void> {
  await renewLeases(ctx, TRIGGER_LEASES, ids, owner, leaseMs);
}

/**
 * Give up `owner`'s leases: the runs are lost. The owner is cleared so a run still going can no
 * longer record an outcome, and the announcement lets any replica's sweep fail them at once.
 */
export async function releaseTriggers(ctx: Pick<Ctx, 'db' | 'clock'>, ids: string[], owner: string): Promise<void> {
  await releaseLeases(ctx, TRIGGER_LEASES, ids, owner);
}
