// A campaign call became final: the person's attempt is settled in the same transaction. Answered:
// done, with the agent's outcome. Not reached (no answer, busy, failed, a machine without a message):
// tried again `retry_after_minutes` later while attempts and their calling window last, else
// finished no_answer. A voicemail left: no_answer with outcome voicemail. After a stop, a person not
// reached stays unfinished, without a result.
import type { Ctx } from '../context.js';
import { campaignById } from '../store/campaigns/campaigns.js';
import { lockContact, updateContact, type ContactOutcome } from '../store/campaigns/contacts.js';
import { runById, wakeRun } from '../store/campaigns/runs.js';
import type { CallRow } from '../store/calls/row.js';
import { finishContact, maxAttemptsOf } from './finish-contact.js';
import { callableFrom } from './hours.js';

/** What a machine that took the call without a message left (pkg/voice/run.ts). */
const MACHINE_WITHOUT_MESSAGE = 'no-answer';

function outcomeOf(call: CallRow): ContactOutcome {
  const r = call.result;
  return {
    outcome: r?.outcome,
    details: r?.details,
    note: r?.note || undefined,
    callback: r?.callback,
    opt_out: r?.opt_out,
    summary: call.summary ?? undefined,
  };
}

export async function settleCampaignCall(
  ctx: Pick<Ctx, 'db' | 'clock' | 'config' | 'metrics'>,
  call: CallRow & { campaign: NonNullable<CallRow['campaign']> },
): Promise<void> {
  const { run_id: runId, contact_id: contactId } = call.campaign;
  const contact = await lockContact(ctx.db, runId, contactId);
  if (contact?.status !== 'calling' || contact.call_id !== call.id) return;
  const run = (await runById(ctx.db, runId))!;
  const campaign = await campaignById(ctx, run.campaign_id);
  const outcome = outcomeOf(call);
  if (outcome.outcome === 'voicemail') {
    await finishContact(ctx, ctx.db, campaign, run, contact, { status: 'no_answer', result: outcome });
  } else if (call.answered_at && outcome.outcome !== MACHINE_WITHOUT_MESSAGE) {
    await finishContact(ctx, ctx.db, campaign, run, contact, { status: 'done', result: outcome });
  } else {
    const retryAt = new Date(ctx.clock.now().getTime() + campaign.retry_after_minutes * 60_000);
    // Tried again only with an attempt left and before their window closes.
    const next =
      contact.attempts < maxAttemptsOf(campaign, run)
        ? callableFrom({ start: contact.window_start, end: contact.window_end }, retryAt)
        : null;
    if (run.status !== 'running') {
      await updateContact(ctx.db, runId, contactId, { status: 'unfinished' });
      ctx.metrics.campaignContacts.inc({ status: 'unfinished', outcome: '' });
    } else if (next) await updateContact(ctx.db, runId, contactId, { status: 'pending', next_attempt_at: next });
    else await finishContact(ctx, ctx.db, campaign, run, contact, { status: 'no_answer', result: { summary: outcome.summary } });
  }
  await wakeRun(ctx, runId);
}
