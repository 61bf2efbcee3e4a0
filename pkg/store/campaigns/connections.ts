// Connection rows: the customer systems campaigns take their lists from and send their results to.
import type { Ctx } from '../../context.js';
import { NotFound } from '../../errors.js';

export interface ConnectionRow {
  id: string;
  tenant_id: string;
  name: string;
  base_url: string;
  list_path: string;
  results_path: string;
  sign_in_name: string | null;
  /** Sealed; opened only to send a request. */
  sign_in_value: string | null;
  created_at: Date;
  updated_at: Date;
  deleted_at: Date | null;
}

export async function insertConnection(ctx: Pick<Ctx, 'db'>, row: Omit<ConnectionRow, 'deleted_at'>): Promise<ConnectionRow> {
  const [inserted] = await ctx.db('connections').insert(row).returning('*');
  return inserted;
}

export async function getConnection(ctx: Pick<Ctx, 'db'>, tenantId: string, id: string): Promise<ConnectionRow> {
  const row = await ctx.db('connections').where({ id, tenant_id: tenantId }).whereNull('deleted_at').first();
  if (!row) throw new NotFound(`No connection ${id} on this account`);
  return row;
}

export const listConnections = (ctx: Pick<Ctx, 'db'>, tenantId: string): Promise<ConnectionRow[]> =>
  ctx.db('connections').where({ tenant_id: tenantId }).whereNull('deleted_at').orderBy('created_at');

export async function updateConnectionRow(ctx: Pick<Ctx, 'db'>, id: string, patch: Partial<ConnectionRow>): Promise<ConnectionRow> {
  const [row] = await ctx.db('connections').where({ id }).update(patch).returning('*');
  return row;
}

/** Whether a campaign not archived uses the connection. */
export async function connectionInUse(ctx: Pick<Ctx, 'db'>, id: string): Promise<boolean> {
  return (await ctx.db('campaigns').where({ connection_id: id }).whereNull('archived_at').first('id')) !== undefined;
}
