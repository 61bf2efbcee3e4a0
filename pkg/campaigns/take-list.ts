// The run's first step: the list is requested once, read, and becomes the run's people (skipped ones
// reported at once); a list that cannot be taken fails the run with nobody called.
import type { Ctx } from '../context.js';
import { campaignById, type CampaignRow } from '../store/campaigns/campaigns.js';
import { getConnection } from '../store/campaigns/connections.js';
import { contactsOf, insertContacts, type NewContact } from '../store/campaigns/contacts.js';
import { contactPolicyOf, doNotCallAmong, numbersAtLimit } from '../store/campaigns/number-checks.js';
import { transitionRun, updateRun, type RunRow } from '../store/campaigns/runs.js';
import { listNumbers } from '../store/phone-numbers.js';
import { getTenant, type Tenant } from '../store/tenants.js';
import { finishContact } from './finish-contact.js';
import { callableFrom, callingWindow, type Window } from './hours.js';
import { readEntries, type Entry } from './list-entries.js';
import { ListFailure, requestList } from './list-request.js';
import { runMove, type SkipReason } from './state.js';
import { sendSummary } from './summary.js';

type RunCtx = Ctx;

/** Fail a run whose list could not be taken: nobody is called, the summary says total 0. */
export async function failRun(ctx: RunCtx, run: RunRow, error: string): Promise<null> {
  const campaign = await campaignById(ctx, run.campaign_id);
  await ctx.db.transaction(async (trx) => {
    const failed = await transitionRun({ db: trx }, run.id, runMove('list_failed'), { error, ended_at: ctx.clock.now() });
    if (failed) await sendSummary(ctx, trx, campaign, failed);
  });
  ctx.log.warn({ runId: run.id, campaignId: campaign.id, error }, 'campaign run failed: the list could not be taken');
  return null;
}

function person(e: Entry, skip: SkipReason | null, window: Window | null, dueAt: Date): NewContact {
  return {
    contact_id: e.contact_id,
    position: e.position,
    name: e.name,
    phone: e.phone,
    timezone: e.timezone,
    context: e.context,
    window_start: window?.start ?? null,
    window_end: window?.end ?? null,
    status: 'pending',
    skipped_reason: skip,
    next_attempt_at: dueAt,
    finished_at: null,
  };
}

/** A test run's one person: the typed number, once, with the first contact's id and context. */
async function testPerson(ctx: RunCtx, tenant: Tenant, campaign: CampaignRow, run: RunRow, entries: Entry[]): Promise<NewContact[]> {
  const first = entries[0];
  const number = run.test_number!;
  const entry: Entry = {
    contact_id: first?.contact_id ?? 'test',
    position: 0,
    name: first?.name ?? null,
    phone: number,
    timezone: first?.timezone ?? campaign.timezone,
    context: first?.context ?? {},
    skip: null,
  };
  const dnc = await doNotCallAmong(ctx, tenant.id, [number]);
  return [person(entry, dnc.has(number) ? 'do_not_call' : null, null, ctx.clock.now())];
}

/** The run's people: each entry checked against the do-not-call list, the contact limits and their calling hours. */
async function peopleOf(ctx: RunCtx, tenant: Tenant, campaign: CampaignRow, run: RunRow, raw: unknown[]): Promise<NewContact[]> {
  const policy = await contactPolicyOf(ctx, tenant.id);
  const ownNumbers = [ctx.config.SWITCHBOARD_CALLER_ID, ...(await listNumbers(ctx, tenant.id)).map((n) => n.number)];
  const entries = readEntries(raw, { country: tenant.country, defaultZone: campaign.timezone, policy, ownNumbers });
  if (run.test) return testPerson(ctx, tenant, campaign, run, entries);
  const numbers = entries.filter((e) => !e.skip).map((e) => e.phone!);
  const dnc = await doNotCallAmong(ctx, tenant.id, numbers);
  const now = ctx.clock.now();
  const atLimit = await numbersAtLimit(ctx, tenant.id, numbers, policy, now);
  return entries.map((e) => {
    const window = callingWindow(campaign.calling_hours, e.timezone, run.started_at);
    const dueAt = callableFrom(window, now);
    const skip: SkipReason | null =
      e.skip ?? (dnc.has(e.phone!) ? 'do_not_call' : atLimit.has(e.phone!) ? 'outside_limits' : dueAt ? null : 'outside_hours');
    return person(e, skip, window, dueAt ?? now);
  });
}

/** Request and read the list; returns when the run is next due (null when it failed). */
export async function takeList(ctx: RunCtx, run: RunRow): Promise<Date | null> {
  const campaign = await campaignById(ctx, run.campaign_id);
  const tenant = await getTenant(ctx, run.tenant_id);
  // Marked before asking: a controller lost during the request leaves this set, and the run then
  // fails instead of asking again (the list request is never repeated).
  await updateRun(ctx.db, run.id, { list_requested_at: ctx.clock.now() });
  let raw: unknown[];
  try {
    raw = await requestList(ctx, campaign, await getConnection(ctx, tenant.id, campaign.connection_id), run);
  } catch (err) {
    if (err instanceof ListFailure) return failRun(ctx, run, err.message);
    throw err;
  }
  const people = await peopleOf(ctx, tenant, campaign, run, raw);
  await ctx.db.transaction(async (trx) => {
    const current = (await trx('campaign_runs').where({ id: run.id }).forUpdate().first()) as RunRow;
    // Stopped while the list was on its way: its people are unfinished, and get no result.
    const stopped = current.status !== 'running';
    await insertContacts(
      trx,
      run.id,
      people.map((p) => (stopped ? { ...p, status: 'unfinished', next_attempt_at: null } : p)),
    );
    await updateRun(trx, run.id, { listed_at: ctx.clock.now() });
    if (stopped) return;
    for (const contact of await contactsOf(trx, run.id, 'pending')) {
      if (contact.skipped_reason)
        await finishContact(ctx, trx, campaign, current, contact, { status: 'skipped', skipped_reason: contact.skipped_reason });
    }
  });
  return ctx.clock.now();
}
