// One step of a claimed run, decided from its rows alone (a controller may crash anywhere): take the
// list, dial whoever is due, end the run when everyone is finished and every result taken or given
// up, or send a stopped run's summary when its last call ends (two hours after the stop at the latest).
import type { Ctx } from '../context.js';
import { campaignById, type CampaignRow } from '../store/campaigns/campaigns.js';
import { countLeft } from '../store/campaigns/contacts.js';
import { countResults } from '../store/campaigns/deliveries.js';
import { transitionRun, unleaseRun, updateRun, type RunRow } from '../store/campaigns/runs.js';
import { getTenant } from '../store/tenants.js';
import { dialDue } from './dial.js';
import { runMove } from './state.js';
import { sendSummary } from './summary.js';
import { failRun, takeList } from './take-list.js';

/** A stopped run's summary goes at the latest this long after the stop. */
export const STOPPED_SUMMARY_MS = 2 * 3_600_000;

/** Ends the run `done` (summary at once) when nobody is left to call and no result is still being sent. */
async function finishIfDone(ctx: Ctx, campaign: CampaignRow, run: RunRow): Promise<boolean> {
  if ((await countLeft(ctx, run.id)) > 0 || (await countResults(ctx, run.id, 'pending')) > 0) return false;
  await ctx.db.transaction(async (trx) => {
    const done = await transitionRun({ db: trx }, run.id, runMove('finished'), { ended_at: ctx.clock.now() });
    if (done) await sendSummary(ctx, trx, campaign, done);
  });
  return true;
}

async function proceed(ctx: Ctx, campaign: CampaignRow, run: RunRow): Promise<Date | null> {
  const next = await dialDue(ctx, await getTenant(ctx, run.tenant_id), campaign, run);
  return (await finishIfDone(ctx, campaign, run)) ? null : next;
}

/** A stopped run: its summary when no call of it is left on the line, or once two hours have passed. */
async function closeStopped(ctx: Ctx, campaign: CampaignRow, run: RunRow): Promise<Date | null> {
  const deadline = new Date(run.stopped_at!.getTime() + STOPPED_SUMMARY_MS);
  const onCalls = await countLeft(ctx, run.id);
  const now = ctx.clock.now();
  if (onCalls > 0 && now < deadline) return deadline;
  await ctx.db.transaction(async (trx) => {
    await updateRun(trx, run.id, { ended_at: now });
    await sendSummary(ctx, trx, campaign, { ...run, ended_at: now });
  });
  return null;
}

async function step(ctx: Ctx, run: RunRow): Promise<Date | null> {
  if (run.summary_sent_at) return null;
  const campaign = await campaignById(ctx, run.campaign_id);
  if (run.status === 'stopped') return closeStopped(ctx, campaign, run);
  if (run.status !== 'running') return null;
  if (run.listed_at) return proceed(ctx, campaign, run);
  // Asked before by a controller that was lost: the list request is not repeated.
  if (run.list_requested_at) return failRun(ctx, run, 'interrupted: the controller requesting the list stopped before it was taken');
  return takeList(ctx, run);
}

/**
 * Run one step of `claimed`, claimed by `owner`, and hand it back due when it next has work. Steps
 * of one run never overlap: a claim made once a step's lease ran out (a stalled process) waits for
 * that step to end, then reads the run as it left it.
 */
export async function advanceRun(ctx: Ctx, claimed: RunRow, owner: string): Promise<void> {
  await ctx.locks.withLock(
    claimed.id,
    async ({ reads: [[run]] }) => {
      const due = await step(ctx, run as RunRow);
      await unleaseRun(ctx, claimed.id, owner, due, claimed.due_at!);
    },
    { reads: [ctx.db('campaign_runs').where({ id: claimed.id })], holder: claimed.tenant_id },
  );
}
