// The leases of calls a process conducts, kept alive by its heartbeat.
import type { Ctx } from '../../context.js';
import { heartbeatRows } from '../../db/leases.js';
import { DEADLINE, type CallRow, type CallStatus } from './row.js';

/**
 * Keep `owner`'s leases alive; a call in one of the `onTheLine` statuses is also due when its
 * max_duration_sec runs out. Returns the calls renewed, with their status.
 */
export async function heartbeatCalls(
  ctx: Pick<Ctx, 'db' | 'clock'>,
  ids: string[],
  owner: string,
  leaseMs: number,
  onTheLine: readonly CallStatus[],
): Promise<Pick<CallRow, 'id' | 'tenant_id' | 'status'>[]> {
  if (!ids.length) return [];
  const until = new Date(ctx.clock.now().getTime() + leaseMs);
  return ctx.db('calls')
    .whereIn('id', heartbeatRows(ctx.db, 'calls', ids, { lease_owner: owner }))
    .update({
      lease_until: until,
      due_at: ctx.db.raw(`case when status in (${onTheLine.map(() => '?').join(', ')}) then least(?::timestamptz, ${DEADLINE}) else ?::timestamptz end`, [...onTheLine, until, until]),
    })
    .returning(['id', 'tenant_id', 'status']);
}
