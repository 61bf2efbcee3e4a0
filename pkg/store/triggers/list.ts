// A conversation's triggers, newest first, a page at a time with the total and whether more follow.
import type { Ctx } from '../../context.js';
import type { TriggerRow } from './row.js';

export async function listTriggers(
  ctx: Pick<Ctx, 'db'>,
  conversationId: string,
  limit: number,
  offset: number,
): Promise<{ rows: TriggerRow[]; total: number; hasMore: boolean }> {
  const [rows, count] = await Promise.all([
    ctx.db('triggers').where({ conversation_id: conversationId }).orderBy('seq', 'desc').limit(limit).offset(offset),
    ctx.db('triggers').where({ conversation_id: conversationId }).count({ n: '*' }).first(),
  ]);
  const total = Number(count?.n ?? 0);
  return { rows, total, hasMore: offset + rows.length < total };
}

/** An account's jobs, newest first, optionally of one status, a page at a time (the console's list). */
export async function listTenantTriggers(
  ctx: Pick<Ctx, 'db'>,
  tenantId: string,
  page: { status?: string; limit: number; offset: number },
): Promise<{ rows: TriggerRow[]; total: number; hasMore: boolean }> {
  const scope = () =>
    ctx
      .db('triggers')
      .where({ tenant_id: tenantId })
      .modify((q) => (page.status ? q.where({ status: page.status }) : q));
  const [rows, count] = await Promise.all([
    scope().orderBy('seq', 'desc').limit(page.limit).offset(page.offset),
    scope().count({ n: '*' }).first(),
  ]);
  const total = Number(count?.n ?? 0);
  return { rows, total, hasMore: page.offset + rows.length < total };
}
