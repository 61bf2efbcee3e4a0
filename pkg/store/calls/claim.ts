// The call controllers' claim: one due call, leased to one replica.
import type { Ctx } from '../../context.js';
import { claimEarliestDue } from '../../db/leases.js';
import { CALL_LEASES } from './leases.js';
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
export function claimDueCall(
  ctx: Pick<Ctx, 'db' | 'clock' | 'metrics'>,
  owner: string,
  leaseMs: number,
  claimable: ClaimableCalls,
): Promise<CallRow | null> {
  return claimEarliestDue<CallRow>(
    ctx,
    CALL_LEASES,
    {
      where: `lease_owner is null and ((status = :toDial and lease_until is null)
        or (direction = 'inbound' and status = :toPickUp and lease_until is null) or (status = any(:toFinalize) and not final))`,
      set: 'updated_at = :now',
      bindings: { toDial: claimable.toDial, toPickUp: claimable.toPickUp, toFinalize: [...claimable.toFinalize] },
    },
    owner,
    leaseMs,
  );
}

/** When the next call is due to a controller; null when none is. */
export async function nextCallDue(ctx: Pick<Ctx, 'db'>): Promise<Date | null> {
  const row = await ctx.db('calls').whereNotNull('due_at').min({ at: 'due_at' }).first();
  return row?.at ?? null;
}
