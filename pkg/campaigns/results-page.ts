// GET /v1/campaign-runs/{id}/results: the run's results as they were sent, a page at a time.
import type { Ctx } from '../context.js';
import { Unprocessable } from '../errors.js';
import { pageResults } from '../store/campaigns/deliveries.js';
import { getRun } from '../store/campaigns/runs.js';

export async function resultsPage(ctx: Pick<Ctx, 'db'>, runId: string, query: { limit: number; cursor?: string }) {
  let after: number | undefined;
  if (query.cursor !== undefined) {
    after = Number(query.cursor);
    if (!/^\d{1,18}$/.test(query.cursor)) throw new Unprocessable('cursor: must be the next_cursor of a page', 'invalid_cursor');
  }
  const rows = await pageResults(ctx, runId, query.limit + 1, after);
  const page = rows.slice(0, query.limit);
  return { data: page.map((r) => r.payload), next_cursor: rows.length > query.limit ? String(page.at(-1)!.seq) : null };
}

/** A page of the tenant's run `runId`'s results; 404 for another account's run. */
export async function runResults(ctx: Pick<Ctx, 'db'>, tenantId: string, runId: string, query: { limit: number; cursor?: string }) {
  return resultsPage(ctx, (await getRun(ctx, tenantId, runId)).id, query);
}
