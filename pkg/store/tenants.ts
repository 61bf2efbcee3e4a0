// Tenant rows: settings, features, billing, as stored (pkg/tenants/settings.ts checks changes first).
import type { Ctx } from '../context.js';
import { prefixedId } from '../ids.js';
import { Forbidden, NotFound } from '../errors.js';
import { CHANNELS, notifyIdColumn } from '../db/notify.js';
import type { DbRow } from '../db/index.js';

/** company_memory: the Agent API's company memory; voice_api: calls through the API and MCP;
 * ai_agents and campaigns: campaigns driven from the customer's system. */
export const FEATURES = ['company_memory', 'voice_api', 'ai_agents', 'campaigns'] as const;
type Feature = (typeof FEATURES)[number];

export interface Tenant {
  id: string;
  name: string;
  timezone: string;
  features: string[];
  maxPendingJobs: number;
  /** Jobs of the account running at once, across replicas; null: no cap. */
  maxConcurrentJobs: number | null;
  minCredits: number;
  billing: 'prepaid' | 'payg';
  requestsPerMinute: number;
  /** Calls placed a minute through the API and MCP together. */
  callsPerMinute: number;
  /** Where outbound calls may go (ISO 3166 codes); null: the company's own country. */
  allowedCountries: string[] | null;
  /** Outbound calls to one number in a rolling day and week, counted across API, MCP and campaigns; campaigns skip a number at either. */
  maxCallsPerNumberPerDay: number;
  maxCallsPerNumberPerWeek: number;
  /** Voice: where call events go (https, public), the message webhook, the call cap and defaults. */
  eventsUrl: string | null;
  messageWebhookUrl: string | null;
  maxConcurrentCalls: number;
  defaultAgentId: string | null;
  /** ISO 3166 country for reading national-format numbers. */
  country: string;
  createdAt: string;
  updatedAt: string;
}

/** Settings as stored, each written only when given; checked first (pkg/tenants/settings.ts). */
export type TenantValues = Partial<Omit<Tenant, 'id' | 'createdAt' | 'updatedAt'>>;

export const toTenant = (r: DbRow): Tenant => ({
  id: r.id,
  name: r.name,
  timezone: r.timezone,
  features: r.features,
  maxPendingJobs: r.max_pending_jobs,
  maxConcurrentJobs: r.max_concurrent_jobs,
  minCredits: Number(r.min_credits),
  billing: r.billing,
  requestsPerMinute: r.requests_per_minute,
  callsPerMinute: r.calls_per_minute,
  allowedCountries: r.allowed_countries,
  maxCallsPerNumberPerDay: r.max_calls_per_number_per_day,
  maxCallsPerNumberPerWeek: r.max_calls_per_number_per_week,
  eventsUrl: r.events_url,
  messageWebhookUrl: r.message_webhook_url,
  maxConcurrentCalls: r.max_concurrent_calls,
  defaultAgentId: r.default_agent_id,
  country: r.country,
  createdAt: r.created_at.toISOString(),
  updatedAt: r.updated_at.toISOString(),
});

const columns = (s: TenantValues): DbRow => {
  const out: DbRow = {};
  if (s.name !== undefined) out.name = s.name;
  if (s.timezone !== undefined) out.timezone = s.timezone;
  if (s.features !== undefined) out.features = s.features;
  if (s.maxPendingJobs !== undefined) out.max_pending_jobs = s.maxPendingJobs;
  if (s.maxConcurrentJobs !== undefined) out.max_concurrent_jobs = s.maxConcurrentJobs;
  if (s.minCredits !== undefined) out.min_credits = s.minCredits;
  if (s.billing !== undefined) out.billing = s.billing;
  if (s.requestsPerMinute !== undefined) out.requests_per_minute = s.requestsPerMinute;
  if (s.callsPerMinute !== undefined) out.calls_per_minute = s.callsPerMinute;
  if (s.allowedCountries !== undefined) out.allowed_countries = s.allowedCountries;
  if (s.maxCallsPerNumberPerDay !== undefined) out.max_calls_per_number_per_day = s.maxCallsPerNumberPerDay;
  if (s.maxCallsPerNumberPerWeek !== undefined) out.max_calls_per_number_per_week = s.maxCallsPerNumberPerWeek;
  if (s.eventsUrl !== undefined) out.events_url = s.eventsUrl;
  if (s.messageWebhookUrl !== undefined) out.message_webhook_url = s.messageWebhookUrl;
  if (s.maxConcurrentCalls !== undefined) out.max_concurrent_calls = s.maxConcurrentCalls;
  if (s.defaultAgentId !== undefined) out.default_agent_id = s.defaultAgentId;
  if (s.country !== undefined) out.country = s.country;
  return out;
};

export async function insertTenant(ctx: Pick<Ctx, 'db' | 'clock'>, values: TenantValues & { name: string }): Promise<Tenant> {
  const now = ctx.clock.now();
  const [row] = await ctx
    .db('tenants')
    .insert({ id: prefixedId('tnt'), ...columns(values), created_at: now, updated_at: now })
    .returning('*');
  return toTenant(row);
}

export async function updateTenantRow(ctx: Pick<Ctx, 'db' | 'clock'>, id: string, values: TenantValues): Promise<Tenant> {
  // A new billing mode or timezone moves the company's months to invoice: the invoices controller looks again.
  const invoicing = values.billing !== undefined || values.timezone !== undefined;
  const [row] = await ctx
    .db('tenants')
    .where({ id })
    .update({ ...columns(values), updated_at: ctx.clock.now() })
    .returning(invoicing ? ['*', notifyIdColumn(ctx.db, CHANNELS.invoices)] : '*');
  if (!row) throw new NotFound(`Unknown tenant ${id}`);
  return toTenant(row);
}

export async function getTenant(ctx: Pick<Ctx, 'db'>, id: string): Promise<Tenant> {
  const row = await ctx.db('tenants').where({ id }).first();
  if (!row) throw new NotFound(`Unknown tenant ${id}`);
  return toTenant(row);
}

/** Where the company's outbound calls may go: its allowed countries, else its own. */
export const allowedCountriesOf = (t: Pick<Tenant, 'allowedCountries' | 'country'>): string[] => t.allowedCountries ?? [t.country];

export const hasFeature = (t: Tenant, f: Feature): boolean => t.features.includes(f);

/** 403 `module_off` naming the feature, where the tenant lacks it. */
export function requireFeature(t: Tenant, f: Feature): void {
  if (!hasFeature(t, f)) throw new Forbidden(`This account does not have the ${f} feature`, 'module_off');
}
