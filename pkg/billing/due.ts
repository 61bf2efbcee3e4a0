// Which months are due for finalizing: each pay-as-you-go company's first month not yet invoiced,
// due when it ends in its timezone; the sweep finalizes them month by month, catching up after an outage.
import type { Ctx } from '../context.js';
import { paygCompanies } from '../store/invoices/payg.js';
import { finalizeMonth } from './finalize.js';
import { monthNamed, monthOf, nameAfter, type Month } from './period.js';

interface Due {
  tenantId: string;
  month: Month;
}

/** Each company's next month to invoice, while it is pay-as-you-go or its ended spell is not yet all invoiced. */
async function nextMonths(ctx: Pick<Ctx, 'db'>): Promise<Due[]> {
  return (await paygCompanies(ctx.db)).flatMap((c) => {
    const since = monthOf(c.since, c.timezone);
    // By name: after a change of timezone the last month's end may fall in it again where the company is now.
    const afterLast = c.lastInvoicedMonth ? monthNamed(nameAfter(c.lastInvoicedMonth), c.timezone) : null;
    // A company payg again after a prepaid spell is not invoiced for the months between.
    const month = afterLast && afterLast.name > since.name ? afterLast : since;
    // A spell that has ended is due up to the month it ended in.
    return c.until && month.start >= c.until ? [] : [{ tenantId: c.tenantId, month }];
  });
}

/** Finalizes every month that has ended and is not yet invoiced (the controllers' sweep). */
export async function finalizeDueInvoices(ctx: Ctx): Promise<void> {
  for (;;) {
    const now = ctx.clock.now();
    const due = (await nextMonths(ctx)).filter((d) => d.month.end <= now);
    let finalized = 0;
    for (const d of due) {
      // One company's failure is logged and tried again on the next sweep; the others are invoiced meanwhile.
      const invoice = await finalizeMonth(ctx, d.tenantId, d.month.name).catch((err: unknown) => {
        ctx.log.error({ err, tenantId: d.tenantId, month: d.month.name }, 'invoice could not be finalized');
        return null;
      });
      if (invoice) {
        finalized++;
        ctx.log.info({ tenantId: d.tenantId, month: d.month.name, number: invoice.number, total: invoice.total }, 'invoice finalized');
      }
    }
    // Another replica may have finalized some: the next look moves past them all the same.
    if (due.length === 0 || finalized === 0) return;
  }
}

/** When the next month to invoice ends (the earliest across companies); null when no company is pay-as-you-go. */
export async function nextInvoiceDue(ctx: Pick<Ctx, 'db'>): Promise<Date | null> {
  const ends = (await nextMonths(ctx)).map((d) => d.month.end);
  return ends.reduce<Date | null>((earliest, end) => (earliest && earliest <= end ? earliest : end), null);
}
