// Campaign rows: what to call people about, with which agent, through which connection, and when.
import type { Ctx } from '../../context.js';
import { NotFound } from '../../errors.js';

export interface CampaignRow {
  id: string;
  tenant_id: string;
  name: string;
  agent_id: string;
  connection_id: string;
  task: string | null;
  greeting: string | null;
  questions: { key: string; question: string }[];
  outcomes: string[] | null;
  from_number: string | null;
  /** Day names and a local start time in its zone, as pkg/campaigns/hours.ts reads them. */
  schedule: { days: readonly string[]; start_time: string; timezone: string } | null;
  timezone: string;
  /** Local wall-clock times, HH:MM. */
  calling_hours: { start: string; end: string };
  max_attempts: number;
  retry_after_minutes: number;
  concurrency: number;
  leave_voicemail: boolean;
  next_start_at: Date | null;
  archived_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

const JSON_COLUMNS = ['questions', 'outcomes', 'schedule', 'calling_hours'] as const;

function encode(patch: Partial<CampaignRow>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...patch };
  for (const key of JSON_COLUMNS) if (out[key] !== undefined && out[key] !== null) out[key] = JSON.stringify(out[key]);
  return out;
}

export async function insertCampaign(ctx: Pick<Ctx, 'db'>, row: CampaignRow): Promise<CampaignRow> {
  const [inserted] = await ctx.db('campaigns').insert(encode(row)).returning('*');
  return inserted;
}

/** A campaign of the tenant, archived ones included (their runs stay readable). */
export async function getCampaign(ctx: Pick<Ctx, 'db'>, tenantId: string, id: string): Promise<CampaignRow> {
  const row = await ctx.db('campaigns').where({ id, tenant_id: tenantId }).first();
  if (!row) throw new NotFound(`No campaign ${id} on this account`);
  return row;
}

export const campaignById = (ctx: Pick<Ctx, 'db'>, id: string): Promise<CampaignRow> => ctx.db('campaigns').where({ id }).first();

export const listCampaigns = (ctx: Pick<Ctx, 'db'>, tenantId: string): Promise<CampaignRow[]> =>
  ctx.db('campaigns').where({ tenant_id: tenantId }).whereNull('archived_at').orderBy('created_at');

export async function updateCampaignRow(ctx: Pick<Ctx, 'db'>, id: string, patch: Partial<CampaignRow>): Promise<CampaignRow> {
  const [row] = await ctx.db('campaigns').where({ id }).update(encode(patch)).returning('*');
  return row;
}
