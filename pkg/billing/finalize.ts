// Finalizing: a pay-as-you-go company's month becomes an invoice once, however many replicas try
// (under the company's lock, the month is looked up before it is written; a unique index backs
// it), numbered from a counter row updated in the same transaction, so a number is never skipped:
// a transaction that fails gives its number back. The account's events address hears of it
// through the outbox, in the same transaction. Corrections are credit notes, numbered the same way.
import type { Knex } from 'knex';
import { z } from 'zod';
import type { Ctx } from '../context.js';
import { Invalid } from '../errors.js';
import { invalid, parseInput } from '../validate.js';
import { getTenant } from '../store/tenants.js';
import { enqueueEvent } from '../webhooks/outbox.js';
import { getInvoice, insertInvoice, invoicedUsage, invoiceView, paygPart, type Invoice } from './invoices.js';
import { totalOf } from './lines.js';
import { monthNamed, nameAfter, type Month } from './period.js';

type FinalizeCtx = Pick<Ctx, 'db' | 'clock' | 'config'>;

/** The next number of `series` for the year of `at` ('INV-2025-000042'), taken in `db`'s transaction. */
async function takeNumber(db: Knex, series: 'INV' | 'CN', at: Date): Promise<string> {
  const year = at.getUTCFullYear();
  const { rows } = await db.raw(
    `insert into invoice_numbers (series, year, last) values (?, ?, 1)
     on conflict (series, year) do update set last = invoice_numbers.last + 1
     returning last`,
    [series, year],
  );
  return `${series}-${year}-${String(rows[0].last).padStart(6, '0')}`;
}

/** Holds the company's billing lock to the end of `db`'s transaction: one finalization or credit note at a time. */
const lockCompanyBilling = (db: Knex, tenantId: string) => db.raw(`select pg_advisory_xact_lock(hashtext('invoices:' || ?::text))`, [tenantId]);

/** Announces a finalized invoice to the account's events address, when it has one. */
async function announce(ctx: FinalizeCtx, db: Knex, invoice: Invoice, eventsUrl: string | null): Promise<void> {
  if (!eventsUrl) return;
  await enqueueEvent(ctx, db, {
    tenantId: invoice.tenantId,
    type: 'invoice.finalized',
    target: 'events',
    url: eventsUrl,
    orderingKey: invoice.number!,
    data: invoiceView(invoice),
  });
}

/**
 * `month`, starting where the company's invoice of the month before ended: after a change of
 * timezone its months would otherwise leave hours out or count them twice.
 */
async function periodAfterLast(db: Knex, tenantId: string, month: Month | null): Promise<Month | null> {
  if (!month) return null;
  const previous = await db('invoices').where({ tenant_id: tenantId, kind: 'invoice' }).andWhere('month', '<', month.name).orderBy('month', 'desc').first('month', 'period_end');
  return previous && nameAfter(previous.month) === month.name && previous.period_end < month.end ? { ...month, start: previous.period_end } : month;
}

/**
 * The invoice of `tenantId` for `month` ('YYYY-MM' in its timezone), finalized now; null when it
 * already was (by this replica or another), has not ended, or the company was not pay-as-you-go in it.
 */
export async function finalizeMonth(ctx: FinalizeCtx, tenantId: string, month: string): Promise<Invoice | null> {
  return ctx.db.transaction(async (trx) => {
    const tx = { ...ctx, db: trx };
    await lockCompanyBilling(trx, tenantId);
    if (await trx('invoices').where({ tenant_id: tenantId, month, kind: 'invoice' }).first('number')) return null;
    const tenant = await getTenant(tx, tenantId);
    const period = await periodAfterLast(trx, tenantId, monthNamed(month, tenant.timezone));
    const issuedAt = ctx.clock.now();
    // A month it was pay-as-you-go in, for all of it or a part (its spell began or ended in it).
    if (!period || period.end > issuedAt || !(await paygPart(trx, tenantId, period.start, period.end))) return null;
    const lines = await invoicedUsage(tx, tenantId, period.start, period.end);
    const invoice: Invoice & { number: string; issuedAt: Date } = {
      number: await takeNumber(trx, 'INV', issuedAt),
      kind: 'invoice',
      status: 'finalized',
      tenantId,
      month,
      timezone: tenant.timezone,
      periodStart: period.start,
      periodEnd: period.end,
      currency: ctx.config.SWITCHBOARD_CURRENCY,
      lines,
      total: totalOf(lines),
      issuedAt,
      creditsNumber: null,
      reason: null,
      creditNotes: [],
    };
    await insertInvoice(tx, invoice);
    await announce(tx, trx, invoice, tenant.eventsUrl);
    return invoice;
  });
}

const creditNoteInput = z
  .object({
    amount: z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
    reason: z.string().trim().min(1).max(500),
  })
  .strict();

/** A credit note of `amount` minor units against the invoice `number`, at most what is left of its total. */
export async function issueCreditNote(ctx: FinalizeCtx, number: string, input: z.input<typeof creditNoteInput>): Promise<Invoice> {
  const { amount, reason } = parseInput(creditNoteInput, input, 'credit note');
  const issued = await ctx.db.transaction(async (trx) => {
    const tx = { ...ctx, db: trx };
    const original = await getInvoice(tx, number);
    if (original.kind !== 'invoice') throw new Invalid(`${number} is a credit note: a credit note corrects an invoice`);
    await lockCompanyBilling(trx, original.tenantId);
    const { credited } = await trx('invoices').where({ credits_number: number }).first(trx.raw('coalesce(sum(total), 0)::bigint as credited'));
    const left = original.total - Number(credited);
    if (amount > left) throw invalid('credit note', [{ path: 'amount', message: `must be at most ${left}, the invoice's total less its credit notes` }]);
    const issuedAt = ctx.clock.now();
    const note: Invoice & { number: string; issuedAt: Date } = {
      ...original,
      number: await takeNumber(trx, 'CN', issuedAt),
      kind: 'credit_note',
      lines: [{ description: `Correction of ${number}: ${reason}`, item: 'correction', referenceType: null, agentId: null, direction: null, quantity: 1, unitPrice: amount, amount }],
      total: amount,
      issuedAt,
      creditsNumber: number,
      reason,
      creditNotes: [],
    };
    await insertInvoice(tx, note);
    return note.number;
  });
  return getInvoice(ctx, issued);
}
