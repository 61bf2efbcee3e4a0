// How many callers are in a queue: the place the next one to enter takes is after them.
import type { Knex } from 'knex';
import type { CallStatus } from './row.js';

/** The calls in one of the `live` statuses that wait in queue `queueId` (index calls_queue_live). */
export async function callsWaitingIn(db: Knex, queueId: string, live: readonly CallStatus[]): Promise<number> {
  const row = await db('calls').whereRaw("queue->>'id' = ?", [queueId]).whereIn('status', live).count({ count: '*' }).first();
  return Number(row?.count ?? 0);
}
