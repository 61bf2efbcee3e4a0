// A run's campaign results and summary in the webhook outbox: written once each (their ids are
// stable), counted for the summary, paged for GET /v1/campaign-runs/{id}/results.
import type { Ctx } from '../../context.js';

export const RESULT_TYPE = 'campaign.result';
export const SUMMARY_TYPE = 'campaign.run.finished';

type Q = Pick<Ctx, 'db'>;

/** How many results of the run are still being sent (index webhook_outbox_run_pending), however many were sent. */
export async function resultsPending(ctx: Q, runId: string): Promise<number> {
  const row = await ctx.db('webhook_outbox').where({ run_id: runId, type: RESULT_TYPE, status: 'pending' }).count({ n: '*' }).first();
  return Number(row?.n ?? 0);
}

/** Results of the run by delivery status. */
export async function resultDeliveries(ctx: Q, runId: string): Promise<{ pending: number; failed: number }> {
  const rows: { status: string; n: string }[] = await ctx.db('webhook_outbox')
    .where({ run_id: runId, type: RESULT_TYPE })
    .groupBy('status')
    .select('status', ctx.db.raw('count(*) as n'));
  const count = (status: string) => Number(rows.find((r) => r.status === status)?.n ?? 0);
  return { pending: count('pending'), failed: count('failed') };
}

/** A page of the run's results as sent, oldest first; `afterSeq` is the cursor. */
export async function pageResults(ctx: Q, runId: string, limit: number, afterSeq?: number): Promise<{ seq: number; payload: Record<string, unknown> }[]> {
  const q = ctx.db('webhook_outbox').where({ run_id: runId, type: RESULT_TYPE });
  if (afterSeq !== undefined) q.andWhere('seq', '>', afterSeq);
  return q.orderBy('seq').limit(limit).select('seq', 'payload');
}
