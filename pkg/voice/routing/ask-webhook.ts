// The webhook routing step: the call record, signed like webhooks, POSTed to the customer, who
// answers {step} within the answer window (3 s); anything else is no answer and the fallback runs.
import type { Ctx } from '../../context.js';
import { DomainError } from '../../errors.js';
import type { CallRow } from '../../store/calls/row.js';
import { getTenant } from '../../store/tenants.js';
import { askReceiver, envelopeOutgoing } from '../../webhooks/deliver.js';
import { newEnvelope } from '../../webhooks/outbox.js';
import { deliveryPolicy } from '../../webhooks/policy.js';
import { callRecord } from '../views.js';
import { checkRouting } from './check.js';
import { routingStepSchema, tooDeepAt, type RoutingStep } from './steps.js';

const TYPE = 'call.routing';

/** The step the customer's answer names, checked as a number's routing is; null when it is not one. */
async function stepOf(ctx: Ctx, row: CallRow, answer: string): Promise<RoutingStep | null> {
  let parsed: unknown;
  try {
    parsed = (JSON.parse(answer) as { step?: unknown } | null)?.step;
  } catch {
    return null;
  }
  if (tooDeepAt(parsed)) return null;
  const step = routingStepSchema.safeParse(parsed);
  if (!step.success) return null;
  try {
    return await checkRouting(ctx, await getTenant(ctx, row.tenant_id), step.data, ['step']);
  } catch (err) {
    if (err instanceof DomainError) return null;
    throw err;
  }
}

/** The step the customer's system chose for the call, or null (no answer in time, an error, not a step). */
export async function askForStep(ctx: Ctx, row: CallRow, url: string): Promise<RoutingStep | null> {
  const envelope = newEnvelope(ctx.clock.now(), row.tenant_id, TYPE, callRecord(row));
  const { answerWindowMs } = deliveryPolicy(ctx.config, TYPE);
  let cancelTimer = () => {};
  // The window is kept on the process's clock, so tests move it; the request's own timeout is a backstop.
  const late = new Promise<null>((resolve) => (cancelTimer = ctx.clock.setTimer(answerWindowMs, () => resolve(null))));
  const asked = askReceiver(ctx, url, envelopeOutgoing(envelope)).then((outcome) =>
    outcome.delivered && outcome.answer !== null ? stepOf(ctx, row, outcome.answer) : null,
  );
  try {
    const step = await Promise.race([asked, late]);
    if (!step) ctx.log.info({ callId: row.id }, 'the routing webhook gave no step in time; taking the fallback');
    return step;
  } finally {
    cancelTimer();
    asked.catch((err) => ctx.log.warn({ err, callId: row.id }, 'routing webhook failed'));
  }
}
