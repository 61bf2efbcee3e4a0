// A caller joins and leaves a queue: the call record carries its `queue` while it waits, and each
// move is announced (queue.entered with the position, queue.exited or queue.timeout with wait_sec).
import type { Ctx } from '../../context.js';
import type { CallRow, WaitingIn } from '../../store/calls/row.js';
import { callsWaitingIn } from '../../store/calls/queue-position.js';
import { updateCall, updateCallWhile } from '../../store/calls/update.js';
import type { Queue, QueueMember } from '../../store/queues.js';
import { enqueueCallEvent } from '../events.js';
import { LIVE } from '../state.js';

/** Null when the call ended meanwhile: it joins no queue, and nothing is announced. */
export async function enterQueue(ctx: Ctx, row: CallRow, queue: Queue): Promise<CallRow | null> {
  return ctx.db.transaction(async (trx) => {
    const tx = { ...ctx, db: trx };
    // One entry at a time per queue, so two callers never share a position.
    await trx.raw('select pg_advisory_xact_lock(hashtext(?))', [`queue:${queue.id}`]);
    const ahead = await callsWaitingIn(trx, queue.id, LIVE);
    const waiting: WaitingIn = { id: queue.id, name: queue.name, position: ahead + 1, entered_at: ctx.clock.now().toISOString() };
    const entered = await updateCallWhile(tx, row.id, LIVE, { queue: waiting });
    if (entered) await enqueueCallEvent(tx, entered, 'queue.entered');
    return entered;
  });
}

export type Leaving =
  | { type: 'queue.exited'; reason: 'answered'; member: QueueMember }
  | { type: 'queue.exited'; reason: 'hangup' }
  | { type: 'queue.timeout'; reason: 'max_wait' | 'no_agents' };

export async function leaveQueue(ctx: Ctx, row: CallRow, leaving: Leaving): Promise<CallRow> {
  const waiting = row.queue!;
  const waitSec = Math.max(0, Math.floor((ctx.clock.now().getTime() - Date.parse(waiting.entered_at)) / 1000));
  const queue = {
    id: waiting.id,
    name: waiting.name,
    reason: leaving.reason,
    ...('member' in leaving ? { answered_by: { member_id: leaving.member.id, name: leaving.member.name } } : {}),
    wait_sec: waitSec,
  };
  return ctx.db.transaction(async (trx) => {
    const tx = { ...ctx, db: trx };
    const left = await updateCall(tx, row.id, { queue: null });
    await enqueueCallEvent(tx, left, leaving.type, { queue });
    return left;
  });
}
