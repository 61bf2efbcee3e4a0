// An invoice or credit note and its lines as the billing code holds them, and as their rows store them.

export type LineItem = 'credits' | 'call_minutes' | 'correction';
import type { DbRow } from '../../db/index.js';

export interface InvoiceLine {
  description: string;
  item: LineItem;
  /** Credits: api, chat, job or voice. */
  referenceType: string | null;
  agentId: string | null;
  /** Call minutes: inbound or outbound. */
  direction: string | null;
  /** Credits (up to 6 decimals), minutes, or 1 for a correction. */
  quantity: number;
  /** Minor units per unit. */
  unitPrice: number;
  /** Minor units. */
  amount: number;
}

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

/** An invoice or credit note as written: numbered and issued. */
export type FinalizedInvoice = Invoice & { number: string; issuedAt: Date };

/** A line as its row's columns and as the JSON shows it. */
export const lineColumns = (l: InvoiceLine) => ({
  description: l.description,
  item: l.item,
  reference_type: l.referenceType,
  agent_id: l.agentId,
  direction: l.direction,
  quantity: l.quantity,
  unit_price: l.unitPrice,
  amount: l.amount,
});

export const invoiceColumns = (i: FinalizedInvoice) => ({
  number: i.number,
  kind: i.kind,
  tenant_id: i.tenantId,
  month: i.month,
  timezone: i.timezone,
  period_start: i.periodStart,
  period_end: i.periodEnd,
  currency: i.currency,
  total: i.total,
  credits_number: i.creditsNumber,
  reason: i.reason,
  issued_at: i.issuedAt,
});

const toLine = (r: DbRow): InvoiceLine => ({
  description: r.description,
  item: r.item,
  referenceType: r.reference_type,
  agentId: r.agent_id,
  direction: r.direction,
  quantity: Number(r.quantity),
  unitPrice: Number(r.unit_price),
  amount: Number(r.amount),
});

/** An invoice from its row, its lines' rows and its credit notes' (number and total). */
export const toInvoice = (r: DbRow, lines: DbRow[], creditNotes: DbRow[]): FinalizedInvoice => ({
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
