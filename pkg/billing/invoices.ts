// A month's invoice as the draft shows it (computed on each read) and finalizing numbers it, and the
// JSON shapes every surface shows: the console, the admin CLI and the invoice.finalized webhook.
import type { Ctx } from '../context.js';
import { Conflict } from '../errors.js';
import type { InvoiceSummary } from '../store/invoices/list.js';
import { lineColumns, type Invoice, type InvoiceLine } from '../store/invoices/row.js';
import { getTenant, type Tenant } from '../store/tenants.js';
import { invoicedUsage, totalOf } from './lines.js';
import { monthOf, type Month } from './period.js';

/** The company's invoice of `period` with `lines`, not yet numbered nor issued (a draft). */
export function monthInvoice(
  ctx: Pick<Ctx, 'config'>,
  tenant: Pick<Tenant, 'id' | 'timezone'>,
  period: Month,
  lines: InvoiceLine[],
): Invoice {
  return {
    number: null,
    kind: 'invoice',
    status: 'draft',
    tenantId: tenant.id,
    month: period.name,
    timezone: tenant.timezone,
    periodStart: period.start,
    periodEnd: period.end,
    currency: ctx.config.SWITCHBOARD_CURRENCY,
    lines,
    total: totalOf(lines),
    issuedAt: null,
    creditsNumber: null,
    reason: null,
    creditNotes: [],
  };
}

/** The running month's invoice so far, computed now; only pay-as-you-go companies are invoiced. */
export async function draftInvoice(ctx: Pick<Ctx, 'db' | 'clock' | 'config'>, tenantId: string): Promise<Invoice> {
  const tenant = await getTenant(ctx, tenantId);
  if (tenant.billing !== 'payg') throw new Conflict('This company is prepaid: it is not invoiced', 'not_invoiced');
  const month = monthOf(ctx.clock.now(), tenant.timezone);
  return monthInvoice(ctx, tenant, month, (await invoicedUsage(ctx, tenantId, month.start, month.end)) ?? []);
}

/** The JSON shape of an invoice (money in integer minor units). */
export function invoiceView(i: Invoice) {
  return {
    number: i.number,
    kind: i.kind,
    status: i.status,
    tenant_id: i.tenantId,
    month: i.month,
    timezone: i.timezone,
    period_start: i.periodStart.toISOString(),
    period_end: i.periodEnd.toISOString(),
    currency: i.currency,
    lines: i.lines.map(lineColumns),
    total: i.total,
    issued_at: i.issuedAt?.toISOString() ?? null,
    credits_number: i.creditsNumber,
    reason: i.reason,
    credit_notes: i.creditNotes,
  };
}

/** The JSON shape of an invoice in a company's list (no lines). */
export const invoiceSummaryView = (s: InvoiceSummary) => ({
  number: s.number,
  kind: s.kind,
  month: s.month,
  currency: s.currency,
  total: s.total,
  issued_at: s.issuedAt.toISOString(),
  credits_number: s.creditsNumber,
});
