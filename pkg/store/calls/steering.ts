// Steering a call on the line: the operator's instruction or words, appended for its call loop to act on.
import type { Ctx } from '../../context.js';
import { CHANNELS, notify } from '../../db/notify.js';
import type { CallRow, CallStatus, SteeringItem } from './row.js';

/** Adds a steering item to the call while it is in one of `statuses` (on the line); null when it is not. */
export async function appendSteering(
  ctx: Pick<Ctx, 'db' | 'clock'>,
  id: string,
  statuses: readonly CallStatus[],
  item: SteeringItem,
): Promise<CallRow | null> {
  const [row] = await ctx
    .db('calls')
    .where({ id })
    .whereIn('status', statuses)
    .update({ steering: ctx.db.raw('steering || ?::jsonb', [JSON.stringify([item])]), updated_at: ctx.clock.now() })
    .returning('*');
  if (row) await notify(ctx.db, CHANNELS.calls, id);
  return row ?? null;
}
