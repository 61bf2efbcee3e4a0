// Inserting a call, announced on CHANNELS.calls (the controllers claim it).
import type { Knex } from 'knex';
import { CHANNELS, notify } from '../../db/notify.js';
import { encode, type CallRow } from './row.js';

export async function insertCall(db: Knex, row: Partial<CallRow>): Promise<CallRow> {
  const [inserted] = await db('calls').insert(encode(row)).returning('*');
  await notify(db, CHANNELS.calls, inserted.id);
  return inserted;
}
