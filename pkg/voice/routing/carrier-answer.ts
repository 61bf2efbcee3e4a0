// A call ringing in through a carrier (Twilio, Telnyx) on one of an account's numbers: stored as the simulated network's
// calls are (arrive.ts), and answered with TwiML built from the number's routing (carrier-steps.ts).
// An ai step first is connected to the relay socket while still ringing, and answered there.
import type { Ctx } from '../../context.js';
import { parseAgentRef } from '../../ids.js';
import { findNumber } from '../../store/phone-numbers.js';
import { callByCarrierSid } from '../../store/calls/get.js';
import { applyCallEvent, ending } from '../events.js';
import { reject } from '../gateways/twiml.js';
import { isLive } from '../state.js';
import { DEFAULT_GREETING } from './answer.js';
import { ringIn } from './arrive.js';
import { carriedUntil, playStep, RELAY_TOKEN_MS } from './carrier-steps.js';
import { handlerOf } from './reach.js';
import { AnsweredElsewhere } from './carrier-repeats.js';

const UNIQUE_VIOLATION = '23505';

/**
 * The TwiML answering a call from `from` to `to` (the carrier's `callSid`, rung in by `request`; `known`: its row was
 * there when the request was taken); an unknown number is refused with no record.
 */
export async function answerCarriedCall(
  ctx: Ctx,
  call: { to: string; from: string; callSid: string; request: string; known: boolean },
): Promise<string> {
  const number = await findNumber(ctx.db, call.to);
  if (!number) return reject();
  const step = number.routing;
  const now = ctx.clock.now();
  const until = new Date(now.getTime() + RELAY_TOKEN_MS);
  const agentId = step?.type === 'ai' ? parseAgentRef(step.agent_id) : null;
  const greeting = step?.type === 'ai' ? (step.greeting ?? DEFAULT_GREETING) : null;
  const found = await callByCarrierSid(ctx.db, call.callSid);
  // No row when the request was taken, one now with that request: another replica rang it in meanwhile, and answers it.
  if (found && !call.known && found.carrier_answer?.request === call.request) throw new AnsweredElsewhere();
  // The carrier may ask again for a call it already rang in (a retry): it is the same call, answered again.
  const row =
    found ??
    (await ringIn(ctx, {
      to: call.to,
      from: call.from,
      caller: null,
      carried: { carrierSid: call.callSid, agentId, greeting, until, request: call.request },
    }).catch(async (err) => {
      if ((err as { code?: string }).code !== UNIQUE_VIOLATION) throw err;
      const rung = (await callByCarrierSid(ctx.db, call.callSid))!;
      // Rung in meanwhile by this same request on another replica: its answer is the one to send.
      if (rung.carrier_answer?.request === call.request) throw new AnsweredElsewhere();
      return rung;
    }));
  if (!step) {
    // Nobody is there to answer a number without routing: the controllers make the call final now.
    await applyCallEvent(ctx, row.id, 'no_answer', { ...ending(row, now, 'not_routed'), due_at: now });
    return reject();
  }
  if (step.type === 'ai') return playStep(ctx, row, step, true);
  // The carrier plays the routing for as long as the call may last; its requests and status callbacks move the call on.
  const answered = await applyCallEvent(ctx, row.id, 'answer', {
    answered_at: now,
    ...handlerOf(step),
    lease_until: carriedUntil(row, now),
    due_at: carriedUntil(row, now),
  });
  if (answered) return playStep(ctx, answered, step, true);
  return isLive(row.status) ? playStep(ctx, row, row.carrier_step ?? step, true) : reject();
}
