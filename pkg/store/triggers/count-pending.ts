// How many pending jobs a conversation holds, for the pending-job cap (pkg/triggers/pending-cap.ts).
import type { Knex } from 'knex';
import type { TriggerStatus } from './row.js';

/** The conversation's jobs in a `pending` status. */
export async function countPending(db: Knex, conversationId: string, pending: readonly TriggerStatus[]): Promise<number> {
  const row = await db('triggers').where({ conversation_id: conversationId }).whereIn('status', pending).count({ n: '*' }).first();
  return Number(row?.n ?? 0);
}
