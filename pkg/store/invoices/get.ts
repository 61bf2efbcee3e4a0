// Reading one invoice or credit note by its number, with its lines and the credit notes against it.
import type { Ctx } from '../../context.js';
import { NotFound } from '../../errors.js';
import { toInvoice, type FinalizedInvoice } from './row.js';

/** The invoice or credit note numbered `number`; of `tenantId` only when given (another company's is not found). */
export async function getInvoice(ctx: Pick<Ctx, 'db'>, number: string, tenantId?: string): Promise<FinalizedInvoice> {
  const row = await ctx.db('invoices').where({ number }).first();
  if (!row || (tenantId !== undefined && row.tenant_id !== tenantId)) throw new NotFound(`No invoice ${number}`);
  const [lines, notes] = await Promise.all([
    ctx.db('invoice_lines').where({ number }).orderBy('position'),
    ctx.db('invoices').where({ credits_number: number }).orderBy('issued_at').select('number', 'total'),
  ]);
  return toInvoice(row, lines, notes);
}
