// The routing steps played through a carrier (Twilio, Telnyx): each step becomes TwiML, and the carrier's
// next request about the call (a menu's answer, a recording, a member's answer) carries the call on,
// by the rules the simulator's call loop (answer.ts) takes from the same modules. The call is found
// by the CallSid of the signed request; the step it is on is kept in its row (carrier_step).
//
// Queues: the caller hears the hold message, then each member is rung with <Dial> (longest idle
// first, reserved as on the simulator); the member's <Number url> tells the moment they answer
// (queue.exited answered) and the <Dial action> how the call went (rung out: the next member). While
// every member is on another caller's call, one request waits for a member to come free, then the
// carrier asks again (<Redirect>). <Enqueue> was not used: its members would be dialled by REST and
// bridged from their own calls' TwiML, two calls to keep in step for events the <Dial>s give directly.
import { randomBytes } from 'node:crypto';
import type { Ctx } from '../../context.js';
import { keepVoicemail, MAX_VOICEMAIL_SEC } from '../../messages/voicemail.js';
import { dueNowIfEnded } from '../../store/calls/finish.js';
import { callByCarrierSid, callById, lockCallById } from '../../store/calls/get.js';
import type { CallRow } from '../../store/calls/row.js';
import { appendTranscript } from '../../store/calls/transcript.js';
import { updateCallWhile } from '../../store/calls/update.js';
import { releaseMember } from '../../store/queues.js';
import { messagesOfCall } from '../../store/voice-messages.js';
import { dialledTransfer, reportTransfer, TRANSFER_RING_SEC } from '../ai-transfer.js';
import type { Transfer } from '../call-tools.js';
import { applyCallEvent, ending } from '../events.js';
import { carrierCredentials } from '../carrier-accounts.js';
import { speechOfCall } from '../call-voice.js';
import { relayTwiml } from '../gateways/carried.js';
import { carrierAddress, carrierOf } from '../gateways/carrier.js';
import { relayToken } from '../gateways/relay-token.js';
import { dial, dialVerb, gather, hangUp, record, redirect, respond, say } from '../gateways/twiml.js';
import { endEventOf, ENDED, isLive, isOnTheLine, isUnanswered, LIVE } from '../state.js';
import { DEFAULT_GREETING } from './answer.js';
import { askForStep } from './ask-webhook.js';
import { menuChoice, menuPrompt, menuTriesAgain } from './menu-keys.js';
import { nextMember } from './queue-members.js';
import { enterQueue, leaveQueue, type Leaving } from './queue-events.js';
import { handlerOf, reachStep } from './reach.js';
import { mailboxOfStep, queueOfStep } from './step-targets.js';
import type { RoutingStep } from './steps.js';

type Menu = Extract<RoutingStep, { type: 'menu' }>;

/** How long the relay parameter of an ai step stays good: the carrier opens the socket at once. */
export const RELAY_TOKEN_MS = 60_000;
/** How long one request waits for a queue member to come free before the carrier is told to ask again. */
const QUEUE_POLL_MS = 10_000;
/** How long an ended voicemail call waits for the carrier's report of its recording before it is made final without it. */
const RECORDING_WAIT_MS = 60_000;

/**
 * The addresses of the call's carrier endpoints, as handed to the carrier (carrierAddress): its account read once.
 * Each carries a nonce of its own, so two requests in a row are the same only when the carrier repeats one (carrier-repeats.ts).
 */
async function addressesOf(ctx: Ctx, row: CallRow): Promise<(path: string, query?: URLSearchParams) => string> {
  const account = (await carrierCredentials(ctx, row.tenant_id))!;
  return (path, query) =>
    carrierAddress(
      ctx.config,
      account,
      `${path}?${new URLSearchParams([...(query ?? []), ['nonce', randomBytes(6).toString('base64url')]])}`,
    );
}

/** When a call answered through the carrier must have ended: its max duration, after a transfer's or member's ringing. */
export const carriedUntil = (row: CallRow, now: Date): Date => new Date(now.getTime() + (TRANSFER_RING_SEC + row.max_duration_sec) * 1000);

/** Connects the answered call to a new relay session now, where its agent converses. */
export async function toRelay(ctx: Ctx, row: CallRow): Promise<string> {
  const account = (await carrierCredentials(ctx, row.tenant_id))!;
  const token = relayToken(carrierOf(account).relayKey(account), row.id, new Date(ctx.clock.now().getTime() + RELAY_TOKEN_MS));
  return relayTwiml(ctx.config, account, row.tenant_id, token, false, await speechOfCall(ctx, row));
}

