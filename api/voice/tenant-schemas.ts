// The tenant part of the Voice API contract (DECISIONS.md): API keys, settings, usage reports.
import { z } from 'zod';
import { DateTime } from 'luxon';
import { USAGE_GROUPS } from '../../pkg/metering/report.js';

const timestamp = z.string().meta({ description: 'RFC 3339' });

export const tenantParam = z.object({ account_id: z.string().meta({ description: "The account's id (tnt_…); any other answers 404" }) });
export const keyParam = tenantParam.extend({ key_id: z.string().meta({ description: 'API key id (key_…)' }) });

export const createKeyBody = z
  .object({ name: z.string().trim().min(1).max(100).meta({ description: 'A label for people, such as the system that uses the key' }) })
  .strict()
  .meta({ id: 'CreateApiKeyRequest' });

export const apiKeySchema = z
  .object({
    id: z.string(),
    name: z.string(),
    prefix: z.string().meta({ description: 'The first characters of the key, to recognise it' }),
    created_at: timestamp,
    last_used_at: timestamp.nullable().meta({ description: 'Updated at most once a minute' }),
    revoked: z.boolean(),
    revoked_at: timestamp.nullable(),
  })
  .meta({ id: 'ApiKey' });

export const apiKeyCreatedSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    prefix: z.string(),
    key: z.string().meta({ description: 'The key itself, shown only in this reply' }),
    created_at: timestamp,
  })
  .meta({ id: 'ApiKeyCreated' });

export const apiKeyListSchema = z.object({ data: z.array(apiKeySchema) }).meta({ id: 'ApiKeyList' });

export const settingsBody = z
  .object({
    events_url: z
      .string()
      .max(2000)
      .optional()
      .meta({ description: 'https address on the public internet that receives call.*, queue.* and ai.* events; "" clears it' }),
  })
  .strict()
  .meta({ id: 'AccountSettingsRequest' });

export const settingsSchema = z
  .object({
    account_id: z.string(),
    name: z.string(),
    events_url: z.string().nullable(),
    features: z.array(z.string()),
    max_concurrent_calls: z.int().meta({ description: 'Calls live at once; more answer 429 tenant_busy' }),
    requests_per_minute: z
      .int()
      .meta({ description: 'API requests a minute, per key and per connected app; more answer 429 rate_limited' }),
    calls_per_minute: z.int().meta({ description: 'Calls placed a minute, API and MCP together; more answer 429 rate_limited' }),
    max_concurrent_jobs: z.int().nullable().meta({ description: 'Agent jobs running at once; others wait their turn. null: no cap' }),
    max_calls_per_number_per_day: z.int().meta({
      description:
        'Outbound calls to one number in a rolling day (API, MCP and campaigns count); a campaign skips a number at it (outside_limits)',
    }),
    max_calls_per_number_per_week: z.int().meta({ description: 'The same over a rolling seven days' }),
    allowed_countries: z.array(z.string()).meta({
      description:
        "ISO 3166-1 alpha-2 codes outbound calls may go to (default: the account's country); a call elsewhere answers 422 country_not_allowed, a campaign skips the number (not_allowed)",
    }),
    default_agent_id: z.string().nullable().meta({ description: 'agt_ id of the agent placed calls use when they name none' }),
    country: z.string().meta({ description: 'ISO 3166-1 alpha-2: national-format numbers are read in it' }),
  })
  .meta({ id: 'AccountSettings' });

export const carrierSettingsSchema = z
  .object({
    carrier: z
      .enum(['twilio', 'telnyx', 'sim'])
      .meta({ description: "The network the account's calls go through: a real carrier, or the simulated one" }),
    source: z
      .enum(['account', 'deployment'])
      .meta({ description: "account: the account's own carrier account (set by an operator); deployment: the deployment's" }),
    account_sid: z
      .string()
      .nullable()
      .meta({ description: "The account's own carrier account SID (Twilio's AC…, Telnyx's account id); null with the deployment's" }),
    connection_id: z
      .string()
      .nullable()
      .meta({ description: "Telnyx: the account's own TeXML application calls are placed through; null otherwise" }),
    auth_token_set: z.boolean().meta({ description: 'Whether its own auth token (Telnyx: API key) is stored (sealed; never shown)' }),
  })
  .meta({ id: 'CarrierSettings' });

const day = z
  .string()
  .refine((v) => /^\d{4}-\d{2}-\d{2}$/.test(v) && DateTime.fromISO(v, { zone: 'utc' }).isValid, 'must be a date YYYY-MM-DD');

export const usageQuery = z
  .object({
    from: day.optional().meta({ description: 'First day included, YYYY-MM-DD (UTC); default 29 days before `to`' }),
    to: day.optional().meta({ description: 'Last day included, YYYY-MM-DD (UTC); default today' }),
    group_by: z
      .string()
      .optional()
      .transform((v, c) => {
        const groups = (v ?? '')
          .split(',')
          .map((g) => g.trim())
          .filter(Boolean);
        const unknown = groups.filter((g) => !(USAGE_GROUPS as readonly string[]).includes(g));
        if (unknown.length)
          c.addIssue({ code: 'custom', message: `unknown grouping ${unknown.join(', ')}; use ${USAGE_GROUPS.join(',')}` });
        if (new Set(groups).size !== groups.length) c.addIssue({ code: 'custom', message: 'a grouping is named twice' });
        return groups as (typeof USAGE_GROUPS)[number][];
      })
      .meta({
        description: `Comma-separated, any of ${USAGE_GROUPS.join(', ')}; rows come in this order of columns. None: one row of totals`,
      }),
  })
  .strict();

const usageRowSchema = z
  .object({
    key_id: z.string().optional(),
    app: z.string().nullable().optional().meta({ description: 'The connected app; null for requests that named none' }),
    channel: z.enum(['api', 'mcp']).optional(),
    day: z.string().optional(),
    requests: z.int().meta({ description: 'Authenticated requests made, including those over the limit' }),
    requests_over_limit: z.int().meta({ description: 'Requests refused with 429 rate_limited' }),
    calls_placed: z.int(),
  })
  .meta({ id: 'UsageRow' });

export const usageReportSchema = z
  .object({
    from: z.string(),
    to: z.string(),
    group_by: z.array(z.enum(USAGE_GROUPS)),
    data: z.array(usageRowSchema),
  })
  .meta({ id: 'UsageReport' });
