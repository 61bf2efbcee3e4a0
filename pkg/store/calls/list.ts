// An account's calls, newest first, filtered and paged by sequence number.
import type { Ctx } from '../../context.js';
import type { CallRow, CallStatus } from './row.js';

export interface CallFilter {
  status?: CallStatus;
  direction?: 'outbound' | 'inbound';
  to?: string;
  from?: string;
  createdAfter?: Date;
  createdBefore?: Date;
  /** Only calls older than this sequence number (the cursor). */
  beforeSeq?: number;
  limit: number;
}

/** Newest first. */
export async function listCalls(ctx: Pick<Ctx, 'db'>, tenantId: string, f: CallFilter): Promise<CallRow[]> {
  const q = ctx.db('calls').where({ tenant_id: tenantId });
  if (f.status) q.andWhere({ status: f.status });
  if (f.direction) q.andWhere({ direction: f.direction });
  if (f.to) q.andWhere({ to_number: f.to });
  if (f.from) q.andWhere({ from_number: f.from });
  if (f.createdAfter) q.andWhere('created_at', '>', f.createdAfter);
  if (f.createdBefore) q.andWhere('created_at', '<', f.createdBefore);
  if (f.beforeSeq !== undefined) q.andWhere('seq', '<', f.beforeSeq);
  return q.orderBy('seq', 'desc').limit(f.limit);
}
