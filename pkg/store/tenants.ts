// Tenants: settings, features, billing.
import { IANAZone } from 'luxon';
import { isSupportedCountry } from 'libphonenumber-js';
import { z } from 'zod';
import type { Ctx } from '../context.js';
import { isUuid, parseAgentRef, prefixedId } from '../ids.js';
import { Forbidden, NotFound, type FieldIssue } from '../errors.js';
import { invalid, parseInput } from '../validate.js';
import { destinationProblem } from '../outbound/guard.js';
import { CHANNELS, notifyIdColumn } from '../db/notify.js';

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

const tenantName = z.string().trim().min(1).max(200);
// A customer-side receiver; '' clears it. Whether the host is public is judged with the config (receiverIssues).
export const receiverUrl = z
  .string()
  .trim()
  .max(2000)
  .transform((v) => (v === '' ? null : v));

const countryCode = z
  .string()
  .trim()
  .toUpperCase()
  .refine((c) => isSupportedCountry(c), 'must be an ISO 3166-1 alpha-2 country code with a telephone numbering plan, such as US or DE');

const tenantSettingsSchema = z
  .object({
    name: tenantName.optional(),
    timezone: z
      .string()
      .refine((tz) => IANAZone.isValidZone(tz), 'must be an IANA time zone such as Europe/Berlin')
      .optional(),
    features: z
      .array(z.enum(FEATURES))
      .transform((f) => [...new Set(f)])
      .optional(),
    maxPendingJobs: z.int32().min(1).optional(),
    // null: no cap.
    maxConcurrentJobs: z.int32().min(1).nullable().optional(),
    // numeric(20, 6) in the table.
    minCredits: z.number().min(0).max(1e12).optional(),
    billing: z.enum(['prepaid', 'payg']).optional(),
    requestsPerMinute: z.int32().min(1).optional(),
    callsPerMinute: z.int32().min(1).optional(),
    // null: back to the company's own country.
    allowedCountries: z
      .array(countryCode)
      .min(1)
      .max(250)
      .transform((c) => [...new Set(c)])
      .nullable()
      .optional(),
    maxCallsPerNumberPerDay: z.int32().min(1).optional(),
    maxCallsPerNumberPerWeek: z.int32().min(1).optional(),
    eventsUrl: receiverUrl.optional(),
    messageWebhookUrl: receiverUrl.optional(),
    maxConcurrentCalls: z.int32().min(1).optional(),
    // The agent answering placed calls that name none: an agent UUID or agt_ id of this tenant; '' clears.
    defaultAgentId: z
      .string()
      .trim()
      .transform((v, c) => {
        if (v === '') return null;
        const id = isUuid(v) ? v.toLowerCase() : parseAgentRef(v);
        if (!id) c.addIssue({ code: 'custom', message: 'must be an agent id (UUID or agt_…)' });
        return id ?? z.NEVER;
      })
      .optional(),
    country: countryCode.optional(),
  })
  .strict();
// Receivers and the default agent are set on an existing tenant (they need its config and agents).
const newTenantSchema = tenantSettingsSchema
  .omit({ eventsUrl: true, messageWebhookUrl: true, defaultAgentId: true })
  .extend({ name: tenantName });

export type TenantSettings = z.input<typeof tenantSettingsSchema>;

type Row = Record<string, any>;

export const toTenant = (r: Row): Tenant => ({
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

const columns = (s: z.output<typeof tenantSettingsSchema>): Row => {
  const out: Row = {};
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

/** Receivers, by field, that are not https on the public internet (or allowed, by the outbound rules). */
export function receiverIssues(config: Ctx['config'], urls: Record<string, string | null | undefined>): FieldIssue[] {
  return Object.entries(urls).flatMap(([path, url]) => {
    const problem = url ? destinationProblem(url, config) : null;
    return problem ? [{ path, message: problem }] : [];
  });
}

/** Receivers must be allowed destinations; the default agent must be the tenant's. */
async function checkReferences(ctx: Pick<Ctx, 'db' | 'config'>, tenantId: string, s: z.output<typeof tenantSettingsSchema>): Promise<void> {
  const issues = receiverIssues(ctx.config, { eventsUrl: s.eventsUrl, messageWebhookUrl: s.messageWebhookUrl });
  if (s.defaultAgentId && !(await ctx.db('agents').where({ id: s.defaultAgentId, tenant_id: tenantId }).first())) {
    issues.push({ path: 'defaultAgentId', message: 'no such agent in this company' });
  }
  if (issues.length) throw invalid('tenant settings', issues);
}

export async function createTenant(ctx: Pick<Ctx, 'db' | 'clock'>, s: TenantSettings & { name: string }): Promise<Tenant> {
  const settings = parseInput(newTenantSchema, s, 'tenant settings');
  const now = ctx.clock.now();
  const [row] = await ctx.db('tenants')
    .insert({ id: prefixedId('tnt'), ...columns(settings), created_at: now, updated_at: now })
    .returning('*');
  return toTenant(row);
}

export async function updateTenant(ctx: Pick<Ctx, 'db' | 'clock' | 'config'>, id: string, s: TenantSettings): Promise<Tenant> {
  const settings = parseInput(tenantSettingsSchema, s, 'tenant settings');
  await checkReferences(ctx, id, settings);
  // A new billing mode or timezone moves the company's months to invoice: the invoices controller looks again.
  const invoicing = settings.billing !== undefined || settings.timezone !== undefined;
  const [row] = await ctx.db('tenants')
    .where({ id })
    .update({ ...columns(settings), updated_at: ctx.clock.now() })
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
