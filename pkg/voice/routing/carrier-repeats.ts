// A carrier may send a request about a call again: after no answer in time, to a failover address, or
// as a duplicate delivery (Telnyx says it may: https://developers.telnyx.com/docs/voice/programmable-voice/receiving-webhooks).
// A request that repeats the call's last one gets the TwiML that answered it and changes nothing again;
// any other is answered once. Which request a call is on is kept on its row (carrier_answer).
import { createHash } from 'node:crypto';
import { sleep } from '../../clock.js';
import type { Ctx } from '../../context.js';
import { carrierAnswerOf, forgetCarrierRequest, keepCarrierAnswer, takeCarrierRequest } from '../../store/calls.js';

/** How long a repeat waits for the answer another replica is making before it answers itself (that replica is gone). */
const FIRST_ANSWER_WAIT_MS = 15_000;
const LOOK_EVERY_MS = 100;

/** Answers being made in this process, by call and request: a repeat that arrives here meanwhile waits for the same one. */
const answering = new Map<string, Promise<string>>();

/** What identifies a carrier's request: its address (the query included) and its body as they arrived. */
export const requestOf = (address: string, body: Buffer): string => createHash('sha256').update(address).update('\n').update(body).digest('hex');

/** The answer to `request` about the carrier's call `callSid`: made by `answer` once, the same for every repeat of it. */
export function answeredOnce(ctx: Ctx, callSid: string, request: string, answer: () => Promise<string>): Promise<string> {
  const key = `${callSid}\n${request}`;
  const underWay = answering.get(key);
  if (underWay) return underWay;
  const made = answerOnce(ctx, callSid, request, answer).finally(() => answering.delete(key));
  answering.set(key, made);
  return made;
}

async function answerOnce(ctx: Ctx, callSid: string, request: string, answer: () => Promise<string>): Promise<string> {
  if ((await takeCarrierRequest(ctx.db, callSid, request)) === 'repeat') {
    const kept = await firstAnswer(ctx, callSid, request);
    if (kept) return kept;
  }
  try {
    const twiml = await answer();
    // A call rung in by this request exists only now: its answer is kept for a repeat too.
    await keepCarrierAnswer(ctx.db, callSid, request, twiml);
    return twiml;
  } catch (err) {
    await forgetCarrierRequest(ctx.db, callSid, request);
    throw err;
  }
}

/** The answer another replica made (or is making) to the request; null when it gave up on it or took too long. */
async function firstAnswer(ctx: Ctx, callSid: string, request: string): Promise<string | null> {
  const until = ctx.clock.now().getTime() + FIRST_ANSWER_WAIT_MS;
  for (;;) {
    const kept = await carrierAnswerOf(ctx.db, callSid, request);
    if (kept !== null) return kept ?? null;
    if (ctx.clock.now().getTime() >= until) return null;
    await sleep(ctx.clock, LOOK_EVERY_MS);
  }
}
