// The agent's transfer of a caller (ai.transfer): how ringing the target went, and the call once the
// target answered — bridged (handler `transfer`) with the outcome `transferred`.
import type { Ctx } from '../context.js';
import { appendMessages, unstoredMessage } from '../store/messages.js';
import { lockCallById } from '../store/calls/get.js';
import { reopenRelay } from '../store/calls/relay.js';
import type { CallRow } from '../store/calls/row.js';
import { updateCall } from '../store/calls/update.js';
import type { Rung } from './bridge.js';
import type { Transfer } from './call-tools.js';
import type { EndCause } from './gateways/index.js';
import { enqueueCallEvent } from './events.js';
import { isLive, unansweredEnd } from './state.js';

/** The target rings this long before the transfer counts as not answered (Twilio <Dial>'s default timeout). */
export const TRANSFER_RING_SEC = 30;

/** `ai.transfer`'s status for a target that ended its line before answering: the status its call ended in; declined (hung up while it rang) is no-answer. */
const unanswered = (cause: EndCause): string => (cause === 'callee_hangup' ? 'no-answer' : (unansweredEnd(cause) ?? 'failed'));

/** How a transfer that was not answered went: `busy`, `no-answer`, `failed`, or `canceled` when the caller hung up first. */
export function transferStatus(rung: Exclude<Rung, { type: 'answered' | 'gone' }>): string {
  switch (rung.type) {
    case 'unanswered':
      return unanswered(rung.cause);
    case 'wait_over':
      return 'no-answer';
    case 'caller_left':
      return 'canceled';
  }
}

/** `ai.transfer`'s status for a DialCallStatus of the carrier's <Dial> (https://www.twilio.com/docs/voice/twiml/dial#dialcallstatus-values). */
const dialled = (dialCallStatus: string): string =>
  dialCallStatus === 'completed' || dialCallStatus === 'answered' ? 'answered' : (unansweredEnd(dialCallStatus) ?? 'failed');

/** What the agent is told when its transfer was not answered: it is still on the call. */
export const transferNotAnswered = (transfer: Transfer, status: string): string =>
  `TRANSFER to ${transfer.target} did not go through (${status}). You are still on the call: tell the person and carry on.`;

/**
 * How the carrier's <Dial> of the agent's transfer went, reported as on the simulated network: once,
 * unless the call's status callback, coming first, reported it canceled as the call ended. Not
 * answered with the caller still there: the agent is told in the call's conversation and the call's
 * relay may bind again; true then (the caller is to be reconnected to the agent).
 */
export async function dialledTransfer(
  ctx: Ctx,
  row: CallRow,
  transfer: Transfer,
  dialCallStatus: string,
  callerLeft: boolean,
): Promise<boolean> {
  const status = dialled(dialCallStatus);
  if (status === 'answered') {
    // Connected when the target answered (the <Number url> request); that request lost, now.
    await connectTransfer(ctx, row, transfer);
    return false;
  }
  return ctx.db.transaction(async (trx) => {
    const tx = { ...ctx, db: trx };
    // Locked: the status callback's report of the caller's hang-up comes first and reports the transfer, or waits for this.
    const current = await lockCallById(trx, row.id);
    if (!current) return false;
    const carryOn = !callerLeft && status !== 'canceled' && current.conversation_id !== null && isLive(current.status);
    if (carryOn) await reopenRelay(tx, row.id);
    // The carrier asks again when our answer did not reach it: reported once.
    if (!current.carrier_transfer) return carryOn;
    await reportTransfer(tx, current, status);
    if (carryOn) await appendMessages(tx, row.conversation_id!, [unstoredMessage('system', transferNotAnswered(transfer, status))]);
    return carryOn;
  });
}

/** ai.transfer with how the carrier's <Dial> of the row's pending transfer went, which is then no longer pending. */
export async function reportTransfer(tx: Ctx, row: CallRow, status: string): Promise<void> {
  await enqueueCallEvent(tx, row, 'ai.transfer', { ai: { transfer: { ...row.carrier_transfer!, status } } });
  await updateCall(tx, row.id, { carrier_transfer: null });
}

/**
 * The target answered: the call is bridged to it, with ai.transfer (`answered`) and call.updated, in one
 * transaction. Once, and only while the call is live: null when it was bridged already or is over.
 */
export async function connectTransfer(ctx: Ctx, row: CallRow, transfer: Transfer): Promise<CallRow | null> {
  const to = transfer.name ? `${transfer.name} (${transfer.target})` : transfer.target;
  return ctx.db.transaction(async (trx) => {
    const tx = { ...ctx, db: trx };
    // Locked: a hang-up (the carrier's report, the API) comes first and nothing is written, or waits for this.
    const current = await lockCallById(trx, row.id);
    if (!current || !isLive(current.status) || current.handler === 'transfer') return null;
    const bridged = await updateCall(tx, row.id, {
      handler: 'transfer',
      result: { outcome: 'transferred', answers: {}, note: `Transferred to ${to}` },
      carrier_transfer: null,
    });
    await enqueueCallEvent(tx, bridged, 'ai.transfer', { ai: { transfer: { ...transfer, status: 'answered' } } });
    await enqueueCallEvent(tx, bridged, 'call.updated');
    return bridged;
  });
}
