// A company's usage in a span of time: credits spent by the kind of turn (or the ledger's type for
// entries that name none) and agent, and minutes of answered calls by direction.
import type { Knex } from 'knex';
import type { DbRow } from '../../db/index.js';

export interface CreditUsage {
  referenceType: string;
  agentId: string | null;
  agentName: string | null;
  /** Credits spent, as an exact decimal (up to 6 places). */
  quantity: string;
}

export interface MinuteUsage {
  direction: string;
  minutes: number;
}

/** The usage of `tenantId` from `from` (included) to `to` (excluded); top-ups are not usage. */
export async function usageOf(
  db: Knex,
  tenantId: string,
  from: Date,
  to: Date,
): Promise<{ credits: CreditUsage[]; minutes: MinuteUsage[] }> {
  const credits = await db.raw(
    `select coalesce(l.turn_kind, l.reference_type) as reference_type, l.agent_id, a.name as agent_name, -sum(l.amount) as quantity
       from credit_ledger l left join agents a on a.id = l.agent_id
      where l.tenant_id = ? and l.reference_type <> 'topup' and l.created_at >= ? and l.created_at < ?
      group by 1, 2, 3
     having sum(l.amount) <> 0
      order by 1, 3 nulls first, 2`,
    [tenantId, from, to],
  );
  // A call answered is billed by the minute begun, at least one.
  const minutes = await db.raw(
    `select direction, sum(greatest(1, ceil(duration_sec / 60.0)))::bigint as minutes
       from calls
      where tenant_id = ? and answered_at is not null and ended_at >= ? and ended_at < ?
      group by direction
      order by direction`,
    [tenantId, from, to],
  );
  return {
    credits: credits.rows.map((r: DbRow) => ({
      referenceType: r.reference_type,
      agentId: r.agent_id,
      agentName: r.agent_name,
      quantity: r.quantity,
    })),
    minutes: minutes.rows.map((r: DbRow) => ({ direction: r.direction, minutes: Number(r.minutes) })),
  };
}
