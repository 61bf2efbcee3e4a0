// When the controllers' claim should look again: the next due time of anything it did not just claim.
import type { Ctx } from '../../context.js';
import type { TriggerRow, TriggerStatus } from './row.js';

/** Statuses written into a statement's text rather than bound, so its generic plan can use the partial indexes on status. */
export function statusLiterals(statuses: readonly TriggerStatus[]): string {
  if (!statuses.every((status) => /^[a-z_]+$/.test(status))) throw new Error(`not a status: ${statuses.join(', ')}`);
  return statuses.map((status) => `'${status}'`).join(', ');
}

/**
 * When anything but the jobs just claimed is next due, for the controller's sleep. Jobs in a
 * `claimable` status behind a `claimed` (running) job on their conversation, or of an account with
 * as many jobs running as its max_concurrent_jobs, are left out: they cannot be claimed, and a
 * running job's end is announced.
 */
export async function nextDueTrigger(
  ctx: Pick<Ctx, 'db' | 'pipelined'>,
  claimed: TriggerRow[],
  claimable: readonly TriggerStatus[],
  running: TriggerStatus,
): Promise<Date | null> {
  const { rows } = await ctx.pipelined.send(
    ctx.db.raw(
      `with full_accounts as (
       select n.id from tenants n
       where n.max_concurrent_jobs is not null and n.max_concurrent_jobs <= (select count(*) from triggers r
         where r.tenant_id = n.id and r.status = ${statusLiterals([running])} and r.due_at is not null)
     )
     select min(t.due_at) as next_due from triggers t
     where t.due_at is not null and t.id <> all(:claimed::uuid[])
       and not (t.status in (${statusLiterals(claimable)})
         and (t.tenant_id in (select id from full_accounts)
           or exists (select 1 from triggers r where r.conversation_id = t.conversation_id and r.status = ${statusLiterals([running])})))`,
      { claimed: claimed.map((row) => row.id) },
    ),
  );
  return rows[0].next_due;
}
