// The agent's transfer of a caller (ai.transfer): how ringing the target went, and the call once the
// target answered — bridged (handler `transfer`) with the outcome `transferred`.
import type { Ctx } from '../context.js';
import { updateCall, type CallRow } from '../store/calls.js';
import type { Rung } from './bridge.js';
import type { Transfer } from './call-tools.js';
import type { EndCause } from './gateways/index.js';
import { enqueueCallEvent } from './events.js';

/** The target rings this long before the transfer counts as not answered (Twilio <Dial>'s default timeout). */
export const TRANSFER_RING_SEC = 30;

/** `ai.transfer`'s status for a target that ended its line before answering. */
const UNANSWERED: Record<EndCause, string> = {
  busy: 'busy',
  'no-answer': 'no-answer',
  failed: 'failed',
  // Declined: the target hung up while it rang.
  callee_hangup: 'no-answer',
  caller_hangup: 'failed',
};

/** How a transfer that was not answered went: `busy`, `no-answer`, `failed`, or `canceled` when the caller hung up first. */
export function transferStatus(rung: Exclude<Rung, { type: 'answered' | 'gone' }>): string {
  switch (rung.type) {
    case 'unanswered':
      return UNANSWERED[rung.cause];
    case 'wait_over':
      return 'no-answer';
    case 'caller_left':
      return 'canceled';
  }
}

/** `ai.transfer`'s status for each DialCallStatus of the carrier's <Dial> (https://www.twilio.com/docs/voice/twiml/dial#dialcallstatus-values). */
const DIALLED: Record<string, string> = { completed: 'answered', answered: 'answered', busy: 'busy', 'no-answer': 'no-answer', failed: 'failed', canceled: 'canceled' };

/** How the carrier's <Dial> of the agent's transfer went, reported as on the simulated network. */
export async function dialledTransfer(ctx: Ctx, row: CallRow, transfer: Transfer, dialCallStatus: string): Promise<void> {
  const status = DIALLED[dialCallStatus] ?? 'failed';
  if (status === 'answered') await connectTransfer(ctx, row, transfer);
  else await enqueueCallEvent(ctx, row, 'ai.transfer', { ai: { transfer: { ...transfer, status } } });
}

/** The target answered: the call is bridged to it, with ai.transfer (`answered`) and call.updated, in one transaction. */
export async function connectTransfer(ctx: Ctx, row: CallRow, transfer: Transfer): Promise<CallRow> {
  const to = transfer.name ? `${transfer.name} (${transfer.target})` : transfer.target;
  return ctx.db.transaction(async (trx) => {
    const tx = { ...ctx, db: trx };
    const bridged = await updateCall(tx, row.id, { handler: 'transfer', result: { outcome: 'transferred', answers: {}, note: `Transferred to ${to}` } });
    await enqueueCallEvent(tx, bridged, 'ai.transfer', { ai: { transfer: { ...transfer, status: 'answered' } } });
    await enqueueCallEvent(tx, bridged, 'call.updated');
    return bridged;
  });
}
