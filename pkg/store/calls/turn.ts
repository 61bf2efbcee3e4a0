// A call turn's writes, each one transaction in one round trip on the pipelined pool: the caller's words
// (transcript and conversation), and the agent's reply with what closes its turn (its charge).
import type { Ctx } from '../../context.js';
import type { HeldLock } from '../../db/locks.js';
import { withoutAnnounced } from '../../db/notify.js';
import type { Sends } from '../../db/statements.js';
import { appendMessages, insertMessages, type UnstoredMessage } from '../messages.js';
import type { CallRow } from './row.js';
import { transcriptAppend } from './transcript.js';

/** What others change on a live call's row (a hang-up, its lease, steering): all its loop reads again turn by turn. */
const CHANGED_WHILE_LIVE = ['status', 'lease_owner', 'lease_until', 'due_at', 'steering', 'answered_by_machine'] as const;
export type ChangedWhileLive = Pick<CallRow, (typeof CHANGED_WHILE_LIVE)[number]>;

type TurnCtx = Pick<Ctx, 'db' | 'clock' | 'pipelined'>;

const appendCallerWords = transcriptAppend(CHANGED_WHILE_LIVE);
const appendAgentWords = transcriptAppend();

/** Where a call's turn writes: the call, and the conversation its agent holds. */
export interface CallTurn {
  callId: string;
  conversationId: string;
}

/**
 * The caller's `words` in the call's transcript and, as `message`, in its conversation (one transaction,
 * one round trip); returns what others changed on the call's row, as it was when the words were stored.
 */
export async function storeCallerWords(ctx: TurnCtx, turn: CallTurn, words: string, message: UnstoredMessage): Promise<ChangedWhileLive> {
  const [appended] = await ctx.pipelined.transaction([
    // Not the whole row: its transcript, parsed again each turn and kept across the caller's pause, fed the old generation.
    appendCallerWords(ctx, turn.callId, { speaker: 'caller', text: words }),
    insertMessages(ctx, turn.conversationId, [message]),
  ]);
  return withoutAnnounced<ChangedWhileLive>(appended!.rows[0]);
}

/** What a turn's closing carries besides its own writes: TurnCharge.close, sending them with the turn's charge. */
interface Closing {
  close<T>(lock: Pick<HeldLock, 'close'>, writes: (tx: Pick<Ctx, 'db' | 'clock'> & Sends) => Promise<T>): Promise<T>;
}

/**
 * The agent's `reply` in the call's conversation and, when `spoken` as it was streamed, in its transcript,
 * with what `closing` adds (the turn's charge): one transaction, one round trip.
 */
export async function storeAgentReply(
  ctx: TurnCtx,
  turn: CallTurn,
  reply: UnstoredMessage[],
  spoken: string,
  closing: Closing,
): Promise<void> {
  await closing.close({ close: (statements) => ctx.pipelined.transaction(statements) }, (tx) =>
    Promise.all([
      appendMessages(tx, turn.conversationId, reply),
      ...(spoken ? [tx.pipelined.send(appendAgentWords(tx, turn.callId, { speaker: 'agent', text: spoken }))] : []),
    ]),
  );
}
