// A page of a tenant's calls, newest first, for GET /v1/calls and the MCP tool list_calls.
import type { Ctx } from '../context.js';
import { Invalid } from '../errors.js';
import { listCalls, type CallFilter } from '../store/calls/list.js';
import type { Tenant } from '../store/tenants.js';
import { toE164 } from './numbers.js';
import { callRecord, type CallRecord } from './views.js';

interface CallListQuery extends Omit<CallFilter, 'beforeSeq' | 'limit' | 'createdAfter' | 'createdBefore'> {
  created_after?: Date;
  created_before?: Date;
  limit: number;
  cursor?: string;
}

/** The list cursor: the last call's sequence number, opaque to clients. */
const encodeCursor = (seq: number): string => Buffer.from(`seq:${seq}`).toString('base64url');

function decodeCursor(cursor: string): number {
  const match = /^seq:(\d{1,18})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!match) throw new Invalid('cursor is not one this API gave out', [{ path: 'cursor', message: 'is not one this API gave out' }]);
  return Number(match[1]);
}

/** Numbers in filters are read as the tenant writes them (national format in its country). */
const number = (raw: string | undefined, tenant: Tenant) => (raw === undefined ? undefined : (toE164(raw, tenant.country) ?? raw));

export async function listCallsPage(
  ctx: Pick<Ctx, 'db'>,
  tenant: Tenant,
  q: CallListQuery,
): Promise<{ data: CallRecord[]; next_cursor: string | null }> {
  const rows = await listCalls(ctx, tenant.id, {
    status: q.status,
    direction: q.direction,
    to: number(q.to, tenant),
    from: number(q.from, tenant),
    createdAfter: q.created_after,
    createdBefore: q.created_before,
    beforeSeq: q.cursor === undefined ? undefined : decodeCursor(q.cursor),
    limit: q.limit + 1,
  });
  const page = rows.slice(0, q.limit);
  return { data: page.map(callRecord), next_cursor: rows.length > q.limit ? encodeCursor(page.at(-1)!.seq) : null };
}
