// What a try makes of its delivery, as the state table (state.ts) and the event's delivery policy
// (policy.ts) say; the store writes it for the owner still holding the lease.
import type { Ctx } from '../context.js';
import { settleLostDeliveries, type AttemptRecorder, type OutboxRow } from '../store/webhooks.js';
import type { DeliveryOutcome } from './deliver.js';
import { deliveryPolicy, retryAfterMs } from './policy.js';
import { afterTry, transition } from './state.js';

export type AttemptResult = ReturnType<typeof afterTry>;

/**
 * Records a try's outcome: delivered, due again after the policy's wait while tries are left, else
 * failed. Resolves to null when the lease was lost meanwhile (nothing written).
 */
export async function recordAttempt(
  ctx: Pick<Ctx, 'clock' | 'config'>,
  recorder: AttemptRecorder,
  row: OutboxRow,
  outcome: DeliveryOutcome,
): Promise<AttemptResult | null> {
  const now = ctx.clock.now();
  const event = afterTry(outcome.delivered, row.attempts < row.max_attempts);
  const settled = await recorder.record({
    id: row.id,
    ordering_key: row.ordering_key,
    status: transition('pending', event)!,
    delivered_at: event === 'delivered' ? now : null,
    last_error: outcome.error,
    due_at: event === 'retry' ? new Date(now.getTime() + retryAfterMs(deliveryPolicy(ctx.config, row.type), row.attempts)) : null,
  });
  return settled ? event : null;
}

/** Rows whose last try's worker died with no tries left: failed, so the rest of their key can go. */
export async function sweepDeliveries(ctx: Pick<Ctx, 'db' | 'clock' | 'metrics'>): Promise<void> {
  const last_error = 'interrupted: the controller delivering it stopped before the receiver answered';
  const failed = await settleLostDeliveries(ctx, transition('pending', 'interrupted')!, last_error);
  if (failed) ctx.metrics.webhookDeliveries.inc({ result: 'failed' }, failed);
}
