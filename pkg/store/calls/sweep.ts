// Work on calls that needs no line: lost controllers' calls fail, lost finalisers' calls are claimable again,
// calls past max_duration_sec are hung up.
import type { Ctx } from '../../context.js';
import { CHANNELS, notify } from '../../db/notify.js';
import { DEADLINE, type CallRow, type CallStatus } from './row.js';
import type { CallMove } from './transition.js';
import { placeholders } from '../../db/index.js';

/** The statuses the sweep works on (pkg/voice/sweep.ts): from the domain's state table. */
export interface CallSweep {
  /** The move of a live call whose controller stopped heartbeating. */
  interrupted: CallMove;
  /** The move of a call on the line past its max_duration_sec. */
  overtime: CallMove;
  /** Ended statuses: a call in one, not final, whose lease ran out is claimable again. */
  ended: readonly CallStatus[];
}

/**
 * Live calls whose controller stopped heartbeating fail (`interrupted`), their slots are released by
 * the caller; ended calls whose finaliser was lost become claimable again; calls on the line past
 * max_duration_sec are hung up (the controller holding the line sees the status change and puts
 * the phone down). Returns the calls that ended here.
 */
export async function sweepCalls(
  ctx: Pick<Ctx, 'db' | 'clock'>,
  sweep: CallSweep,
): Promise<{ interrupted: CallRow[]; overtime: CallRow[] }> {
  // Each looks only at calls not yet final (`not final`, index calls_unfinished of migration 025), never at the call history.
  const now = ctx.clock.now();
  const { interrupted: lost, overtime: over, ended } = sweep;
  const interrupted: CallRow[] = (
    await ctx.db.raw(
      `update calls set status = ?, hangup_cause = 'interrupted', ended_at = ?, updated_at = ?,
         duration_sec = case when answered_at is null then 0 else greatest(0, floor(extract(epoch from (?::timestamptz - answered_at))))::int end,
         lease_owner = null, lease_until = null, due_at = ?
       where id in (select id from calls where not final and status in (${placeholders(lost.from)}) and lease_until <= ? for update skip locked)
       returning *`,
      [lost.to, now, now, now, now, ...lost.from, now],
    )
  ).rows;
  await ctx.db.raw(
    `update calls set lease_owner = null, lease_until = null, due_at = ?
     where id in (select id from calls where not final and status in (${placeholders(ended)}) and lease_until <= ? for update skip locked)`,
    [now, ...ended, now],
  );
  const overtime: CallRow[] = (
    await ctx.db.raw(
      `update calls set status = ?, hangup_cause = 'max_duration', ended_at = ?, updated_at = ?, duration_sec = max_duration_sec
       where id in (select id from calls where not final and status in (${placeholders(over.from)}) and ${DEADLINE} <= ? for update skip locked)
       returning *`,
      [over.to, now, now, ...over.from, now],
    )
  ).rows;
  for (const row of [...interrupted, ...overtime]) await notify(ctx.db, CHANNELS.calls, row.id);
  return { interrupted, overtime };
}
