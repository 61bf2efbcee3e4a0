// What the account allows of the numbers of a list: its do-not-call list, its contact limits per
// number (every outbound call counts: API, MCP, campaigns) and its allowed countries.
import type { Ctx } from '../../context.js';
import { allowedCountriesOf, getTenant } from '../tenants.js';

const DAY_MS = 24 * 3_600_000;

export interface ContactPolicy {
  allowedCountries: string[];
  maxPerDay: number;
  maxPerWeek: number;
}

export async function contactPolicyOf(ctx: Pick<Ctx, 'db'>, tenantId: string): Promise<ContactPolicy> {
  const tenant = await getTenant(ctx, tenantId);
  return {
    allowedCountries: allowedCountriesOf(tenant),
    maxPerDay: tenant.maxCallsPerNumberPerDay,
    maxPerWeek: tenant.maxCallsPerNumberPerWeek,
  };
}

export async function doNotCallAmong(ctx: Pick<Ctx, 'db'>, tenantId: string, numbers: string[]): Promise<Set<string>> {
  if (!numbers.length) return new Set();
  const rows: { number: string }[] = await ctx.db('do_not_call').where({ tenant_id: tenantId }).whereIn('number', numbers).select('number');
  return new Set(rows.map((r) => r.number));
}

/** Numbers already called as often as the limits allow in the last day or the last seven (rolling). */
export async function numbersAtLimit(
  ctx: Pick<Ctx, 'db'>,
  tenantId: string,
  numbers: string[],
  policy: ContactPolicy,
  now: Date,
): Promise<Set<string>> {
  if (!numbers.length) return new Set();
  const { rows } = await ctx.db.raw(
    `select to_number from calls
     where tenant_id = ? and direction = 'outbound' and to_number = any(?) and created_at > ?
     group by to_number
     having count(*) filter (where created_at > ?) >= ? or count(*) >= ?`,
    [tenantId, numbers, new Date(now.getTime() - 7 * DAY_MS), new Date(now.getTime() - DAY_MS), policy.maxPerDay, policy.maxPerWeek],
  );
  return new Set((rows as { to_number: string }[]).map((r) => r.to_number));
}
