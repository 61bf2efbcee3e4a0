// Writing a finalized invoice or credit note and its lines (in the finalizing transaction).
import type { Ctx } from '../../context.js';
import { invoiceColumns, lineColumns, type FinalizedInvoice } from './row.js';

export async function insertInvoice(ctx: Pick<Ctx, 'db'>, invoice: FinalizedInvoice): Promise<void> {
  await ctx.db('invoices').insert(invoiceColumns(invoice));
  if (!invoice.lines.length) return;
  await ctx.db('invoice_lines').insert(invoice.lines.map((l, i) => ({ number: invoice.number, position: i + 1, ...lineColumns(l) })));
}
