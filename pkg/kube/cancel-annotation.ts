// `switchboard.dev/cancel: "<reason>"` on a Trigger: the REST cancel, once; a refusal is reported, not retried.
import type { Ctx } from '../context.js';
import { Conflict } from '../errors.js';
import { getTenant } from '../store/tenants.js';
import type { TriggerRow } from '../store/triggers/row.js';
import { cancelTrigger, notCancellable } from '../triggers/actions.js';
import type { Condition, TriggerCR } from './trigger-cr.js';

const CANCEL_ANNOTATION = 'switchboard.dev/cancel';

/** Cancels the job of an annotated CR; the refusal as a `CancelRefused` condition to report, else null. */
export async function applyCancelAnnotation(ctx: Ctx, row: TriggerRow, cr: TriggerCR): Promise<Condition | null> {
  const reason = cr.metadata.annotations?.[CANCEL_ANNOTATION];
  if (reason === undefined || row.status === 'cancelled') return null;
  // Refused once in this phase: not again. A running job that later waits can still be cancelled.
  const refused = cr.status?.conditions?.find((c) => c.type === 'CancelRefused' && c.status === 'True');
  if (refused?.message === notCancellable(row.status)) return null;
  try {
    await cancelTrigger(ctx, await getTenant(ctx, row.tenant_id), row.id, reason || 'Cancelled by an operator');
    return null;
  } catch (err) {
    if (!(err instanceof Conflict)) throw err;
    return {
      type: 'CancelRefused',
      status: 'True',
      reason: 'NotCancellable',
      message: err.message,
      lastTransitionTime: ctx.clock.now().toISOString(),
    };
  }
}
