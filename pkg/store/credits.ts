// The credit ledger. The balance is its sum, kept in a company's stripes (credit_balances) by the
// same statement that writes each entry, so checking it costs at most STRIPES row reads however long
// the ledger grows. An entry adds to the stripe of the connection that writes it, so a company's
// concurrent charges, on other connections, do not wait for each other's commits on one row.
import type { Knex } from 'knex';
import { z } from 'zod';
import type { Ctx } from '../context.js';
import { PaymentRequired } from '../errors.js';
import { parseInput } from '../validate.js';
import { getTenant, type Tenant } from './tenants.js';

export type ReferenceType = 'api' | 'topup';

export const STRIPES = 64;

/** SQL: the credit balance of the company `tenant` (an SQL expression), the sum of its stripes. */
export const balanceOf = (tenant: string): string =>
  `(select coalesce(sum(b.balance), 0) from credit_balances b where b.tenant_id = ${tenant})`;

export async function balance(ctx: Pick<Ctx, 'db'>, tenantId: string): Promise<number> {
  const { rows } = await ctx.db.raw(`select ${balanceOf('?')} as total`, [tenantId]);
  return Number(rows[0].total);
}

export async function addCredits(
  ctx: Pick<Ctx, 'db' | 'clock'>,
  tenantId: string,
  amount: number,
  referenceType: ReferenceType,
  referenceId: string | null = null,
): Promise<void> {
  const { entry, balance } = creditWrites(ctx, tenantId, amount, referenceType, referenceId);
  await ctx.db.raw('with credit_entry as (?) ?', [entry, balance]);
}

/** addCredits' two writes: `entry` goes in `with credit_entry as (...)`, `balance` is another part of the same statement. */
function creditWrites(
  ctx: Pick<Ctx, 'db' | 'clock'>,
  tenantId: string,
  amount: number,
  referenceType: ReferenceType,
  referenceId: string | null,
): { entry: Knex.Raw; balance: Knex.Raw } {
  return {
    entry: ctx.db.raw(
      `insert into credit_ledger (tenant_id, amount, reference_type, reference_id, created_at)
       values (?, ?, ?, ?, ?) returning tenant_id, amount`,
      [tenantId, amount, referenceType, referenceId, ctx.clock.now()],
    ),
    balance: ctx.db.raw(
      `insert into credit_balances (tenant_id, stripe, balance)
       select tenant_id, pg_backend_pid() % ${STRIPES}, amount from credit_entry
       on conflict (tenant_id, stripe) do update set balance = credit_balances.balance + excluded.balance`,
    ),
  };
}

// numeric(20, 6) in the ledger.
const topUpAmount = z.number().positive().max(1e12);

/** An operator's top-up of a company's credits; returns the new balance. */
export async function topUp(ctx: Pick<Ctx, 'db' | 'clock'>, tenantId: string, amount: number): Promise<number> {
  parseInput(topUpAmount, amount, 'amount');
  await getTenant(ctx, tenantId);
  await addCredits(ctx, tenantId, amount, 'topup');
  return balance(ctx, tenantId);
}

/** Prepaid companies below their minimum are refused a turn; pay-as-you-go ones never are. */
export async function assertCanSpend(ctx: Pick<Ctx, 'db'>, tenant: Tenant): Promise<void> {
  if (tenant.billing === 'payg') return;
  checkCanSpend(tenant, await balance(ctx, tenant.id));
}

/** The rule of assertCanSpend for a balance read elsewhere. */
export function checkCanSpend(tenant: Tenant, total: number): void {
  if (tenant.billing === 'payg') return;
  if (total < tenant.minCredits) {
    throw new PaymentRequired('Insufficient AI credits', { minCredits: tenant.minCredits, totalBalance: total });
  }
}

type Usage = { promptTokens: number; completionTokens: number; totalTokens: number };

/** Record what a turn used, under reference type `api`, in the ledger and the usage metrics. */
export async function chargeTokens(
  ctx: Pick<Ctx, 'db' | 'clock' | 'config' | 'metrics'>,
  tenantId: string,
  usage: Usage,
  referenceId: string,
): Promise<void> {
  if (usage.totalTokens <= 0) return;
  const credits = tokenCredits(ctx, usage);
  await addCredits(ctx, tenantId, -credits, 'api', referenceId);
  meterTokens(ctx, tenantId, usage, credits);
}

const tokenCredits = (ctx: Pick<Ctx, 'config'>, usage: Usage): number => (usage.totalTokens / 1000) * ctx.config.SWITCHBOARD_CREDITS_PER_1K_TOKENS;

function meterTokens(ctx: Pick<Ctx, 'metrics'>, tenantId: string, usage: Usage, credits: number): void {
  ctx.metrics.modelTokens.inc({ tenant: tenantId, kind: 'prompt' }, usage.promptTokens);
  ctx.metrics.modelTokens.inc({ tenant: tenantId, kind: 'completion' }, usage.completionTokens);
  ctx.metrics.credits.inc({ tenant: tenantId }, credits);
}
