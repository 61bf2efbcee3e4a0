// Changing a call without a transition (what was said, steering, the conversation, the step it is on).
import type { Knex } from 'knex';
import type { Ctx } from '../../context.js';
import { CHANNELS, notify } from '../../db/notify.js';
import { encode, type CallPatch, type CallRow, type CallStatus } from './row.js';

export async function updateCall(ctx: Pick<Ctx, 'db' | 'clock'>, id: string, patch: CallPatch): Promise<CallRow> {
  return (await patchCall(ctx, ctx.db('calls').where({ id }), id, patch))!;
}

/** `updateCall` while the call is in one of `statuses`; null once it is not (a routing step reached after the caller hung up changes nothing). */
export const updateCallWhile = (
  ctx: Pick<Ctx, 'db' | 'clock'>,
  id: string,
  statuses: readonly CallStatus[],
  patch: CallPatch,
): Promise<CallRow | null> => patchCall(ctx, ctx.db('calls').where({ id }).whereIn('status', statuses), id, patch);

/** Writes `patch` to call `id` if `which` selects it, announced; null when it does not. */
async function patchCall(ctx: Pick<Ctx, 'db' | 'clock'>, which: Knex.QueryBuilder, id: string, patch: CallPatch): Promise<CallRow | null> {
  const [row] = await which.update({ ...encode(patch), updated_at: ctx.clock.now() }).returning('*');
  if (row) await notify(ctx.db, CHANNELS.calls, id);
  return row ?? null;
}
