// Whether a company's month already has its invoice (one per month, by a unique index).
import type { Knex } from 'knex';

export async function isInvoiced(db: Knex, tenantId: string, month: string): Promise<boolean> {
  return Boolean(await db('invoices').where({ tenant_id: tenantId, month, kind: 'invoice' }).first('number'));
}
