// What an API client may do to a call it placed: hang up, and steer the agent while on the line.
// The controller holding the line sees the change (NOTIFY) and acts on it; a call only the carrier
// conducts is hung up there.
import type { Ctx } from '../context.js';
import { Conflict } from '../errors.js';
import { getCall } from '../store/calls/get.js';
import type { CallRow } from '../store/calls/row.js';
import { appendSteering } from '../store/calls/steering.js';
import { hangUpAtCarrier } from './carrier-hangup.js';
import { applyCallEvent, ending } from './events.js';
import { carriedEnding } from './routing/carrier-steps.js';
import { hangUpEvent, isLive, ON_THE_LINE } from './state.js';

function assertLive(call: CallRow): void {
  if (!isLive(call.status)) throw new Conflict(`The call has ended (${call.status})`, 'call_ended');
}

/** Before answer the call ends `canceled`; on the line it ends `completed`. 409 call_ended when it is over. */
export async function hangupCall(ctx: Ctx, tenantId: string, id: string): Promise<CallRow> {
  // A call can move on between the read and the conditional update (answered, ended): read again.
  for (let attempt = 0; attempt < 5; attempt++) {
    const call = await getCall(ctx, tenantId, id);
    assertLive(call);
    const event = hangUpEvent(call.status);
    // No process conducts the call but the carrier (its routing steps, a transfer's bridge): nobody else ends it there.
    const carried = call.carrier_sid !== null && call.lease_owner === null;
    const now = ctx.clock.now();
    const patch = carried ? carriedEnding(call, now, 'api_hangup') : ending(call, now, 'api_hangup');
    const ended = await applyCallEvent(ctx, id, event, patch);
    if (ended && carried) await hangUpAtCarrier(ctx, [ended]);
    if (ended) return ended;
  }
  throw new Conflict('The call kept changing; try again', 'conflict');
}

interface Steering {
  instruction?: string;
  say?: string;
}

/** Steering joins the agent's context before its next turn; `say` is spoken next. */
export async function steerCall(ctx: Ctx, tenantId: string, id: string, steering: Steering): Promise<CallRow> {
  const call = await getCall(ctx, tenantId, id);
  assertLive(call);
  const steered = await appendSteering(ctx, id, ON_THE_LINE, { ...steering, at: ctx.clock.now().toISOString() });
  if (steered) return steered;
  const now = await getCall(ctx, tenantId, id);
  assertLive(now);
  throw new Conflict('The call is not answered yet', 'not_live');
}
