// Campaign results and the run summary (voice spec "Campaign result", "Campaign run summary"),
// written to the outbox for the connection's results path with a stable id each: `contact_id` with
// `run.id` for a result, `run.id` for the summary. Fields that do not apply are omitted.
import type { Knex } from 'knex';
import type { Ctx } from '../context.js';
import { sha256 } from '../ids.js';
import type { CampaignRow } from '../store/campaigns/campaigns.js';
import { getConnection } from '../store/campaigns/connections.js';
import type { ContactRow } from '../store/campaigns/contacts.js';
import { RESULT_TYPE, SUMMARY_TYPE } from '../store/campaigns/deliveries.js';
import type { RunRow } from '../store/campaigns/runs.js';
import { enqueueEvent } from '../webhooks/outbox.js';

const present = (v: unknown): boolean =>
  v !== undefined && v !== null && v !== '' && !(typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length === 0);

export function campaignResult(campaign: CampaignRow, run: RunRow, contact: ContactRow): Record<string, unknown> {
  const r = contact.result ?? {};
  const optional = {
    skipped_reason: contact.skipped_reason,
    outcome: r.outcome,
    details: r.details,
    note: r.note,
    callback: r.callback,
    opt_out: r.opt_out || undefined,
    summary: r.summary,
  };
  return {
    event: RESULT_TYPE,
    campaign: { id: campaign.id, name: campaign.name },
    run: { id: run.id, test: run.test },
    contact_id: contact.contact_id,
    call_id: contact.call_id ?? '',
    attempts: contact.attempts,
    status: contact.status,
    ...Object.fromEntries(Object.entries(optional).filter(([, v]) => present(v))),
  };
}

export function runSummary(
  campaign: CampaignRow,
  run: RunRow,
  contacts: { total: number; done: number; no_answer: number; skipped: number; unfinished: number },
  outcomes: Record<string, number>,
  resultsNotTaken: number,
): Record<string, unknown> {
  const { unfinished, ...counted } = contacts;
  return {
    event: SUMMARY_TYPE,
    campaign: { id: campaign.id, name: campaign.name },
    run: {
      id: run.id,
      test: run.test,
      status: run.status,
      started_at: run.started_at.toISOString(),
      ended_at: run.ended_at?.toISOString() ?? null,
      ...(run.error ? { error: run.error } : {}),
    },
    contacts: run.status === 'stopped' ? { ...counted, unfinished } : counted,
    outcomes,
    results_not_taken: resultsNotTaken,
  };
}

/** The stable id of a person's result in a run. */
const resultId = (runId: string, contactId: string): string => `evt_${sha256(`${runId}\0${contactId}`).slice(0, 26)}`;

/** Write a result or the summary to the outbox inside `db`, for the results path of the campaign's connection. */
export async function enqueueToResults(
  ctx: Pick<Ctx, 'clock' | 'config'>,
  db: Knex,
  campaign: CampaignRow,
  run: RunRow,
  body: Record<string, unknown>,
): Promise<void> {
  const connection = await getConnection({ db }, campaign.tenant_id, campaign.connection_id);
  const id = body.event === RESULT_TYPE ? resultId(run.id, String(body.contact_id)) : run.id;
  await enqueueEvent(ctx, db, {
    tenantId: campaign.tenant_id,
    type: String(body.event),
    target: 'campaign',
    url: `${connection.base_url}${connection.results_path}`,
    orderingKey: id,
    data: body,
    campaign: { id, runId: run.id },
  });
}