/** When a carried call that ended now is made final: at once, or once its voicemail's recording is reported. */
export const finalAfter = (row: CallRow, now: Date): Date =>
  row.carrier_step?.type === 'voicemail' ? new Date(now.getTime() + RECORDING_WAIT_MS) : now;

/** The patch of a carried call that ends now; one no process conducts is due to be made final (a voicemail's with its recording). */
export const carriedEnding = (row: CallRow, now: Date, cause: string) => ({
  ...ending(row, now, cause),
  ...(row.lease_owner ? {} : { due_at: finalAfter(row, now) }),
});

/** The carrier's relay session failed on a call no socket bound (refused, or lost before setup): picked up, it failed on our side. */
export async function relaySessionFailed(ctx: Ctx, row: CallRow): Promise<void> {
  if (row.relay_session !== null || !isUnanswered(row.status)) return;
  await applyCallEvent(ctx, row.id, 'fail', carriedEnding(row, ctx.clock.now(), 'relay_failed'));
}

/**
 * A transfer's <Dial> ended with the caller still on: the call ends with it, as on the simulated
 * network (`transfer_ended` when the target hung up, else `transfer_busy`, `transfer_no-answer`, …).
 */
export async function transferDialEnded(ctx: Ctx, row: CallRow, dialCallStatus: string): Promise<void> {
  const cause = dialCallStatus === 'completed' ? 'transfer_ended' : `transfer_${dialCallStatus || 'failed'}`;
  await applyCallEvent(ctx, row.id, 'hang_up', carriedEnding(row, ctx.clock.now(), cause));
}

/**
 * The relay session ended with the agent's transfer: the carrier <Dial>s the target, which is kept on the
 * row until how it went is reported (agentTransferDialled, or answeredCallEnded if the caller's hang-up
 * is reported first). Hung up meanwhile: nothing is dialled.
 */
export async function dialAgentTransfer(ctx: Ctx, row: CallRow, transfer: Transfer): Promise<string> {
  if (!(await updateCallWhile(ctx, row.id, LIVE, { carrier_transfer: transfer }))) return hangUp();
  const named = new URLSearchParams({ target: transfer.target, ...(transfer.name && { name: transfer.name }) });
  const address = await addressesOf(ctx, row);
  return dial({
    to: transfer.target,
    callerId: row.direction === 'inbound' ? row.to_number : row.from_number,
    timeoutSec: TRANSFER_RING_SEC,
    action: address('/transfer-ended', named),
    answeredUrl: address('/transfer-answered', named),
  });
}

/**
 * The <Dial> of the agent's transfer ended: ai.transfer says how it went (dialledTransfer). Not answered with the
 * caller still on, the caller is reconnected to the agent on a new relay session of the same call; bridged until
 * the target hung up, the call ends with the bridge. Returns the TwiML that goes on.
 */
export async function agentTransferDialled(
  ctx: Ctx,
  row: CallRow,
  transfer: Transfer,
  d: { dialCallStatus: string; callerLeft: boolean },
): Promise<string> {
  if (await dialledTransfer(ctx, row, transfer, d.dialCallStatus, d.callerLeft)) return toRelay(ctx, row);
  if (d.dialCallStatus === 'completed' && !d.callerLeft) await transferDialEnded(ctx, row, d.dialCallStatus);
  return hangUp();
}

/** Ends the call with `cause` (nothing when it ended already) and hangs up. */
async function endCall(ctx: Ctx, row: CallRow, cause: string, due = ctx.clock.now()): Promise<string> {
  await applyCallEvent(ctx, row.id, 'hang_up', { ...ending(row, ctx.clock.now(), cause), due_at: due });
  return hangUp();
}

/** <Say>, written to the transcript as the simulator's spoken words are. */
async function spoken(ctx: Ctx, row: CallRow, text: string): Promise<string> {
  await appendTranscript(ctx, row.id, { speaker: 'agent', text });
  return say(text);
}

/** The live call of the carrier's `callSid` while it is on a step of `type`; else null (over, or moved on). */
async function callOn(ctx: Ctx, callSid: string, type: RoutingStep['type']): Promise<CallRow | null> {
  const row = await callByCarrierSid(ctx.db, callSid);
  return row && isLive(row.status) && row.carrier_step?.type === type ? row : null;
}

