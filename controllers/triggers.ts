// The trigger reconciler: runs due jobs, expires overdue waits, fails runs whose worker was lost.
import { CHANNELS } from '../pkg/db/notify.js';
import {
  claimDueTriggers,
  heartbeatTriggers,
  releaseTriggers,
  sweepTriggers,
} from '../pkg/store/triggers.js';
import { runTrigger } from '../pkg/triggers/run.js';
import { registerJobGauge } from '../pkg/metrics/index.js';
import type { Ctx } from '../pkg/context.js';
import type { HandedLock } from '../pkg/db/locks.js';
import type { TriggerRow } from '../pkg/store/triggers.js';
import type { Claimed, Reconciler } from './manager.js';

/** A claimed job; its run claims the next one in its closing round trip, which then runs in its slot. */
function job(ctx: Ctx, owner: string, leaseMs: number, row: TriggerRow, lock: HandedLock | null): Claimed {
  return {
    id: row.id,
    async run(mayClaimNext) {
      const { next, looked } = await runTrigger(ctx, row, owner, { lock, next: { leaseMs, may: mayClaimNext } });
      if (looked) return { next: next && job(ctx, owner, leaseMs, next.row, next.lock) };
    },
  };
}

export const triggersReconciler: Reconciler = {
  name: 'triggers',
  channel: CHANNELS.triggers,
  // A running job is changed only by its own run (cancel refuses running jobs), announcing its claim and end.
  quietWhileRunning: true,
  // Every row the sweep acts on has its due time passed.
  sweepsDueRowsOnly: true,
  async sweep(ctx) {
    await sweepTriggers(ctx);
  },
  async claim(ctx, owner, leaseMs, max) {
    const { claimed, nextDue } = await claimDueTriggers(ctx, owner, leaseMs, max);
    return { claimed: claimed.map((row) => job(ctx, owner, leaseMs, row, null)), nextDue };
  },
  heartbeat: heartbeatTriggers,
  release: releaseTriggers,
  registerMetrics: (ctx) => registerJobGauge(ctx.metrics, ctx.db),
};
