// The webhooks reconciler: delivers outbox rows, many receivers at once, each key's rows one at a time in order.
import { CHANNELS } from '../pkg/db/notify.js';
import type { Ctx } from '../pkg/context.js';
import {
  AttemptRecorder,
  claimDueDeliveries,
  envelopeOf,
  heartbeatDeliveries,
  nextDeliveryDue,
  releaseDeliveries,
  type ClaimedDelivery,
} from '../pkg/store/webhooks.js';
import { envelopeOutgoing, sendEvent } from '../pkg/webhooks/deliver.js';
import { recordAttempt, sweepDeliveries } from '../pkg/webhooks/outcomes.js';
import { campaignOutgoing } from '../pkg/campaigns/outgoing.js';
import { wakeRun } from '../pkg/store/campaigns/runs.js';
import type { Reconciler } from './manager.js';

async function deliver(ctx: Ctx, row: ClaimedDelivery, recorder: AttemptRecorder, closing: () => void): Promise<void> {
  const { run_id: runId, stored_secret: storedSecret } = row;
  const outgoing = runId ? campaignOutgoing(ctx, { ...row, run_id: runId }) : envelopeOutgoing(envelopeOf(row));
  const outcome = await sendEvent(ctx, row.url, { ...outgoing, storedSecret });
  // Only the outcome's write is left: the next delivery may take this one's place meanwhile.
  closing();
  const result = await recordAttempt(ctx, recorder, row, outcome);
  if (!result) return;
  ctx.metrics.webhookDeliveries.inc({ result });
  if (runId && result !== 'retry') {
    ctx.metrics.campaignDeliveries.inc({ result: result === 'delivered' ? 'delivered' : 'given_up' });
    // The run may be waiting for its last result to be taken or given up.
    await wakeRun(ctx, runId);
  }
  if (result !== 'delivered') {
    const fields = { eventId: row.id, type: row.type, tenantId: row.tenant_id, attempt: row.attempts, error: outcome.error };
    ctx.log.warn(fields, result === 'retry' ? 'webhook not delivered; trying again' : 'webhook not delivered; giving up');
  }
}

/** `concurrency`: deliveries one replica has in flight; each only waits on its receiver, holding no connection. */
export function webhooksReconciler(concurrency: number): Reconciler {
  // One per claiming owner: its outcomes are written together.
  const recorders = new Map<string, AttemptRecorder>();
  return {
    name: 'webhooks',
    channel: CHANNELS.webhooks,
    concurrency,
    // A row being delivered is changed only by its own run, which announces its end.
    quietWhileRunning: true,
    // The sweep acts on rows whose lease, their due time while leased, has run out.
    sweepsDueRowsOnly: true,
    sweep: sweepDeliveries,
    async claim(ctx, owner, leaseMs, max) {
      const rows = await claimDueDeliveries(ctx, owner, leaseMs, max);
      const recorder = recorders.get(owner) ?? recorders.set(owner, new AttemptRecorder(ctx, owner)).get(owner)!;
      return {
        claimed: rows.map((row) => ({ id: row.id, run: (closing) => deliver(ctx, row, recorder, closing) })),
        nextDue: () => nextDeliveryDue(ctx),
      };
    },
    heartbeat: heartbeatDeliveries,
    release: releaseDeliveries,
  };
}