/** The TwiML of `step` on the answered call; `reached`: its call.updated was sent already (with the answer). */
export async function playStep(ctx: Ctx, call: CallRow, step: RoutingStep, reached = false): Promise<string> {
  const onStep = { ...handlerOf(step), carrier_step: step, ...(step.type === 'ai' && { greeting: step.greeting ?? DEFAULT_GREETING }) };
  let row = reached ? await updateCallWhile(ctx, call.id, LIVE, onStep) : await reachStep(ctx, call, onStep);
  // The caller hung up while the step was chosen (a webhook step's answer, a menu's): nothing more is played or announced.
  if (!row) return hangUp();
  switch (step.type) {
    case 'ai':
      return toRelay(ctx, row);
    case 'transfer':
      // The carrier bridges the caller until either hangs up: the target's end is the action's, the caller's the status callback's.
      return dial({
        to: step.to,
        callerId: row.to_number,
        timeoutSec: TRANSFER_RING_SEC,
        action: (await addressesOf(ctx, row))('/transfer-step-ended'),
      });
    case 'menu':
      return askMenu(ctx, row, step, 0);
    case 'webhook':
      return playStep(ctx, row, (await askForStep(ctx, row, step.url)) ?? step.fallback);
    case 'voicemail': {
      const mailbox = await mailboxOfStep(ctx, row.tenant_id, step.mailbox_id);
      if (!mailbox) return endCall(ctx, row, 'mailbox_unavailable');
      const address = await addressesOf(ctx, row);
      const done = address('/voicemail-recorded');
      const recorder = record({ maxLengthSec: MAX_VOICEMAIL_SEC, action: done, recordingStatusCallback: address('/recording') });
      // Nothing recorded, the carrier goes on past <Record> without its action: the same request, with no recording.
      return respond(await spoken(ctx, row, mailbox.greeting), recorder, redirect(done));
    }
    case 'queue': {
      const queue = await queueOfStep(ctx, row.tenant_id, step.queue_id);
      if (!queue) return endCall(ctx, row, 'queue_unavailable');
      row = await enterQueue(ctx, row, queue);
      if (!row) return hangUp();
      const hold = queue.holdMessage ? [await spoken(ctx, row, queue.holdMessage)] : [];
      return respond(...hold, redirect((await addressesOf(ctx, row))('/queue-wait')));
    }
  }
}

async function askMenu(ctx: Ctx, row: CallRow, menu: Menu, attempt: number): Promise<string> {
  const prompt = menuPrompt(menu, attempt);
  await appendTranscript(ctx, row.id, { speaker: 'agent', text: prompt });
  return respond(
    gather({
      prompt,
      timeoutSec: menu.timeout_sec,
      action: (await addressesOf(ctx, row))('/menu', new URLSearchParams({ attempt: String(attempt) })),
    }),
  );
}

/** The caller answered the menu's `attempt`th prompt with `answer` (nothing: it timed out): the option chosen, the prompt again, or the fallback. */
export async function menuAnswered(
  ctx: Ctx,
  callSid: string,
  attempt: number,
  answer: { digits?: string; speech?: string },
): Promise<string> {
  const row = await callOn(ctx, callSid, 'menu');
  if (!row) return hangUp();
  const menu = row.carrier_step as Menu;
  const heard = answer.digits
    ? { type: 'keys' as const, keys: answer.digits }
    : answer.speech
      ? { type: 'speech' as const, text: answer.speech }
      : null;
  const chosen = heard && (await menuChoice(ctx, row.id, menu, heard));
  if (chosen) return playStep(ctx, row, chosen);
  return menuTriesAgain(menu, attempt) ? askMenu(ctx, row, menu, attempt + 1) : playStep(ctx, row, menu.fallback);
}

/**
 * The recording ended (`seconds` of audio; `callerLeft`: by the caller hanging up): the call ends, and
 * when there is audio it is made final once the recording is kept (its report comes after this).
 */
export async function voicemailRecorded(ctx: Ctx, callSid: string, seconds: number, callerLeft: boolean): Promise<string> {
  const row = await callOn(ctx, callSid, 'voicemail');
  if (!row) return hangUp();
  const kept = (await messagesOfCall(ctx, row.id)).length > 0;
  const due = seconds > 0 && !kept ? finalAfter(row, ctx.clock.now()) : ctx.clock.now();
  return endCall(ctx, row, callerLeft ? 'caller_hangup' : 'voicemail_recorded', due);
}

