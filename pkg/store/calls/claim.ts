// The call controllers' claim: one due call, leased to one replica.
import type { Ctx } from '../../context.js';
import type { CallRow, CallStatus } from './row.js';

/** The calls a controller claims, by status (pkg/voice/state.ts, CLAIMABLE). */
export interface ClaimableCalls {
  /** A placed call not dialled yet. */
  toDial: CallStatus;
  /** An inbound call ringing that nobody picked up yet. */
  toPickUp: CallStatus;
  /** Ended calls, claimed while their summary and result are still to be written. */
  toFinalize: readonly CallStatus[];
}

/** Claim one due call of `claimable` for `owner`. SKIP LOCKED lets replicas claim side by side. */
export async function claimDueCall(ctx: Pick<Ctx, 'db' | 'clock' | 'metrics'>, owner: string, leaseMs: number, claimable: ClaimableCalls): Promise<CallRow | null> {
  const now = ctx.clock.now();
  const until = new Date(now.getTime() + leaseMs);
  const { toDial, toPickUp, toFinalize } = claimable;
  const { rows } = await ctx.db.raw(
    `with candidate as (
       select id, due_at from calls
       where due_at <= ? and lease_owner is null and ((status = ? and lease_until is null)
         or (direction = 'inbound' and status = ? and lease_until is null) or (status in (${toFinalize.map(() => '?').join(', ')}) and not final))
       order by due_at
       limit 1
       for update skip locked
     )
     update calls c set lease_owner = ?, lease_until = ?, due_at = ?, updated_at = ?
     from candidate where c.id = candidate.id
     returning c.*, candidate.due_at as was_due`,
    [now, toDial, toPickUp, ...toFinalize, owner, until, until, now],
  );
  const claimed = rows[0];
  if (!claimed) return null;
  const { was_due: due, ...row } = claimed;
  ctx.metrics.queueLag.observe({ reconciler: 'calls' }, Math.max(0, now.getTime() - due.getTime()) / 1000);
  return row as CallRow;
}

/** When the next call is due to a controller; null when none is. */
export async function nextCallDue(ctx: Pick<Ctx, 'db'>): Promise<Date | null> {
  const row = await ctx.db('calls').whereNotNull('due_at').min({ at: 'due_at' }).first();
  return row?.at ?? null;
}
