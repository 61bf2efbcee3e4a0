// Dialling a run's due people, one transaction each: within the campaign's concurrency and the
// account's simultaneous-call cap (a campaign call waits for a slot; it is never refused as
// tenant_busy, and does not count toward the calls placed per minute). The call and the person's
// attempt are written together, and a unique index keeps each attempt to one call.
import type { Knex } from 'knex';
import type { Ctx } from '../context.js';
import { TooManyRequests, Unprocessable } from '../errors.js';
import { prefixedId } from '../ids.js';
import type { CampaignRow } from '../store/campaigns/campaigns.js';
import { lockDueContacts, nextAttemptAt, updateContact, type ContactRow } from '../store/campaigns/contacts.js';
import { contactPolicyOf, doNotCallAmong, numbersAtLimit } from '../store/campaigns/number-checks.js';
import type { RunRow } from '../store/campaigns/runs.js';
import { insertCall } from '../store/calls/insert.js';
import type { Tenant } from '../store/tenants.js';
import { fillGreeting } from '../voice/greeting.js';
import { callerId } from '../voice/place.js';
import { placedCall } from '../voice/state.js';
import { finishContact, maxAttemptsOf } from './finish-contact.js';
import { callableFrom } from './hours.js';
import type { SkipReason } from './state.js';

/** How long a run waits before looking for a free slot again, when the account's cap is reached. */
const SLOT_WAIT_MS = 5_000;
const CAMPAIGN_CALL_MAX_SEC = 600;

type Dialled = 'placed' | 'finished' | 'no_slot' | 'full' | 'none';

/** Why a person may not be called now, or null: their window closed, they opted out, or the limits are reached. */
async function refusal(db: Knex, tenant: Tenant, run: RunRow, contact: ContactRow, now: Date): Promise<SkipReason | null> {
  if (!callableFrom({ start: contact.window_start, end: contact.window_end }, now)) return 'outside_hours';
  const q = { db };
  if ((await doNotCallAmong(q, tenant.id, [contact.phone!])).size) return 'do_not_call';
  if (run.test) return null;
  const policy = await contactPolicyOf(q, tenant.id);
  return (await numbersAtLimit(q, tenant.id, [contact.phone!], policy, now)).size ? 'outside_limits' : null;
}

/**
 * The number a campaign's call comes from: its `from` while that is still one of the account's numbers
 * (the operator may take one back), else the account's default, as for POST /v1/calls.
 */
async function fromNumber(ctx: Pick<Ctx, 'db' | 'config'>, tenant: Tenant, campaign: CampaignRow): Promise<string> {
  try {
    return await callerId(ctx, tenant, campaign.from_number ?? undefined);
  } catch (err) {
    if (!(err instanceof Unprocessable)) throw err;
    return callerId(ctx, tenant, undefined);
  }
}

async function dialOne(ctx: Ctx, db: Knex, tenant: Tenant, campaign: CampaignRow, run: RunRow, contact: ContactRow): Promise<Dialled> {
  const now = ctx.clock.now();
  const refused = await refusal(db, tenant, run, contact, now);
  if (refused) {
    // Refused before the first dial: skipped. Later: finished with what they have.
    const finished = contact.attempts === 0 ? { status: 'skipped' as const, skipped_reason: refused } : { status: 'no_answer' as const };
    await finishContact(ctx, db, campaign, run, contact, finished);
    return 'finished';
  }
  const from = await fromNumber({ db, config: ctx.config }, tenant, campaign);
  const id = prefixedId('cal');
  try {
    await ctx.callLimits.acquireSlot(tenant, id);
  } catch (err) {
    if (err instanceof TooManyRequests) return 'no_slot';
    throw err;
  }
  try {
    const attempt = contact.attempts + 1;
    await insertCall(db, {
      ...placedCall(now),
      id,
      tenant_id: tenant.id,
      from_number: from,
      to_number: contact.phone!,
      agent_id: campaign.agent_id,
      channel: 'campaign',
      key_id: null,
      task: campaign.task,
      context: contact.context,
      questions: campaign.questions,
      outcomes: campaign.outcomes,
      max_duration_sec: CAMPAIGN_CALL_MAX_SEC,
      metadata: {},
      greeting: campaign.greeting ? fillGreeting(campaign.greeting, contact.context) : null,
      campaign: {
        id: campaign.id,
        run_id: run.id,
        contact_id: contact.contact_id,
        attempt,
        timezone: contact.timezone,
        voicemail: campaign.leave_voicemail && attempt === maxAttemptsOf(campaign, run),
      },
    });
    await updateContact(db, run.id, contact.contact_id, { status: 'calling', attempts: attempt, call_id: id, next_attempt_at: null });
    return 'placed';
  } catch (err) {
    await ctx.callLimits.releaseSlot({ tenant_id: tenant.id, id });
    throw err;
  }
}

/** Dial whoever is due while the campaign has room; returns when the run is next due (null: when a call ends). */
export async function dialDue(ctx: Ctx, tenant: Tenant, campaign: CampaignRow, run: RunRow): Promise<Date | null> {
  for (;;) {
    const dialled = await ctx.db.transaction(async (trx) => {
      const { n } = (await trx('campaign_contacts').where({ run_id: run.id, status: 'calling' }).count({ n: '*' }).first()) as {
        n: string;
      };
      if (Number(n) >= campaign.concurrency) return 'full';
      const [contact] = await lockDueContacts(trx, run.id, ctx.clock.now(), 1);
      return contact ? dialOne(ctx, trx, tenant, campaign, run, contact) : 'none';
    });
    if (dialled === 'no_slot') return new Date(ctx.clock.now().getTime() + SLOT_WAIT_MS);
    // At the campaign's concurrency, the next call to end wakes the run.
    if (dialled === 'full') return null;
    if (dialled === 'none') return nextAttemptAt(ctx.db, run.id);
  }
}