/** The carrier stored a voicemail's recording: its audio is kept and the message left, as on the simulator; then the call is made final. */
export async function recordingCompleted(ctx: Ctx, report: { callSid: string; url: string; seconds: number }): Promise<void> {
  const row = await callByCarrierSid(ctx.db, report.callSid);
  const step = row?.carrier_step;
  if (!row || step?.type !== 'voicemail') return;
  // A report the carrier repeats leaves one message.
  if (report.seconds > 0 && !(await messagesOfCall(ctx, row.id)).length) {
    try {
      const account = (await carrierCredentials(ctx, row.tenant_id))!;
      const wav = await carrierOf(account).fetchRecording(ctx.outbound, account, report.url);
      // The carrier hears no words: the message says who called and for how long.
      const summary = `Voicemail from ${row.from_number}, ${report.seconds} s.`;
      await ctx.db.transaction(async (trx) => {
        // Under the call's lock: of two reports arriving together, the second finds the first's message.
        await lockCallById(trx, row.id);
        if ((await messagesOfCall({ db: trx }, row.id)).length) return;
        await keepVoicemail(
          { ...ctx, db: trx },
          { tenant_id: row.tenant_id, call_id: row.id, caller: row.from_number, summary, mailbox_id: step.mailbox_id },
          wav,
        );
      });
    } catch (err) {
      ctx.log.warn({ callId: row.id, err: (err as Error).message }, 'the voicemail recording could not be fetched; no message is left');
    }
  }
  await dueNowIfEnded(ctx, row.id, ENDED);
}

/**
 * The caller waits in the queue: the next member is rung (taken for this caller), or, while every one
 * left is on another caller's call, this request waits for one to come free; `rung`: members rung already.
 */
export async function waitInQueue(ctx: Ctx, callSid: string, rung: string[]): Promise<string> {
  const row = await callOn(ctx, callSid, 'queue');
  if (!row?.queue) return hangUp();
  const queue = await queueOfStep(ctx, row.tenant_id, row.queue.id);
  if (!queue) return leaveOnTimeout(ctx, row, 'no_agents');
  const waiting = row.queue;
  const leftMs = () => queue.maxWaitSec * 1000 - (ctx.clock.now().getTime() - Date.parse(waiting.entered_at));
  if (leftMs() <= 0) return leaveOnTimeout(ctx, row, 'max_wait');
  const abort = new AbortController();
  const cancel = ctx.clock.setTimer(Math.min(leftMs(), QUEUE_POLL_MS), () => abort.abort());
  const member = await nextMember(ctx, queue, row.id, new Set(rung), abort.signal).finally(cancel);
  const now = await callById(ctx.db, row.id);
  if (!now?.queue || !isLive(now.status)) {
    // The caller left while a member was being taken: the member is free again.
    if (member) await releaseMember(ctx, queue.id, member.id, row.id, { talked: false });
    return hangUp();
  }
  if (member) {
    const next = new URLSearchParams({ member: member.id });
    for (const id of [...rung, member.id]) next.append('rung', id);
    // Rung until the wait is over at the latest, as on the simulator.
    const timeoutSec = Math.max(1, Math.min(TRANSFER_RING_SEC, Math.ceil(leftMs() / 1000)));
    const address = await addressesOf(ctx, row);
    const answeredUrl = address('/queue-answered', new URLSearchParams({ member: member.id }));
    return respond(
      dialVerb({ to: member.phone, callerId: row.to_number, timeoutSec, action: address('/queue-dialled', next), answeredUrl }),
    );
  }
  if (!abort.signal.aborted) return leaveOnTimeout(ctx, row, 'no_agents');
  const again = new URLSearchParams();
  for (const id of rung) again.append('rung', id);
  return respond(redirect((await addressesOf(ctx, row))('/queue-wait', again)));
}

async function leaveOnTimeout(ctx: Ctx, row: CallRow, reason: 'max_wait' | 'no_agents'): Promise<string> {
  const left = await leaveLiveQueue(ctx, row.id, { type: 'queue.timeout', reason });
  return left ? endCall(ctx, left, 'queue_timeout') : hangUp();
}

/**
 * The live call `id` leaves the queue it waits in, under the row's lock: null when it is no longer
 * waiting (the carrier's report of the caller's hang-up came first, and left the queue as it ended the call).
 */
