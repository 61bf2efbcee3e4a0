// What the CR mirror projects of the jobs.
import type { Ctx } from '../../context.js';
import type { TriggerRow, TriggerStatus } from './row.js';

/** Every live job (in a `live` status), and finished ones completed since `since`. */
export async function mirroredTriggers(ctx: Pick<Ctx, 'db'>, since: Date, live: readonly TriggerStatus[]): Promise<TriggerRow[]> {
  return ctx.db('triggers').whereIn('status', live).orWhere('completed_at', '>=', since).orderBy('created_at');
}
