// An invoice's lines, read from the credit ledger and the calls: credits by reference type (the
// kind of turn that spent them, or the ledger's type for entries that name none) and agent, and
// call minutes by direction. Amounts are integer minor units, computed in SQL's exact numerics.
import type { Ctx } from '../context.js';

export type LineItem = 'credits' | 'call_minutes' | 'correction';

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

export interface Prices {
  perCredit: number;
  perCallMinute: number;
}

export const pricesOf = (config: Ctx['config']): Prices => ({
  perCredit: config.SWITCHBOARD_PRICE_PER_CREDIT,
  perCallMinute: config.SWITCHBOARD_PRICE_PER_CALL_MINUTE,
});

/** The usage of `tenantId` from `from` (included) to `to` (excluded), priced. */
export async function usageLines(ctx: Pick<Ctx, 'db'>, tenantId: string, from: Date, to: Date, prices: Prices): Promise<InvoiceLine[]> {
  if (from >= to) return [];
  const credits: { reference_type: string; agent_id: string | null; agent_name: string | null; quantity: string; amount: string }[] = (
    await ctx.db.raw(
      `select coalesce(l.turn_kind, l.reference_type) as reference_type, l.agent_id, a.name as agent_name,
              -sum(l.amount) as quantity, round(-sum(l.amount) * ?::bigint)::bigint as amount
         from credit_ledger l left join agents a on a.id = l.agent_id
        where l.tenant_id = ? and l.reference_type <> 'topup' and l.created_at >= ? and l.created_at < ?
        group by 1, 2, 3
       having sum(l.amount) <> 0
        order by 1, 3 nulls first, 2`,
      [prices.perCredit, tenantId, from, to],
    )
  ).rows;
  // A call answered is billed by the minute begun, at least one.
  const minutes: { direction: string; quantity: string }[] = (
    await ctx.db.raw(
      `select direction, sum(greatest(1, ceil(duration_sec / 60.0)))::bigint as quantity
         from calls
        where tenant_id = ? and answered_at is not null and ended_at >= ? and ended_at < ?
        group by direction
        order by direction`,
      [tenantId, from, to],
    )
  ).rows;
  return [
    ...credits.map((c) => ({
      description: ['AI credits', c.reference_type, c.agent_name].filter(Boolean).join(' · '),
      item: 'credits' as const,
      referenceType: c.reference_type,
      agentId: c.agent_id,
      direction: null,
      quantity: Number(c.quantity),
      unitPrice: prices.perCredit,
      amount: Number(c.amount),
    })),
    ...minutes.map((m) => ({
      description: `Call minutes · ${m.direction}`,
      item: 'call_minutes' as const,
      referenceType: null,
      agentId: null,
      direction: m.direction,
      quantity: Number(m.quantity),
      unitPrice: prices.perCallMinute,
      amount: Number(m.quantity) * prices.perCallMinute,
    })),
  ];
}

export const totalOf = (lines: InvoiceLine[]): number => lines.reduce((sum, l) => sum + l.amount, 0);
