// Invoices and credit notes as stored (finalized, never changed) and the running month's draft
// (computed on each read), in the one shape every surface shows: the console, the admin CLI and
// the invoice.finalized webhook.
import type { Knex } from 'knex';
import type { Ctx } from '../context.js';
import { Conflict, NotFound } from '../errors.js';
import { getTenant } from '../store/tenants.js';
import { pricesOf, totalOf, usageLines, type InvoiceLine } from './lines.js';
import { monthOf } from './period.js';

export interface Invoice {
  /** null for a draft. */
  number: string | null;
  kind: 'invoice' | 'credit_note';
  status: 'draft' | 'finalized';
  tenantId: string;
  month: string;
  timezone: string;
  periodStart: Date;
  periodEnd: Date;
  currency: string;
  lines: InvoiceLine[];
  total: number;
  issuedAt: Date | null;
  /** A credit note: the invoice it corrects, and why. */
  creditsNumber: string | null;
  reason: string | null;
  /** An invoice: the credit notes issued against it. */
  creditNotes: { number: string; total: number }[];
}

type Row = Record<string, any>;

const toLine = (r: Row): InvoiceLine => ({
  description: r.description,
  item: r.item,
  referenceType: r.reference_type,
  agentId: r.agent_id,
  direction: r.direction,
  quantity: Number(r.quantity),
  unitPrice: Number(r.unit_price),
  amount: Number(r.amount),
});

const toInvoice = (r: Row, lines: Row[], creditNotes: Row[]): Invoice => ({
  number: r.number,
  kind: r.kind,
  status: 'finalized',
  tenantId: r.tenant_id,
  month: r.month,
  timezone: r.timezone,
  periodStart: r.period_start,
  periodEnd: r.period_end,
  currency: r.currency,
  lines: lines.map(toLine),
  total: Number(r.total),
  issuedAt: r.issued_at,
  creditsNumber: r.credits_number,
  reason: r.reason,
  creditNotes: creditNotes.map((n) => ({ number: n.number, total: Number(n.total) })),
});

/** A line as its row's columns and as the JSON shows it. */
const lineFields = (l: InvoiceLine) => ({
  description: l.description,
  item: l.item,
  reference_type: l.referenceType,
  agent_id: l.agentId,
  direction: l.direction,
  quantity: l.quantity,
  unit_price: l.unitPrice,
  amount: l.amount,
});

/** Writes a finalized invoice or credit note and its lines in `ctx.db` (the finalizing transaction). */
export async function insertInvoice(ctx: Pick<Ctx, 'db'>, invoice: Invoice & { number: string; issuedAt: Date }): Promise<void> {
  await ctx.db('invoices').insert({
    number: invoice.number,
    kind: invoice.kind,
    tenant_id: invoice.tenantId,
    month: invoice.month,
    timezone: invoice.timezone,
    period_start: invoice.periodStart,
    period_end: invoice.periodEnd,
    currency: invoice.currency,
    total: invoice.total,
    credits_number: invoice.creditsNumber,
    reason: invoice.reason,
    issued_at: invoice.issuedAt,
  });
  if (!invoice.lines.length) return;
  await ctx.db('invoice_lines').insert(
    invoice.lines.map((l, i) => ({ number: invoice.number, position: i + 1, ...lineFields(l) })),
  );
}

/** The invoice or credit note numbered `number`; of `tenantId` only when given (another company's is not found). */
export async function getInvoice(ctx: Pick<Ctx, 'db'>, number: string, tenantId?: string): Promise<Invoice> {
  const row = await ctx.db('invoices').where({ number }).first();
  if (!row || (tenantId !== undefined && row.tenant_id !== tenantId)) throw new NotFound(`No invoice ${number}`);
  const [lines, notes] = await Promise.all([
    ctx.db('invoice_lines').where({ number }).orderBy('position'),
    ctx.db('invoices').where({ credits_number: number }).orderBy('issued_at').select('number', 'total'),
  ]);
  return toInvoice(row, lines, notes);
}

/** A company's invoices and credit notes in the list's shape, newest first. */
export async function listInvoices(ctx: Pick<Ctx, 'db'>, tenantId: string) {
  const rows = await ctx.db('invoices')
    .where({ tenant_id: tenantId })
    .orderBy([{ column: 'issued_at', order: 'desc' }, { column: 'number', order: 'desc' }])
    .select('number', 'kind', 'month', 'currency', 'total', 'issued_at', 'credits_number');
  return rows.map((r) => ({
    number: r.number as string,
    kind: r.kind as Invoice['kind'],
    month: r.month as string,
    currency: r.currency as string,
    total: Number(r.total),
    issued_at: (r.issued_at as Date).toISOString(),
    credits_number: r.credits_number as string | null,
  }));
}

/** The part of `start`…`end` the company was pay-as-you-go in; null when none. */
export async function paygPart(db: Knex, tenantId: string, start: Date, end: Date): Promise<{ from: Date; to: Date } | null> {
  const { payg_since: since, payg_until: until } = await db('tenants').where({ id: tenantId }).first('payg_since', 'payg_until');
  if (!since) return null;
  const from = since > start ? since : start;
  const to = until && until < end ? until : end;
  return from < to ? { from, to } : null;
}

/** The company's usage in the pay-as-you-go part of `start`…`end`, priced. */
export async function invoicedUsage(ctx: Pick<Ctx, 'db' | 'config'>, tenantId: string, start: Date, end: Date): Promise<InvoiceLine[]> {
  const part = await paygPart(ctx.db, tenantId, start, end);
  return part ? usageLines(ctx, tenantId, part.from, part.to, pricesOf(ctx.config)) : [];
}

/** The running month's invoice so far, computed now; only pay-as-you-go companies are invoiced. */
export async function draftInvoice(ctx: Pick<Ctx, 'db' | 'clock' | 'config'>, tenantId: string): Promise<Invoice> {
  const tenant = await getTenant(ctx, tenantId);
  if (tenant.billing !== 'payg') throw new Conflict('This company is prepaid: it is not invoiced', 'not_invoiced');
  const now = ctx.clock.now();
  const month = monthOf(now, tenant.timezone);
  const lines = await invoicedUsage(ctx, tenantId, month.start, month.end);
  return {
    number: null,
    kind: 'invoice',
    status: 'draft',
    tenantId,
    month: month.name,
    timezone: tenant.timezone,
    periodStart: month.start,
    periodEnd: month.end,
    currency: ctx.config.SWITCHBOARD_CURRENCY,
    lines,
    total: totalOf(lines),
    issuedAt: null,
    creditsNumber: null,
    reason: null,
    creditNotes: [],
  };
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
    lines: i.lines.map(lineFields),
    total: i.total,
    issued_at: i.issuedAt?.toISOString() ?? null,
    credits_number: i.creditsNumber,
    reason: i.reason,
    credit_notes: i.creditNotes,
  };
}

export type InvoiceView = ReturnType<typeof invoiceView>;
