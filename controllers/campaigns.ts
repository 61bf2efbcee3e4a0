// The campaigns reconciler: starts scheduled runs, and moves each due run one step (list, dials,
// end and summary). Calls of a run are conducted by the calls reconciler; their ends wake the run.
import { CHANNELS } from '../pkg/db/notify.js';
import { advanceRun } from '../pkg/campaigns/advance.js';
import { startScheduledRuns } from '../pkg/campaigns/scheduled-starts.js';
import { registerCampaignRunGauge } from '../pkg/metrics/index.js';
import { claimDueRun, heartbeatRuns, nextRunDue, releaseRuns } from '../pkg/store/campaigns/runs.js';
import { claimOneByOne, type Reconciler } from './manager.js';

export const campaignsReconciler: Reconciler = {
  name: 'campaigns',
  channel: CHANNELS.campaigns,
  sweep: startScheduledRuns,
  claim: claimOneByOne(async (ctx, owner, leaseMs) => {
    const row = await claimDueRun(ctx, owner, leaseMs);
    return row && { id: row.id, run: () => advanceRun(ctx, row, owner) };
  }, nextRunDue),
  heartbeat: heartbeatRuns,
  release: releaseRuns,
  registerMetrics: (ctx) => registerCampaignRunGauge(ctx.metrics, ctx.db),
};
