// Reading one call: within its account, by id, by the carrier's id of it, locked, or by its account's idempotency key.
import type { Knex } from 'knex';
import type { Ctx } from '../../context.js';
import { NotFound } from '../../errors.js';
import type { CallRow } from './row.js';

export async function getCall(ctx: Pick<Ctx, 'db'>, tenantId: string, id: string): Promise<CallRow> {
  const row = await ctx.db('calls').where({ id, tenant_id: tenantId }).first();
  if (!row) throw new NotFound(`No call ${id} on this account`);
  return row;
}

export const callById = (db: Knex, id: string): Promise<CallRow | undefined> => db('calls').where({ id }).first();

/** The call a carrier knows by `sid` (its CallSid). */
export const callByCarrierSid = (db: Knex, sid: string): Promise<CallRow | undefined> => db('calls').where({ carrier_sid: sid }).first();

/** callById, holding the row until the transaction `db` ends: a transition of the call waits for it, or it for the transition. */
export const lockCallById = (db: Knex, id: string): Promise<CallRow | undefined> => db('calls').where({ id }).forUpdate().first();

export async function findByIdempotencyKey(db: Knex, tenantId: string, key: string): Promise<CallRow | undefined> {
  return db('calls').where({ tenant_id: tenantId, idempotency_key: key }).first();
}
