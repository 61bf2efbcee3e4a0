// The webhooks reconciler: delivers outbox rows one try at a time, each key's rows in order.
import { CHANNELS } from '../pkg/db/notify.js';
import type { Ctx } from '../pkg/context.js';
import {
  claimDueDelivery,
  envelopeOf,
  heartbeatDeliveries,
  nextDeliveryDue,
  recordAttempt,
  releaseDeliveries,
  sweepDeliveries,
  type OutboxRow,
} from '../pkg/store/webhooks.js';
import { sendEvent } from '../pkg/webhooks/deliver.js';
import { deliveryPolicy } from '../pkg/webhooks/policy.js';
import { claimOneByOne, type Reconciler } from './manager.js';

async function deliver(ctx: Ctx, row: OutboxRow, owner: string): Promise<void> {
  const outcome = await sendEvent(ctx, row.url, envelopeOf(row));
  const result = await recordAttempt(ctx, row, owner, outcome, deliveryPolicy(ctx.config, row.type));
  if (!result) return;
  ctx.metrics.webhookDeliveries.inc({ result });
  if (result !== 'delivered') {
    const fields = { eventId: row.id, type: row.type, tenantId: row.tenant_id, attempt: row.attempts, error: outcome.error };
    ctx.log.warn(fields, result === 'retry' ? 'webhook not delivered; trying again' : 'webhook not delivered; giving up');
  }
}

export const webhooksReconciler: Reconciler = {
  name: 'webhooks',
  channel: CHANNELS.webhooks,
  sweep: sweepDeliveries,
  claim: claimOneByOne(async (ctx, owner, leaseMs) => {
    const row = await claimDueDelivery(ctx, owner, leaseMs);
    return row && { id: row.id, run: () => deliver(ctx, row, owner) };
  }, nextDeliveryDue),
  heartbeat: heartbeatDeliveries,
  release: releaseDeliveries,
};
