// Carrier account rows: an account's own carrier credentials, the auth token sealed.
import type { Ctx } from '../context.js';

export interface CarrierAccountRow {
  tenant_id: string;
  /** The table's check constraint allows these. */
  carrier: 'twilio' | 'telnyx';
  account_sid: string;
  /** Telnyx: the TeXML application the calls are placed through, and the public key of its signatures. */
  connection_id: string | null;
  public_key: string | null;
  /** Twilio's auth token or Telnyx's API key, sealed; opened only to call the carrier or check its signatures. */
  auth_token_sealed: string;
  created_at: Date;
  updated_at: Date;
}

export const carrierAccountRow = (ctx: Pick<Ctx, 'db'>, tenantId: string): Promise<CarrierAccountRow | undefined> =>
  ctx.db('carrier_accounts').where({ tenant_id: tenantId }).first();

/** Inserts or replaces the account's row. */
export async function putCarrierAccountRow(ctx: Pick<Ctx, 'db'>, row: CarrierAccountRow): Promise<CarrierAccountRow> {
  const { created_at: _created, ...changed } = row;
  const [saved] = await ctx.db('carrier_accounts').insert(row).onConflict('tenant_id').merge(changed).returning('*');
  return saved;
}

/** Whether there was a row to delete. */
export async function deleteCarrierAccountRow(ctx: Pick<Ctx, 'db'>, tenantId: string): Promise<boolean> {
  return (await ctx.db('carrier_accounts').where({ tenant_id: tenantId }).delete()) > 0;
}
