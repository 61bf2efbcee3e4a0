// A run's campaign results and summary in the webhook outbox: written once each (their ids are
// stable), counted for the summary, paged for GET /v1/campaign-runs/{id}/results.
import type { Ctx } from '../../context.js';

export const RESULT_TYPE = 'campaign.result';
export const SUMMARY_TYPE = 'campaign.run.finished';

/**
 * How many results of the run are in delivery `status`: 'pending' still being sent (a run step waits for them, by
 * index webhook_outbox_run_pending, however many were sent), 'failed' not taken (the run record, the summary).
 */
export async function countResults(ctx: Pick<Ctx, 'db'>, runId: string, status: 'pending' | 'failed'): Promise<number> {
  const row = await ctx.db('webhook_outbox').where({ run_id: runId, type: RESULT_TYPE, status }).count({ n: '*' }).first();
  return Number(row?.n ?? 0);
}

/** A page of the run's results as sent, oldest first; `afterSeq` is the cursor. */
export async function pageResults(
  ctx: Pick<Ctx, 'db'>,
  runId: string,
  limit: number,
  afterSeq?: number,
): Promise<{ seq: number; payload: Record<string, unknown> }[]> {
  const q = ctx.db('webhook_outbox').where({ run_id: runId, type: RESULT_TYPE });
  if (afterSeq !== undefined) q.andWhere('seq', '>', afterSeq);
  return q.orderBy('seq').limit(limit).select('seq', 'payload');
}
