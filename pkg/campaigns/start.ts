// Starting a run: Run now, a test run, or a scheduled start. One active non-test run per campaign
// (a partial unique index); a test run may run beside it.
import type { Knex } from 'knex';
import type { Ctx } from '../context.js';
import { Conflict, Unprocessable } from '../errors.js';
import { prefixedId } from '../ids.js';
import type { CampaignRow } from '../store/campaigns/campaigns.js';
import { liveCampaign } from './campaigns.js';
import { insertRun, type RunRow } from '../store/campaigns/runs.js';
import type { Tenant } from '../store/tenants.js';
import { toE164 } from '../voice/numbers.js';
import { runTransition } from './state.js';

const UNIQUE_VIOLATION = '23505';

/** Insert a run of `campaign` inside `db`; 409 `run_active` when a non-test run is already active. */
export async function insertRunOf(
  ctx: Pick<Ctx, 'clock'>,
  db: Knex,
  campaign: CampaignRow,
  test: { number: string } | null,
): Promise<RunRow> {
  try {
    // A savepoint, so a refusal leaves the caller's transaction usable.
    return await db.transaction((trx) =>
      insertRun(trx, {
        id: prefixedId('run'),
        tenant_id: campaign.tenant_id,
        campaign_id: campaign.id,
        status: runTransition(null, 'start')!,
        test: test !== null,
        test_number: test?.number ?? null,
        started_at: ctx.clock.now(),
      }),
    );
  } catch (err) {
    if ((err as { code?: string }).code === UNIQUE_VIOLATION)
      throw new Conflict(`Campaign ${campaign.id} already has an active run`, 'run_active');
    throw err;
  }
}

/** POST /v1/campaigns/{id}/runs of the tenant's live campaign: `{}` runs now, `{test: true, test_number}` is a test run. */
export async function startRun(
  ctx: Ctx,
  tenant: Tenant,
  campaignId: string,
  body: { test?: boolean; test_number?: string },
): Promise<RunRow> {
  const campaign = await liveCampaign(ctx, tenant.id, campaignId);
  let test: { number: string } | null = null;
  if (body.test) {
    const number = toE164(body.test_number!, tenant.country);
    if (!number) throw new Unprocessable(`test_number: ${body.test_number} is not a valid phone number`, 'invalid_test_number');
    test = { number };
  }
  return insertRunOf(ctx, ctx.db, campaign, test);
}
