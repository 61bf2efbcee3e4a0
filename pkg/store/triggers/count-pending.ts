// How many pending jobs a conversation holds, for the pending-job cap (pkg/triggers/pending-cap.ts).
import type { Knex } from 'knex';
import { PENDING } from '../../triggers/state.js';

export async function countPending(db: Knex, conversationId: string): Promise<number> {
  const row = await db('triggers').where({ conversation_id: conversationId }).whereIn('status', PENDING).count({ n: '*' }).first();
  return Number(row?.n ?? 0);
}
