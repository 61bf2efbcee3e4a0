// When the controllers' claim should look again: the next due time of anything it did not just claim.
import type { Ctx } from '../../context.js';
import { prepared } from '../../db/prepared.js';
import type { TriggerStatus } from '../../triggers/state.js';
import type { TriggerRow } from './row.js';

/**
 * When anything but the jobs just claimed is next due, for the controller's sleep. Jobs in a
 * `claimable` status behind a `claimed` (running) job on their conversation are left out: they
 * cannot be claimed, and that job's end is announced.
 */
export async function nextDueTrigger(
  ctx: Pick<Ctx, 'db'>,
  claimed: TriggerRow[],
  claimable: readonly TriggerStatus[],
  running: TriggerStatus,
): Promise<Date | null> {
  const { rows } = await prepared<{ rows: { next_due: Date | null }[] }>(ctx.db.raw(
    `select min(t.due_at) as next_due from triggers t
     where t.due_at is not null and t.id <> all(:claimed::uuid[])
       and not (t.status = any(:claimable)
         and exists (select 1 from triggers r where r.conversation_id = t.conversation_id and r.status = :running))`,
    { claimed: claimed.map((row) => row.id), claimable: [...claimable], running },
  ));
  return rows[0].next_due;
}
