// The trigger reconciler: runs due jobs, expires overdue waits, fails runs whose worker was lost.
import { CHANNELS } from '../pkg/db/notify.js';
import {
  claimDueTrigger,
  heartbeatTriggers,
  nextTriggerDue,
  releaseTriggers,
  sweepTriggers,
} from '../pkg/store/triggers.js';
import { runTrigger } from '../pkg/triggers/run.js';
import { registerJobGauge } from '../pkg/metrics/index.js';
import type { Reconciler } from './manager.js';

export const triggersReconciler: Reconciler = {
  name: 'triggers',
  channel: CHANNELS.triggers,
  // A running job is changed only by its own run (cancel refuses running jobs), announcing its claim and end.
  quietWhileRunning: true,
  async sweep(ctx) {
    await sweepTriggers(ctx);
  },
  async claim(ctx, owner, leaseMs) {
    const row = await claimDueTrigger(ctx, owner, leaseMs);
    return row && { id: row.id, run: async () => void (await runTrigger(ctx, row, owner)) };
  },
  heartbeat: heartbeatTriggers,
  release: releaseTriggers,
  nextDue: nextTriggerDue,
  registerMetrics: (ctx) => registerJobGauge(ctx.metrics, ctx.db),
};
