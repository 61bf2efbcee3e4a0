// An invoice's lines: the company's usage in the pay-as-you-go part of a period, priced exactly in
// integer minor units (a line's fraction of a credit is rounded once), and their total.
import type { Ctx } from '../context.js';
import { paygSpell, type PaygSpell } from '../store/invoices/payg.js';
import type { InvoiceLine } from '../store/invoices/row.js';
import { usageOf } from '../store/invoices/usage.js';

/** `quantity` (an exact decimal, as Postgres writes it) times `unitPrice`, rounded half away from zero like Postgres's round(). */
function amountOf(quantity: string, unitPrice: number): number {
  const negative = quantity.startsWith('-');
  const [whole, fraction = ''] = (negative ? quantity.slice(1) : quantity).split('.');
  const scale = 10n ** BigInt(fraction.length);
  const rounded = (2n * BigInt(whole + fraction) * BigInt(unitPrice) + scale) / (2n * scale);
  return Number(negative ? -rounded : rounded);
}

/** The part of `start`…`end` the company was pay-as-you-go in; null when none. */
function paygPart(spell: PaygSpell, start: Date, end: Date): { from: Date; to: Date } | null {
  if (!spell.since) return null;
  const from = spell.since > start ? spell.since : start;
  const to = spell.until && spell.until < end ? spell.until : end;
  return from < to ? { from, to } : null;
}

/** The company's usage in the pay-as-you-go part of `start`…`end`, priced; null when it was not pay-as-you-go in any of it. */
export async function invoicedUsage(
  ctx: Pick<Ctx, 'db' | 'config'>,
  tenantId: string,
  start: Date,
  end: Date,
): Promise<InvoiceLine[] | null> {
  const part = paygPart(await paygSpell(ctx.db, tenantId), start, end);
  if (!part) return null;
  const { SWITCHBOARD_PRICE_PER_CREDIT: perCredit, SWITCHBOARD_PRICE_PER_CALL_MINUTE: perCallMinute } = ctx.config;
  const { credits, minutes } = await usageOf(ctx.db, tenantId, part.from, part.to);
  return [
    ...credits.map((c) => ({
      description: ['AI credits', c.referenceType, c.agentName].filter(Boolean).join(' · '),
      item: 'credits' as const,
      referenceType: c.referenceType,
      agentId: c.agentId,
      direction: null,
      quantity: Number(c.quantity),
      unitPrice: perCredit,
      amount: amountOf(c.quantity, perCredit),
    })),
    ...minutes.map((m) => ({
      description: `Call minutes · ${m.direction}`,
      item: 'call_minutes' as const,
      referenceType: null,
      agentId: null,
      direction: m.direction,
      quantity: m.minutes,
      unitPrice: perCallMinute,
      amount: m.minutes * perCallMinute,
    })),
  ];
}

export const totalOf = (lines: InvoiceLine[]): number => lines.reduce((sum, l) => sum + l.amount, 0);
