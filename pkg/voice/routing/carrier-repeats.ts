// A carrier may send a request about a call again: after no answer in time, or as a duplicate delivery
// (Telnyx says it may: https://developers.telnyx.com/docs/voice/programmable-voice/receiving-webhooks).
// A request that repeats the call's last one gets the TwiML that answered it and changes nothing again;
// any other is answered once. Which request a call is on is kept on its row (carrier_answer); each
// address handed to the carrier carries a nonce (carrier-steps.ts), so two requests in a row are the
// same only when the carrier repeats one.
import { createHash } from 'node:crypto';
import { sleep } from '../../clock.js';
import type { Ctx } from '../../context.js';
import { carrierAnswerOf, forgetCarrierRequest, keepCarrierAnswer, takeCarrierRequest } from '../../store/calls/carrier-requests.js';

/** How long a request stays with the replica that took it, unanswered, before a repeat takes it over (that replica is gone). */
const TAKE_OVER_AFTER_MS = 15_000;
/** How often a repeat looks for the answer another replica is making. */
const LOOK_EVERY_MS = 100;

/** Answers being made in this process, by call and request: a repeat that arrives here meanwhile waits for the same one. */
const answering = new Map<string, Promise<string>>();

/** What identifies a carrier's request: its address (the query included) and its body as they arrived. */
export const requestOf = (address: string, body: Buffer): string =>
  createHash('sha256').update(address).update('\n').update(body).digest('hex');

/** The request was found taken by another replica while it was being answered here: that replica's answer is the one to send. */
export class AnsweredElsewhere extends Error {}

/**
 * The answer to `request` about the carrier's call `callSid`: made by `answer` once, the same for every
 * repeat of it. `answer` is told whether the call's row was there when the request was taken.
 */
export function answeredOnce(ctx: Ctx, callSid: string, request: string, answer: (known: boolean) => Promise<string>): Promise<string> {
  const key = `${callSid}\n${request}`;
  const underWay = answering.get(key);
  if (underWay) return underWay;
  const made = answerOnce(ctx, callSid, request, answer).finally(() => answering.delete(key));
  answering.set(key, made);
  return made;
}

async function answerOnce(ctx: Ctx, callSid: string, request: string, answer: (known: boolean) => Promise<string>): Promise<string> {
  // A repeat waits for the answer of the replica that took the request, until that one has had it too long.
  let taken: 'taken' | 'unknown';
  for (;;) {
    const now = ctx.clock.now();
    const outcome = await takeCarrierRequest(ctx.db, callSid, request, now, new Date(now.getTime() - TAKE_OVER_AFTER_MS));
    if (outcome !== 'repeat') {
      taken = outcome;
      break;
    }
    const kept = await carrierAnswerOf(ctx.db, callSid, request);
    if (kept) return kept;
    await sleep(ctx.clock, LOOK_EVERY_MS);
  }
  try {
    const twiml = await answer(taken === 'taken');
    await keepCarrierAnswer(ctx.db, callSid, request, twiml, ctx.clock.now());
    return twiml;
  } catch (err) {
    if (err instanceof AnsweredElsewhere) return answerOnce(ctx, callSid, request, answer);
    await forgetCarrierRequest(ctx.db, callSid, request);
    throw err;
  }
}
