// A company's invoices and credit notes, without their lines, newest first.
import type { Ctx } from '../../context.js';
import type { FinalizedInvoice } from './row.js';

export type InvoiceSummary = Pick<FinalizedInvoice, 'number' | 'kind' | 'month' | 'currency' | 'total' | 'issuedAt' | 'creditsNumber'>;

export async function listInvoices(ctx: Pick<Ctx, 'db'>, tenantId: string): Promise<InvoiceSummary[]> {
  const rows = await ctx
    .db('invoices')
    .where({ tenant_id: tenantId })
    .orderBy([
      { column: 'issued_at', order: 'desc' },
      { column: 'number', order: 'desc' },
    ])
    .select('number', 'kind', 'month', 'currency', 'total', 'issued_at', 'credits_number');
  return rows.map((r) => ({
    number: r.number,
    kind: r.kind,
    month: r.month,
    currency: r.currency,
    total: Number(r.total),
    issuedAt: r.issued_at,
    creditsNumber: r.credits_number,
  }));
}
