// The credit ledger. The balance is its sum, kept in a company's stripes (credit_balances) by the
// same statement that writes each entry, so checking it costs at most STRIPES row reads however long
// the ledger grows. An entry adds to the stripe of the connection that writes it, so a company's
// concurrent charges, on other connections, do not wait for each other's commits on one row.
import { z } from 'zod';
import type { Ctx } from '../context.js';
import { compiledQuery, type Sends } from '../db/statements.js';
import { PaymentRequired } from '../errors.js';
import { parseInput } from '../validate.js';
import { getTenant, type Tenant } from './tenants.js';

export type ReferenceType = 'api' | 'topup';

/** What spent a charge (invoices break credits down by it): the kind of turn and its agent. */
export interface SpentBy {
  turnKind: 'chat' | 'job' | 'voice';
  agentId: string;
}

export const STRIPES = 64;

/** SQL: the credit balance of the company `tenant` (an SQL expression), the sum of its stripes. */
export const balanceOf = (tenant: string): string =>
  `(select coalesce(sum(b.balance), 0) from credit_balances b where b.tenant_id = ${tenant})`;

export async function balance(ctx: Pick<Ctx, 'db'>, tenantId: string): Promise<number> {
  const { rows } = await ctx.db.raw(`select ${balanceOf('?')} as total`, [tenantId]);
  return Number(rows[0].total);
}

/** A ledger entry and its stripe of the balance, in one statement: a top-up, or a turn's charge (`spentBy`). */
export async function addCredits(
  ctx: Pick<Ctx, 'db' | 'clock'> & Sends,
  tenantId: string,
  amount: number,
  referenceType: ReferenceType,
  referenceId: string | null = null,
  spentBy: SpentBy | null = null,
): Promise<void> {
  await creditEntry(ctx, { tenantId, amount, referenceType, referenceId, spentBy, at: ctx.clock.now() });
}

interface Entry {
  tenantId: string;
  amount: number;
  referenceType: ReferenceType;
  referenceId: string | null;
  spentBy: SpentBy | null;
  at: Date;
}

const creditEntry = compiledQuery((db, { tenantId, amount, referenceType, referenceId, spentBy, at }: Entry) => {
  const entry = db.raw(
    `insert into credit_ledger (tenant_id, amount, reference_type, reference_id, turn_kind, agent_id, created_at)
     values (?, ?, ?, ?, ?, ?, ?) returning tenant_id, amount`,
    [tenantId, amount, referenceType, referenceId, spentBy?.turnKind ?? null, spentBy?.agentId ?? null, at],
  );
  // Updated in place when it exists: an upsert's conflict locks the row before updating it, one WAL record more.
  const stripe = db.raw(
    `update credit_balances b set balance = b.balance + e.amount from credit_entry e
     where b.tenant_id = e.tenant_id and b.stripe = pg_backend_pid() % ${STRIPES} returning b.stripe`,
  );
  // The stripe's first charge, or merged into the row another connection inserted meanwhile.
  const firstCharge = db.raw(
    `insert into credit_balances (tenant_id, stripe, balance)
     select tenant_id, pg_backend_pid() % ${STRIPES}, amount from credit_entry where not exists (select from stripe)
     on conflict (tenant_id, stripe) do update set balance = credit_balances.balance + excluded.balance`,
  );
  return db.raw('with credit_entry as (?), stripe as (?) ?', [entry, stripe, firstCharge]);
});

// numeric(20, 6) in the ledger.
const topUpAmount = z.number().positive().max(1e12);

/** An operator's top-up of a company's credits; returns the new balance. */
export async function topUp(ctx: Pick<Ctx, 'db' | 'clock'> & Sends, tenantId: string, amount: number): Promise<number> {
  parseInput(topUpAmount, amount, 'amount');
  await getTenant(ctx, tenantId);
  await addCredits(ctx, tenantId, amount, 'topup');
  return balance(ctx, tenantId);
}

/** Prepaid tenants below their minimum are refused a turn; pay-as-you-go ones never are. */
export function checkCanSpend(tenant: Tenant, total: number): void {
  if (tenant.billing === 'payg') return;
  if (total < tenant.minCredits) {
    throw new PaymentRequired('Insufficient AI credits', { minCredits: tenant.minCredits, totalBalance: total });
  }
}

/** Credits a company's turns spent on each UTC day from `from` to `to` (YYYY-MM-DD, both included); days with none are left out. */
export async function creditsUsedByDay(
  ctx: Pick<Ctx, 'db'>,
  tenantId: string,
  from: string,
  to: string,
): Promise<{ day: string; credits_used: number }[]> {
  const rows: { day: string; used: string }[] = await ctx
    .db('credit_ledger')
    .where({ tenant_id: tenantId, reference_type: 'api' })
    .whereRaw(`(created_at at time zone 'UTC')::date between ? and ?`, [from, to])
    .groupByRaw('1')
    .orderByRaw('1')
    .select(ctx.db.raw(`to_char(created_at at time zone 'UTC', 'YYYY-MM-DD') as day`), ctx.db.raw('-sum(amount) as used'));
  return rows.map((r) => ({ day: r.day, credits_used: Number(r.used) }));
}
