// A company's jobs now: how many are in each status, and the most any one conversation holds pending
// (what its pending-job cap, pkg/triggers/pending-cap.ts, is measured against).
import type { Knex } from 'knex';
import { STATUSES, type TriggerStatus } from './row.js';

/** `pending`: the statuses the pending-job cap counts. */
export async function triggersByStatus(
  db: Knex,
  tenantId: string,
  pending: readonly TriggerStatus[],
): Promise<{ byStatus: Record<TriggerStatus, number>; mostPendingInOneConversation: number }> {
  const rows: { status: TriggerStatus; n: string }[] = await db('triggers')
    .where({ tenant_id: tenantId })
    .groupBy('status')
    .select('status', db.raw('count(*) as n'));
  const byStatus = Object.fromEntries(STATUSES.map((s) => [s, 0])) as Record<TriggerStatus, number>;
  for (const r of rows) byStatus[r.status] = Number(r.n);
  const most = await db('triggers')
    .where({ tenant_id: tenantId })
    .whereIn('status', pending)
    .groupBy('conversation_id')
    .select(db.raw('count(*) as n'))
    .orderBy('n', 'desc')
    .first();
  return { byStatus, mostPendingInOneConversation: Number(most?.n ?? 0) };
}
