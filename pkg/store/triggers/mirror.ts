// What the CR mirror projects of the jobs.
import type { Ctx } from '../../context.js';
import { PENDING } from '../../triggers/state.js';
import type { TriggerRow } from './row.js';

/** Every live job, and finished ones completed since `since`. */
export async function mirroredTriggers(ctx: Pick<Ctx, 'db'>, since: Date): Promise<TriggerRow[]> {
  return ctx.db('triggers')
    .whereIn('status', PENDING)
    .orWhere('completed_at', '>=', since)
    .orderBy('created_at');
}
