// Making an ended call final: its summary and result written, it leaves the controllers' hands.
import type { Ctx } from '../../context.js';
import { CHANNELS, notify } from '../../db/notify.js';
import { encode, type CallPatch, type CallRow, type CallStatus } from './row.js';

/** The call, in one of the `ended` statuses and not final yet, becomes final with `patch` (its summary); null when it was not such a call. */
export async function markFinal(
  ctx: Pick<Ctx, 'db' | 'clock'>,
  id: string,
  ended: readonly CallStatus[],
  patch: CallPatch,
): Promise<CallRow | null> {
  const [row] = await ctx
    .db('calls')
    .where({ id, final: false })
    .whereIn('status', ended)
    .update({ ...encode(patch), final: true, due_at: null, lease_owner: null, lease_until: null, updated_at: ctx.clock.now() })
    .returning('*');
  if (row) await notify(ctx.db, CHANNELS.calls, id);
  return row ?? null;
}

/** The call, when it is in one of the `ended` statuses, nobody holds it and it waits to be made final (for its voicemail's recording), is due now. */
export async function dueNowIfEnded(ctx: Pick<Ctx, 'db' | 'clock'>, id: string, ended: readonly CallStatus[]): Promise<void> {
  const due = await ctx
    .db('calls')
    .where({ id, final: false })
    .whereNull('lease_owner')
    .whereIn('status', ended)
    .update({ due_at: ctx.clock.now() });
  if (due) await notify(ctx.db, CHANNELS.calls, id);
}
