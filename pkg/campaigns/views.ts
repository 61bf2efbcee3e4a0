// What the API shows of a run (DECISIONS.md "Run record"), from its row, its people and its results.
import type { Ctx } from '../context.js';
import { countByOutcome, countByStatus, LEFT } from '../store/campaigns/contacts.js';
import { countResults } from '../store/campaigns/deliveries.js';
import { getCampaign } from '../store/campaigns/campaigns.js';
import { listRuns, runsEndedSince, type RunRow } from '../store/campaigns/runs.js';

/** People by status as the run record and the summary count them. */
export async function contactCounts(ctx: Pick<Ctx, 'db'>, runId: string) {
  const by = await countByStatus(ctx, runId);
  const n = (s: keyof typeof by) => by[s] ?? 0;
  return {
    total: Object.values(by).reduce((a, b) => a + (b ?? 0), 0),
    done: n('done'),
    no_answer: n('no_answer'),
    skipped: n('skipped'),
    pending: LEFT.reduce((sum, s) => sum + n(s), 0),
    unfinished: n('unfinished'),
  };
}

export async function runRecord(ctx: Pick<Ctx, 'db'>, run: RunRow) {
  return {
    id: run.id,
    campaign_id: run.campaign_id,
    test: run.test,
    status: run.status,
    started_at: run.started_at.toISOString(),
    ended_at: run.ended_at?.toISOString() ?? null,
    error: run.error,
    contacts: await contactCounts(ctx, run.id),
    outcomes: await countByOutcome(ctx, run.id),
    results_not_taken: await countResults(ctx, run.id, 'failed'),
  };
}

/** A campaign's runs, newest first, as GET /v1/campaigns/{id}/runs lists them; 404 for another account's campaign. */
export async function campaignRuns(ctx: Pick<Ctx, 'db'>, tenantId: string, campaignId: string) {
  const campaign = await getCampaign(ctx, tenantId, campaignId);
  return Promise.all((await listRuns(ctx, campaign.id)).map((run) => runRecord(ctx, run)));
}

export interface MirroredRun extends RunRow {
  contacts: Awaited<ReturnType<typeof contactCounts>>;
  results_not_taken: number;
}

/** What the CampaignRun objects show: runs not ended, and those ended since `since`, with their people counted. */
export async function mirroredRuns(ctx: Pick<Ctx, 'db'>, since: Date): Promise<MirroredRun[]> {
  const rows = await runsEndedSince(ctx, since);
  return Promise.all(
    rows.map(async (row) => ({
      ...row,
      contacts: await contactCounts(ctx, row.id),
      results_not_taken: await countResults(ctx, row.id, 'failed'),
    })),
  );
}
