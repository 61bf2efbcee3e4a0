// A person is finished for the run (answered, no attempts left, or skipped): their status and
// outcome are written and their result goes to the outbox in the same transaction.
import type { Knex } from 'knex';
import type { Ctx } from '../context.js';
import type { CampaignRow } from '../store/campaigns/campaigns.js';
import { updateContact, type ContactRow } from '../store/campaigns/contacts.js';
import type { RunRow } from '../store/campaigns/runs.js';
import { campaignResult, enqueueToResults } from './result.js';

type Finished = Pick<ContactRow, 'status'> & Partial<Pick<ContactRow, 'skipped_reason' | 'result'>>;

export async function finishContact(
  ctx: Pick<Ctx, 'clock' | 'config' | 'metrics'>,
  db: Knex,
  campaign: CampaignRow,
  run: RunRow,
  contact: ContactRow,
  finished: Finished,
): Promise<void> {
  const row = await updateContact(db, run.id, contact.contact_id, { ...finished, next_attempt_at: null, finished_at: ctx.clock.now() });
  await enqueueToResults(ctx, db, campaign, run, campaignResult(campaign, run, row));
  ctx.metrics.campaignContacts.inc({ status: row.status, outcome: row.result?.outcome ?? row.skipped_reason ?? '' });
}

/** How many attempts a person of the run may have: one in a test run. */
export const maxAttemptsOf = (campaign: CampaignRow, run: RunRow): number => (run.test ? 1 : campaign.max_attempts);
