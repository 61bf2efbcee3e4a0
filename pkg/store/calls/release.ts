// Letting go of calls' leases: on shutdown, or after a run.
import type { Ctx } from '../../context.js';
import { releaseLeases } from '../../db/leases.js';
import { CALL_LEASES } from './leases.js';

/** Give up `owner`'s leases on shutdown: live calls are lost (the sweep fails them at once), ended ones claimable again. */
export const releaseCalls = (ctx: Pick<Ctx, 'db' | 'clock'>, ids: string[], owner: string): Promise<void> =>
  releaseLeases(ctx, CALL_LEASES, ids, owner);

/** Hand the call back after a run: due now when it still needs finalising, never again otherwise. */
export async function unleaseCall(ctx: Pick<Ctx, 'db' | 'clock'>, id: string, owner: string): Promise<void> {
  await ctx
    .db('calls')
    .where({ id, lease_owner: owner })
    .update({
      lease_owner: null,
      lease_until: null,
      due_at: ctx.db.raw('case when final then null else ?::timestamptz end', [ctx.clock.now()]),
    });
}
