// The tenant's do-not-call list: numbers (E.164) no call is placed to. Filled by operators and by
// people who opt out on a call.
import type { Ctx, DbClock } from '../context.js';
import type { DbRow } from '../db/index.js';

interface DncEntry {
  number: string;
  reason: string | null;
  createdAt: string;
}

const toEntry = (r: DbRow): DncEntry => ({ number: r.number, reason: r.reason, createdAt: r.created_at.toISOString() });

/** Adds the number; adding one already listed keeps the first entry. */
export async function addDoNotCall(ctx: DbClock, tenantId: string, number: string, reason: string | null = null): Promise<DncEntry> {
  await ctx
    .db('do_not_call')
    .insert({ tenant_id: tenantId, number, reason, created_at: ctx.clock.now() })
    .onConflict(['tenant_id', 'number'])
    .ignore();
  return toEntry(await ctx.db('do_not_call').where({ tenant_id: tenantId, number }).first());
}

/** True when the number was listed. */
export async function removeDoNotCall(ctx: Pick<Ctx, 'db'>, tenantId: string, number: string): Promise<boolean> {
  return (await ctx.db('do_not_call').where({ tenant_id: tenantId, number }).del()) > 0;
}

export async function listDoNotCall(ctx: Pick<Ctx, 'db'>, tenantId: string): Promise<DncEntry[]> {
  return (await ctx.db('do_not_call').where({ tenant_id: tenantId }).orderBy('created_at')).map(toEntry);
}

export async function isDoNotCall(ctx: Pick<Ctx, 'db'>, tenantId: string, number: string): Promise<boolean> {
  return (await ctx.db('do_not_call').where({ tenant_id: tenantId, number }).first()) !== undefined;
}
