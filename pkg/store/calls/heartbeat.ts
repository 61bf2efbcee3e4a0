// The leases of calls a process conducts, kept alive by its heartbeat.
import type { Ctx } from '../../context.js';
import type { Knex } from 'knex';
import { renewLeases } from '../../db/leases.js';
import { CALL_LEASES } from './leases.js';
import { DEADLINE, type CallRow, type CallStatus } from './row.js';
import { placeholders } from '../../db/index.js';

/**
 * Keep `owner`'s leases alive; a call in one of the `onTheLine` statuses is also due when its
 * max_duration_sec runs out. Returns the calls renewed, with their status.
 */
export function heartbeatCalls(
  ctx: Pick<Ctx, 'db' | 'clock'>,
  ids: string[],
  owner: string,
  leaseMs: number,
  onTheLine: readonly CallStatus[],
): Promise<Pick<CallRow, 'id' | 'tenant_id' | 'status'>[]> {
  const renewedDue = (db: Knex, until: Date) =>
    db.raw(`case when status in (${placeholders(onTheLine)}) then least(?::timestamptz, ${DEADLINE}) else ?::timestamptz end`, [
      ...onTheLine,
      until,
      until,
    ]);
  return renewLeases(ctx, { ...CALL_LEASES, renewedDue }, ids, owner, leaseMs, ['id', 'tenant_id', 'status']);
}
