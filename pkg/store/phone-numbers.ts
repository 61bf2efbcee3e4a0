// The account's phone numbers: assigned by the operator, named and routed by the account. A number
// belongs to one account at most; the account's default is the `from` of calls that name none.
import type { Knex } from 'knex';
import type { Ctx, DbClock } from '../context.js';
import { Conflict, NotFound } from '../errors.js';
import type { RoutingStep } from './routing-step.js';
import type { DbRow } from '../db/index.js';

export interface PhoneNumber {
  number: string;
  tenantId: string;
  name: string;
  routing: RoutingStep | null;
  isDefault: boolean;
  createdAt: string;
  updatedAt: string;
}

const toNumber = (r: DbRow): PhoneNumber => ({
  number: r.number,
  tenantId: r.tenant_id,
  name: r.name,
  routing: r.routing,
  isDefault: r.is_default,
  createdAt: r.created_at.toISOString(),
  updatedAt: r.updated_at.toISOString(),
});

/** Assigns `number` to the tenant; its first number, or one added `asDefault`, becomes its default. */
export async function addNumber(ctx: DbClock, tenantId: string, number: string, asDefault = false): Promise<PhoneNumber> {
  return ctx.db.transaction(async (trx) => {
    // One assignment at a time per tenant, so "its first number" and the one default hold.
    await trx.raw('select id from tenants where id = ? for update', [tenantId]);
    const now = ctx.clock.now();
    const existing = await trx('phone_numbers').where({ number }).first();
    if (existing && existing.tenant_id !== tenantId) throw new Conflict(`${number} is assigned to another account`, 'number_taken');
    const hasDefault = (await trx('phone_numbers').where({ tenant_id: tenantId, is_default: true }).first()) !== undefined;
    const makeDefault = asDefault || !hasDefault;
    if (makeDefault)
      await trx('phone_numbers').where({ tenant_id: tenantId, is_default: true }).update({ is_default: false, updated_at: now });
    if (existing) {
      if (makeDefault) await trx('phone_numbers').where({ number }).update({ is_default: true, updated_at: now });
    } else {
      await trx('phone_numbers').insert({ number, tenant_id: tenantId, is_default: makeDefault, created_at: now, updated_at: now });
    }
    return toNumber(await trx('phone_numbers').where({ number }).first());
  });
}

/** True when the tenant had the number; a removed default passes to its oldest remaining number. */
export async function removeNumber(ctx: DbClock, tenantId: string, number: string): Promise<boolean> {
  return ctx.db.transaction(async (trx) => {
    await trx.raw('select id from tenants where id = ? for update', [tenantId]);
    const [removed] = await trx('phone_numbers').where({ tenant_id: tenantId, number }).del().returning('is_default');
    if (!removed) return false;
    if (removed.is_default) {
      const next = await trx('phone_numbers').where({ tenant_id: tenantId }).orderBy(['created_at', 'number']).first();
      if (next) await trx('phone_numbers').where({ number: next.number }).update({ is_default: true, updated_at: ctx.clock.now() });
    }
    return true;
  });
}

export async function listNumbers(ctx: Pick<Ctx, 'db'>, tenantId: string): Promise<PhoneNumber[]> {
  return (await ctx.db('phone_numbers').where({ tenant_id: tenantId }).orderBy(['created_at', 'number'])).map(toNumber);
}

/** The tenant's number, or NotFound (another tenant's answers the same). */
export async function getNumber(ctx: Pick<Ctx, 'db'>, tenantId: string, number: string): Promise<PhoneNumber> {
  const row = await ctx.db('phone_numbers').where({ tenant_id: tenantId, number }).first();
  if (!row) throw new NotFound(`No number ${number} on this account`);
  return toNumber(row);
}

/** The number's owner and routing, whoever owns it; undefined when nobody does. */
export async function findNumber(db: Knex, number: string): Promise<PhoneNumber | undefined> {
  const row = await db('phone_numbers').where({ number }).first();
  return row ? toNumber(row) : undefined;
}

export async function defaultNumber(ctx: Pick<Ctx, 'db'>, tenantId: string): Promise<string | undefined> {
  return (await ctx.db('phone_numbers').where({ tenant_id: tenantId, is_default: true }).first())?.number;
}

export async function updateNumber(
  ctx: DbClock,
  tenantId: string,
  number: string,
  patch: { name?: string; routing?: RoutingStep | null },
): Promise<PhoneNumber> {
  const values: Record<string, unknown> = { updated_at: ctx.clock.now() };
  if (patch.name !== undefined) values.name = patch.name;
  // jsonb: a step is stored as JSON text; null clears the routing.
  if (patch.routing !== undefined) values.routing = patch.routing === null ? null : JSON.stringify(patch.routing);
  const [row] = await ctx.db('phone_numbers').where({ tenant_id: tenantId, number }).update(values).returning('*');
  if (!row) throw new NotFound(`No number ${number} on this account`);
  return toNumber(row);
}
