// The trigger reconciler: runs due jobs, expires overdue waits, fails runs whose worker was lost.
import { CHANNELS } from '../pkg/db/notify.js';
import { claimDueTriggers } from '../pkg/triggers/claim.js';
import { heartbeatTriggers, releaseTriggers } from '../pkg/store/triggers/heartbeat.js';
import { sweepTriggers } from '../pkg/store/triggers/sweep.js';
import { SWEEPS } from '../pkg/triggers/sweeps.js';
import { runTrigger } from '../pkg/triggers/run.js';
import { registerJobGauge } from '../pkg/metrics/index.js';
import type { Reconciler } from './manager.js';

export const triggersReconciler: Reconciler = {
  name: 'triggers',
  channel: CHANNELS.triggers,
  // A running job is changed only by its own run (cancel refuses running jobs), announcing its claim and end.
  quietWhileRunning: true,
  // Every row the sweep acts on has its due time passed.
  sweepsDueRowsOnly: true,
  async sweep(ctx) {
    await sweepTriggers(ctx, SWEEPS);
  },
  async claim(ctx, owner, leaseMs, max) {
    const { claimed, nextDue } = await claimDueTriggers(ctx, owner, leaseMs, max);
    return {
      claimed: claimed.map((row) => ({ id: row.id, run: async (closing) => void (await runTrigger(ctx, row, owner, closing)) })),
      nextDue,
    };
  },
  heartbeat: heartbeatTriggers,
  release: releaseTriggers,
  registerMetrics: (ctx) => registerJobGauge(ctx.metrics, ctx.db),
};
