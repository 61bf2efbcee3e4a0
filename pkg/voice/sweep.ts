// Deadlines no line reports: calls whose controller was lost fail, calls past max_duration_sec hang up,
// at the carrier too.
import type { Ctx } from '../context.js';
import { sweepCalls, type CallSweep } from '../store/calls/sweep.js';
import { hangUpAtCarrier } from './carrier-hangup.js';
import { enqueueTransitionWebhooks } from './events.js';
import { leaveQueue } from './routing/queue-events.js';
import { ENDED, moveOf } from './state.js';

/** What the sweep moves: live calls whose controller was lost, calls on the line past their max duration. */
export const CALL_SWEEP: CallSweep = { interrupted: moveOf('interrupted'), overtime: moveOf('hang_up'), ended: ENDED };

export async function sweepCallDeadlines(ctx: Ctx): Promise<void> {
  const { interrupted, overtime } = await ctx.db.transaction(async (trx) => {
    const tx = { ...ctx, db: trx };
    const swept = await sweepCalls(tx, CALL_SWEEP);
    for (const lost of swept.interrupted) {
      // A caller waiting in a queue leaves it with the line, before the call ends.
      const row = lost.queue ? await leaveQueue(tx, lost, { type: 'queue.exited', reason: 'hangup' }) : lost;
      await enqueueTransitionWebhooks(tx, row, 'interrupted');
    }
    for (const row of swept.overtime) await enqueueTransitionWebhooks(tx, row, 'hang_up');
    return swept;
  });
  for (const row of [...interrupted, ...overtime]) await ctx.callLimits.releaseSlot(row);
  await hangUpAtCarrier(ctx, [...interrupted, ...overtime]);
}
