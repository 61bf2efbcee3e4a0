// The console's client for the Billing page (/console/api/billing…): amounts are integer minor units.
import { api } from '../api';

export interface InvoiceSummary {
  number: string;
  kind: 'invoice' | 'credit_note';
  month: string;
  currency: string;
  total: number;
  issued_at: string;
  credits_number: string | null;
}

export interface Billing {
  billing: 'prepaid' | 'payg';
  currency: string;
  draft: { month: string; total: number; currency: string } | null;
  invoices: InvoiceSummary[];
}

export interface InvoiceLine {
  description: string;
  item: 'credits' | 'call_minutes' | 'correction';
  reference_type: string | null;
  agent_id: string | null;
  direction: string | null;
  quantity: number;
  unit_price: number;
  amount: number;
}

export interface Invoice {
  number: string | null;
  kind: 'invoice' | 'credit_note';
  status: 'draft' | 'finalized';
  month: string;
  timezone: string;
  period_start: string;
  period_end: string;
  currency: string;
  lines: InvoiceLine[];
  total: number;
  issued_at: string | null;
  credits_number: string | null;
  reason: string | null;
  credit_notes: { number: string; total: number }[];
}

/** `draft` is the running month's; a finalized invoice or credit note goes by its number. */
const path = (id: string) => `/billing/invoices/${encodeURIComponent(id)}`;

export const billingApi = {
  billing: () => api.get<Billing>('/billing'),
  invoice: (id: string) => api.get<Invoice>(path(id)),
  csvHref: (id: string) => `/console/api${path(id)}.csv`,
  pdfHref: (id: string) => `/console/api${path(id)}.pdf`,
};

/** `minor` units of `currency` as a person reads them ($1,234.56). */
export function money(minor: number, currency: string): string {
  const format = new Intl.NumberFormat('en', { style: 'currency', currency });
  return format.format(minor / 10 ** (format.resolvedOptions().maximumFractionDigits ?? 2));
}
