// Finalizing: a pay-as-you-go company's month becomes its invoice once, however many replicas try
// (under the company's lock), announced through the outbox in its transaction; corrections are credit notes.
import type { Knex } from 'knex';
import { z } from 'zod';
import type { Ctx } from '../context.js';
import { Invalid } from '../errors.js';
import { invalid, parseInput } from '../validate.js';
import { creditedTotal } from '../store/invoices/credited.js';
import { getInvoice } from '../store/invoices/get.js';
import { insertInvoice } from '../store/invoices/insert.js';
import { isInvoiced } from '../store/invoices/invoiced.js';
import { lockCompanyBilling } from '../store/invoices/lock.js';
import { takeNumber } from '../store/invoices/numbers.js';
import { previousInvoice } from '../store/invoices/previous.js';
import type { FinalizedInvoice, Invoice } from '../store/invoices/row.js';
import { getTenant } from '../store/tenants.js';
import { enqueueEvent } from '../webhooks/outbox.js';
import { invoiceView, monthInvoice } from './invoices.js';
import { invoicedUsage } from './lines.js';
import { monthNamed, nameAfter, type Month } from './period.js';

type FinalizeCtx = Pick<Ctx, 'db' | 'clock' | 'config'>;

/** Announces a finalized invoice to the account's events address, when it has one. */
async function announce(ctx: FinalizeCtx, db: Knex, invoice: FinalizedInvoice, eventsUrl: string | null): Promise<void> {
  if (!eventsUrl) return;
  await enqueueEvent(ctx, db, {
    tenantId: invoice.tenantId,
    type: 'invoice.finalized',
    target: 'events',
    url: eventsUrl,
    orderingKey: invoice.number,
    data: invoiceView(invoice),
  });
}

/**
 * `month`, starting where the company's invoice of the month before ended: after a change of
 * timezone its months would otherwise leave hours out or count them twice.
 */
async function periodAfterLast(db: Knex, tenantId: string, month: Month | null): Promise<Month | null> {
  if (!month) return null;
  const previous = await previousInvoice(db, tenantId, month.name);
  return previous && nameAfter(previous.month) === month.name && previous.periodEnd < month.end
    ? { ...month, start: previous.periodEnd }
    : month;
}

/**
 * The invoice of `tenantId` for `month` ('YYYY-MM' in its timezone), finalized now; null when it
 * already was (by this replica or another), has not ended, or the company was not pay-as-you-go in it.
 */
export async function finalizeMonth(ctx: FinalizeCtx, tenantId: string, month: string): Promise<Invoice | null> {
  return ctx.db.transaction(async (trx) => {
    const tx = { ...ctx, db: trx };
    await lockCompanyBilling(trx, tenantId);
    if (await isInvoiced(trx, tenantId, month)) return null;
    const tenant = await getTenant(tx, tenantId);
    const period = await periodAfterLast(trx, tenantId, monthNamed(month, tenant.timezone));
    const issuedAt = ctx.clock.now();
    if (!period || period.end > issuedAt) return null;
    // A month it was pay-as-you-go in, for all of it or a part (its spell began or ended in it).
    const lines = await invoicedUsage(tx, tenantId, period.start, period.end);
    if (!lines) return null;
    const invoice: FinalizedInvoice = {
      ...monthInvoice(tx, tenant, period, lines),
      number: await takeNumber(trx, 'INV', issuedAt),
      status: 'finalized',
      issuedAt,
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
    const left = original.total - (await creditedTotal(trx, number));
    if (amount > left)
      throw invalid('credit note', [{ path: 'amount', message: `must be at most ${left}, the invoice's total less its credit notes` }]);
    const issuedAt = ctx.clock.now();
    const note: FinalizedInvoice = {
      ...original,
      number: await takeNumber(trx, 'CN', issuedAt),
      kind: 'credit_note',
      lines: [
        {
          description: `Correction of ${number}: ${reason}`,
          item: 'correction',
          referenceType: null,
          agentId: null,
          direction: null,
          quantity: 1,
          unitPrice: amount,
          amount,
        },
      ],
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