async function leaveLiveQueue(ctx: Ctx, id: string, leaving: Leaving): Promise<CallRow | null> {
  return ctx.db.transaction(async (trx) => {
    const row = await lockCallById(trx, id);
    return row?.queue && isLive(row.status) ? leaveQueue({ ...ctx, db: trx }, row, leaving) : null;
  });
}

/** The member rung for the call of `parentCallSid` answered: the caller leaves the queue to them (an empty document bridges them). */
export async function memberAnswered(ctx: Ctx, parentCallSid: string, memberId: string): Promise<string> {
  const row = await callOn(ctx, parentCallSid, 'queue');
  const member = row?.queue && (await queueOfStep(ctx, row.tenant_id, row.queue.id))?.members.find((m) => m.id === memberId);
  if (row && member) await leaveLiveQueue(ctx, row.id, { type: 'queue.exited', reason: 'answered', member });
  return respond();
}

/**
 * The <Dial> of a member ended (`dialStatus`, https://www.twilio.com/docs/voice/twiml/dial#dialcallstatus-values):
 * talked, the call ends; rung out, the next member; `callerLeft`: the caller hung up meanwhile.
 */
export async function memberDialled(
  ctx: Ctx,
  callSid: string,
  d: { memberId: string; rung: string[]; dialStatus: string; callerLeft: boolean },
): Promise<string> {
  const row = await callByCarrierSid(ctx.db, callSid);
  if (row?.carrier_step?.type !== 'queue') return hangUp();
  const talked = d.dialStatus === 'completed';
  await releaseMember(ctx, row.carrier_step.queue_id, d.memberId, row.id, { talked });
  if (talked) return endCall(ctx, row, d.callerLeft ? 'caller_hangup' : 'queue_ended');
  if (d.callerLeft) return hangUp();
  return waitInQueue(ctx, callSid, d.rung);
}

/** The carrier's detection, reported beside the call (AnsweredBy), found a machine: the agent's call loop leaves its voicemail. */
export async function machineReported(ctx: Ctx, row: CallRow, answeredBy: string): Promise<void> {
  if (answeredBy.startsWith('machine')) await updateCallWhile(ctx, row.id, LIVE, { answered_by_machine: true });
}

/**
 * The carrier's status callback for the call: dialling began, or it ended (answered, or not). Acted on
 * under the row's lock, by the status the call has then: an answer being written (the relay's) comes
 * first, and a call picked up and hung up at once ends answered.
 */
export async function callStatusReported(ctx: Ctx, id: string, status: string): Promise<void> {
  await ctx.db.transaction(async (trx) => {
    const tx = { ...ctx, db: trx };
    const row = await lockCallById(trx, id);
    if (!row) return;
    const now = ctx.clock.now();
    // Dialling began (call.initiated); a ringing report after it changes nothing more.
    if (status === 'initiated' || status === 'ringing') await applyCallEvent(tx, id, 'ring', { ringing_at: now });
    else if (status === 'completed' && isOnTheLine(row.status)) await answeredCallEnded(tx, row);
    else if (status === 'completed' && isUnanswered(row.status)) {
      // Hung up before the agent was on the line (during the carrier's machine detection); its ringing report may be lost.
      await applyCallEvent(tx, id, 'no_answer', carriedEnding(row, now, 'no-answer'));
    } else {
      // Not answered: busy, no answer, failed or canceled (its cause the status as reported).
      const event = endEventOf(status);
      if (event) await applyCallEvent(tx, id, event, carriedEnding(row, now, status));
    }
  });
}

/**
 * The answered call ended at the carrier (`row` locked): a caller waiting in a queue leaves it
 * (queue.exited hangup), an agent's transfer still ringing is reported canceled, and the call ends.
 * A step being reached meanwhile (a queue entered) came first and is left here, or finds the call over.
 */
async function answeredCallEnded(tx: Ctx, row: CallRow): Promise<void> {
  if (row.queue) await leaveQueue(tx, row, { type: 'queue.exited', reason: 'hangup' });
  if (row.carrier_transfer) await reportTransfer(tx, row, 'canceled');
  await applyCallEvent(
    tx,
    row.id,
    'hang_up',
    carriedEnding(row, tx.clock.now(), row.direction === 'inbound' ? 'caller_hangup' : 'callee_hangup'),
  );
}
