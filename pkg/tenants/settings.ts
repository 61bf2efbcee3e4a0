// A company's settings as the operator, the console and the Voice API change them: the form checked
// first, then, in a second pass naming every problem, the receivers (allowed destinations) and the
// default agent (the company's own); only then stored.
import { IANAZone } from 'luxon';
import { isSupportedCountry } from 'libphonenumber-js';
import { z } from 'zod';
import type { Ctx } from '../context.js';
import type { FieldIssue } from '../errors.js';
import { isUuid, parseAgentRef } from '../ids.js';
import { destinationProblem } from '../outbound/guard.js';
import { isAgentOf } from '../store/agents.js';
import { FEATURES, insertTenant, updateTenantRow, type Tenant } from '../store/tenants.js';
import { invalid, parseInput } from '../validate.js';

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
  if (s.defaultAgentId && !(await isAgentOf(ctx, tenantId, s.defaultAgentId))) {
    issues.push({ path: 'defaultAgentId', message: 'no such agent in this company' });
  }
  if (issues.length) throw invalid('tenant settings', issues);
}

export async function createTenant(ctx: Pick<Ctx, 'db' | 'clock'>, s: TenantSettings & { name: string }): Promise<Tenant> {
  return insertTenant(ctx, parseInput(newTenantSchema, s, 'tenant settings'));
}

export async function updateTenant(ctx: Pick<Ctx, 'db' | 'clock' | 'config'>, id: string, s: TenantSettings): Promise<Tenant> {
  const settings = parseInput(tenantSettingsSchema, s, 'tenant settings');
  await checkReferences(ctx, id, settings);
  return updateTenantRow(ctx, id, settings);
}
