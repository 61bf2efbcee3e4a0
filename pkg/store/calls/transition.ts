// A call's conditional status change: applied only from the statuses the domain's state table allows.
import type { Ctx } from '../../context.js';
import { CHANNELS, notify } from '../../db/notify.js';
import { encode, type CallPatch, type CallRow, type CallStatus } from './row.js';

/** A status change: from any of `from` (pkg/voice/state.ts, moveOf) to `to`. */
export interface CallMove {
  from: readonly CallStatus[];
  to: CallStatus;
}

/**
 * Apply `move` if the call is still in one of its source statuses (and, for a controller, still
 * leased to `owner`). Returns the new row, or null when the call had moved on: the caller lost a
 * race and must not act on it.
 */
export async function transitionCall(
  ctx: Pick<Ctx, 'db' | 'clock'>,
  id: string,
  move: CallMove,
  patch: CallPatch,
  owner?: string,
): Promise<CallRow | null> {
  const query = ctx.db('calls').where({ id }).whereIn('status', move.from);
  if (owner) query.andWhere({ lease_owner: owner });
  const [row] = await query.update({ ...encode(patch), status: move.to, updated_at: ctx.clock.now() }).returning('*');
  if (row) await notify(ctx.db, CHANNELS.calls, row.id);
  return row ?? null;
}
