// Campaigns (DECISIONS.md "Campaign"): their references checked (agent, connection, caller id),
// defaults applied, the next scheduled start kept; DELETE archives, refused while a run is active.
import type { Ctx } from '../context.js';
import { Conflict, NotFound, Unprocessable } from '../errors.js';
import { agentRef, prefixedId } from '../ids.js';
import { getConnection } from '../store/campaigns/connections.js';
import { getCampaign, insertCampaign, updateCampaignRow, type CampaignRow } from '../store/campaigns/campaigns.js';
import { activeRunOf } from '../store/campaigns/runs.js';
import { requireFeature, type Tenant } from '../store/tenants.js';
import { agentFor, callerId } from '../voice/place.js';
import { DEFAULT_CALLING_HOURS, nextScheduledStart, type CallingHours, type Schedule } from './hours.js';

export interface CampaignInput {
  name?: string;
  agent_id?: string;
  connection_id?: string;
  task?: string;
  greeting?: string;
  questions?: { key: string; question: string }[];
  outcomes?: string[];
  from?: string;
  schedule?: Schedule | null;
  timezone?: string;
  calling_hours?: CallingHours;
  max_attempts?: number;
  retry_after_minutes?: number;
  concurrency?: number;
  leave_voicemail?: boolean;
}

const DEFAULTS = { max_attempts: 3, retry_after_minutes: 120, concurrency: 5, leave_voicemail: true } as const;

export function campaignView(c: CampaignRow) {
  return {
    id: c.id,
    name: c.name,
    agent_id: agentRef(c.agent_id),
    connection_id: c.connection_id,
    task: c.task,
    greeting: c.greeting,
    questions: c.questions,
    outcomes: c.outcomes,
    from: c.from_number,
    schedule: c.schedule,
    timezone: c.timezone,
    calling_hours: c.calling_hours,
    max_attempts: c.max_attempts,
    retry_after_minutes: c.retry_after_minutes,
    concurrency: c.concurrency,
    leave_voicemail: c.leave_voicemail,
    next_start_at: c.next_start_at?.toISOString() ?? null,
    archived: c.archived_at !== null,
    created_at: c.created_at.toISOString(),
    updated_at: c.updated_at.toISOString(),
  };
}

/** The columns of `input`, its references checked: 422 `invalid_<field>` for one that is not the account's. */
async function columnsOf(ctx: Ctx, tenant: Tenant, input: CampaignInput): Promise<Partial<CampaignRow>> {
  const out: Partial<CampaignRow> = {};
  if (input.agent_id !== undefined) out.agent_id = await agentFor(ctx, tenant, input.agent_id);
  if (input.connection_id !== undefined) {
    await getConnection(ctx, tenant.id, input.connection_id).catch((err) => {
      throw err instanceof NotFound
        ? new Unprocessable(`connection_id ${input.connection_id} is not a connection of this account`, 'invalid_connection_id')
        : err;
    });
    out.connection_id = input.connection_id;
  }
  // As POST /v1/calls: one of the account's numbers, never anyone else's caller id.
  if (input.from !== undefined) out.from_number = await callerId(ctx, tenant, input.from);
  if (input.schedule !== undefined) {
    out.schedule = input.schedule;
    out.next_start_at = input.schedule ? nextScheduledStart(input.schedule, ctx.clock.now()) : null;
  }
  const plain = [
    'name',
    'task',
    'greeting',
    'questions',
    'outcomes',
    'timezone',
    'calling_hours',
    'max_attempts',
    'retry_after_minutes',
    'concurrency',
    'leave_voicemail',
  ] as const;
  for (const key of plain) if (input[key] !== undefined) (out as Record<string, unknown>)[key] = input[key];
  return out;
}

export async function createCampaign(
  ctx: Ctx,
  tenant: Tenant,
  input: CampaignInput & { name: string; connection_id: string },
): Promise<CampaignRow> {
  const now = ctx.clock.now();
  return insertCampaign(ctx, {
    id: prefixedId('cmp'),
    tenant_id: tenant.id,
    agent_id: await agentFor(ctx, tenant, undefined),
    task: null,
    greeting: null,
    questions: [],
    outcomes: null,
    from_number: null,
    schedule: null,
    next_start_at: null,
    timezone: tenant.timezone,
    calling_hours: DEFAULT_CALLING_HOURS,
    ...DEFAULTS,
    ...((await columnsOf(ctx, tenant, input)) as Pick<CampaignRow, 'name' | 'connection_id'>),
    archived_at: null,
    created_at: now,
    updated_at: now,
  });
}

/** A live (not archived) campaign of the tenant. */
export async function liveCampaign(ctx: Pick<Ctx, 'db'>, tenantId: string, id: string): Promise<CampaignRow> {
  const campaign = await getCampaign(ctx, tenantId, id);
  if (campaign.archived_at) throw new NotFound(`Campaign ${id} is archived`);
  return campaign;
}

export async function updateCampaign(ctx: Ctx, tenant: Tenant, id: string, input: CampaignInput): Promise<CampaignRow> {
  await liveCampaign(ctx, tenant.id, id);
  return updateCampaignRow(ctx, id, { ...(await columnsOf(ctx, tenant, input)), updated_at: ctx.clock.now() });
}

/** DELETE archives: no more scheduled starts; 409 `run_active` while a run is active. */
export async function archiveCampaign(ctx: Ctx, tenantId: string, id: string): Promise<CampaignRow> {
  await liveCampaign(ctx, tenantId, id);
  if (await activeRunOf(ctx, id)) throw new Conflict(`Campaign ${id} has an active run; stop it first`, 'run_active');
  return updateCampaignRow(ctx, id, { archived_at: ctx.clock.now(), next_start_at: null, updated_at: ctx.clock.now() });
}

/** Campaigns need both features (403 `module_off` naming the one missing). */
export function requireCampaignFeatures(tenant: Tenant): void {
  requireFeature(tenant, 'campaigns');
  requireFeature(tenant, 'ai_agents');
}
