// The audit log: every change a console user makes, newest first, for the account's owners.
import type { Ctx, DbClock } from '../context.js';
import { Invalid } from '../errors.js';
import type { DbRow } from '../db/index.js';

/** Who made a change: a signed-in user, or null for the operator's CLI. */
export interface Actor {
  tenantId: string;
  user: { id: string; email: string } | null;
}

export interface AuditEntry {
  id: string;
  at: string;
  /** null: the operator (`switchboard admin`). */
  user: { id: string; email: string } | null;
  action: string;
  target: string | null;
  details: Record<string, unknown>;
}

/** Records that `actor` did `action` (`user.invited`, `key.created`…) to `target` (an id); call it in the change's transaction. */
export async function audit(
  ctx: DbClock,
  actor: Actor,
  action: string,
  target: string | null = null,
  details: Record<string, unknown> = {},
): Promise<void> {
  await ctx.db('console_audit').insert({
    tenant_id: actor.tenantId,
    user_id: actor.user?.id ?? null,
    user_email: actor.user?.email ?? null,
    action,
    target,
    details,
    created_at: ctx.clock.now(),
  });
}

const toEntry = (r: DbRow): AuditEntry => ({
  id: String(r.id),
  at: r.created_at.toISOString(),
  user: r.user_email === null ? null : { id: r.user_id, email: r.user_email },
  action: r.action,
  target: r.target,
  details: r.details,
});

/** A page of the account's entries, newest first; `cursor` is the last id of the page before. */
export async function listAudit(
  ctx: Pick<Ctx, 'db'>,
  tenantId: string,
  page: { cursor?: string; limit: number },
): Promise<{ entries: AuditEntry[]; nextCursor: string | null }> {
  if (page.cursor !== undefined && !/^[1-9]\d{0,18}$/.test(page.cursor))
    throw new Invalid('cursor: not a cursor this endpoint gave out', [{ path: 'cursor', message: 'not a cursor this endpoint gave out' }]);
  const query = ctx
    .db('console_audit')
    .where({ tenant_id: tenantId })
    .orderBy('id', 'desc')
    .limit(page.limit + 1);
  if (page.cursor) query.andWhere('id', '<', page.cursor);
  const rows = await query;
  const entries = rows.slice(0, page.limit).map(toEntry);
  return { entries, nextCursor: rows.length > page.limit ? entries.at(-1)!.id : null };
}

/** Runs a change and its audit entry in one transaction: both are kept, or neither. */
export function inTransaction<C extends Pick<Ctx, 'db'>, T>(ctx: C, change: (tx: C) => Promise<T>): Promise<T> {
  return ctx.db.transaction((trx) => change({ ...ctx, db: trx }));
}
