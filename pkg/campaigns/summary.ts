// The run summary: counted from the run's people and results, sent once (summary_sent_at).
import type { Knex } from 'knex';
import type { Ctx } from '../context.js';
import type { CampaignRow } from '../store/campaigns/campaigns.js';
import { countByOutcome } from '../store/campaigns/contacts.js';
import { countResults } from '../store/campaigns/deliveries.js';
import { updateRun, type RunRow } from '../store/campaigns/runs.js';
import { enqueueToResults, runSummary } from './result.js';
import { contactCounts } from './views.js';

/** Write the summary of `run` (as it now stands, ended) inside `db`. */
export async function sendSummary(ctx: Pick<Ctx, 'clock' | 'config'>, db: Knex, campaign: CampaignRow, run: RunRow): Promise<void> {
  const q = { db };
  const { total, done, no_answer, skipped, pending, unfinished } = await contactCounts(q, run.id);
  // People still on a call when a stopped run's summary goes are unfinished too.
  const contacts = { total, done, no_answer, skipped, unfinished: unfinished + pending };
  const summary = runSummary(campaign, run, contacts, await countByOutcome(q, run.id), await countResults(q, run.id, 'failed'));
  await enqueueToResults(ctx, db, campaign, run, summary);
  await updateRun(db, run.id, { summary_sent_at: ctx.clock.now(), due_at: null });
}
