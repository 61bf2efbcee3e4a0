// The campaigns part of the Voice API contract (DECISIONS.md "Campaigns"): connections to the
// customer's system, campaigns, runs and their results. The MCP tools take their inputs from here too.
import { z } from 'zod';
import { IANAZone } from 'luxon';
import { CALLING_HOURS_BOUNDS, DAYS } from '../../pkg/campaigns/hours.js';
import { RUN_STATUSES } from '../../pkg/campaigns/state.js';
import { agentIdField, outcomesField, phone, questionsField, taskField } from './call-schemas.js';

const timestamp = z.string().meta({ description: 'RFC 3339' });
const ianaZone = z
  .string()
  .max(64)
  .refine((tz) => IANAZone.isValidZone(tz), 'must be an IANA time zone such as Europe/Berlin');
const clockTime = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be HH:mm (24-hour)');
const path = (fallback: string) =>
  z
    .string()
    .min(1)
    .max(500)
    .regex(/^\/[^\s?#]*$/, 'must be a path starting with /')
    .meta({ description: `Default ${fallback}` });
// An HTTP header name (RFC 9110 token).
const headerName = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/, 'must be an HTTP header name');
// Set on every request to the customer system: a sign-in header of that name would be lost or break the request.
const OWN_HEADERS = /^(host|content-length|content-type|transfer-encoding|connection|user-agent|x-voice-.*|webhook-.*)$/i;
const signInName = headerName.refine((name) => !OWN_HEADERS.test(name), 'is a header every request sets itself');

export const idParam = (what: string, prefix: string) => z.object({ id: z.string().meta({ description: `${what} id (${prefix}_…)` }) });

const connectionFields = {
  name: z.string().trim().min(1).max(100),
  base_url: z.string().min(1).max(2000).meta({
    description: 'https address of the customer system, on the public internet; no credentials (use sign_in_header), query or fragment',
  }),
  list_path: path('/campaign/list'),
  results_path: path('/campaign/results'),
  sign_in_header: z
    .object({
      name: signInName,
      value: z
        .string()
        .min(1)
        .max(4096)
        .regex(/^[\t\x20-\x7e\x80-\xff]*$/, 'must be a valid header value'),
    })
    .strict()
    .nullable()
    .meta({
      description: 'Sent with every request to the customer system; the value is encrypted at rest and never returned. null removes it',
    }),
};

export const createConnectionBody = z
  .object({
    ...connectionFields,
    list_path: connectionFields.list_path.optional(),
    results_path: connectionFields.results_path.optional(),
    sign_in_header: connectionFields.sign_in_header.optional(),
  })
  .strict()
  .meta({ id: 'CreateConnectionRequest' });

export const updateConnectionBody = z.object(connectionFields).partial().strict().meta({ id: 'UpdateConnectionRequest' });

export const connectionSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    base_url: z.string(),
    list_path: z.string(),
    results_path: z.string(),
    sign_in_header: z.object({ name: z.string(), value_set: z.literal(true) }).nullable(),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .meta({ id: 'Connection' });

export const connectionListSchema = z.object({ data: z.array(connectionSchema) }).meta({ id: 'ConnectionList' });

const callingHours = z
  .object({ start: clockTime, end: clockTime })
  .strict()
  .refine((h) => h.start < h.end, 'start must be before end')
  .refine(
    (h) => h.start >= CALLING_HOURS_BOUNDS.start && h.end <= CALLING_HOURS_BOUNDS.end,
    `must lie within ${CALLING_HOURS_BOUNDS.start}-${CALLING_HOURS_BOUNDS.end}`,
  );

const schedule = z
  .object({
    days: z
      .array(z.enum(DAYS))
      .min(1)
      .max(7)
      .refine((d) => new Set(d).size === d.length, 'days must not repeat'),
    start_time: clockTime,
    timezone: ianaZone,
  })
  .strict();

const campaignFields = {
  name: z.string().trim().min(1).max(100),
  agent_id: agentIdField(),
  connection_id: z.string().min(1).max(64),
  task: taskField(),
  greeting: z
    .string()
    .max(1000)
    .meta({ description: 'Said when the person answers; {{context.x}} placeholders, a missing value renders empty' }),
  questions: questionsField(),
  outcomes: outcomesField(),
  from: phone().meta({ description: "One of the account's numbers (GET /v1/numbers); default the account's default number" }),
  schedule: schedule
    .nullable()
    .meta({ description: 'Runs start at start_time on these days in this timezone; absent or null: only when started' }),
  timezone: ianaZone.meta({ description: "For people without one; default the account's" }),
  calling_hours: callingHours.meta({ description: "In each person's own timezone; default 09:00-20:00, within 08:00-21:00" }),
  max_attempts: z.int().min(1).max(10),
  retry_after_minutes: z.int().min(15).max(1440),
  concurrency: z.int().min(1).max(100),
  leave_voicemail: z.boolean().meta({ description: 'On the last attempt only' }),
};

export const createCampaignBody = z
  .object(campaignFields)
  .partial()
  .required({ name: true, connection_id: true })
  .strict()
  .meta({ id: 'CreateCampaignRequest' });

export const updateCampaignBody = z.object(campaignFields).partial().strict().meta({ id: 'UpdateCampaignRequest' });

export const campaignSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    agent_id: z.string(),
    connection_id: z.string(),
    task: z.string().nullable(),
    greeting: z.string().nullable(),
    questions: z.array(z.object({ key: z.string(), question: z.string() })),
    outcomes: z.array(z.string()).nullable(),
    from: z.string().nullable(),
    schedule: schedule.nullable(),
    timezone: z.string(),
    calling_hours: z.object({ start: z.string(), end: z.string() }),
    max_attempts: z.int(),
    retry_after_minutes: z.int(),
    concurrency: z.int(),
    leave_voicemail: z.boolean(),
    next_start_at: timestamp.nullable(),
    archived: z.boolean(),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .meta({ id: 'Campaign' });

export const campaignListSchema = z.object({ data: z.array(campaignSchema) }).meta({ id: 'CampaignList' });

export const startRunBody = z
  .object({
    test: z.boolean().optional().meta({ description: "A test run: only test_number is called, once, with the first contact's context" }),
    test_number: phone().optional(),
  })
  .strict()
  .refine((b) => !b.test || b.test_number !== undefined, { path: ['test_number'], message: 'is required for a test run' })
  .refine((b) => b.test || b.test_number === undefined, { path: ['test_number'], message: 'is only for a test run (test: true)' })
  .meta({ id: 'StartRunRequest' });

export const runSchema = z
  .object({
    id: z.string(),
    campaign_id: z.string(),
    test: z.boolean(),
    status: z.enum(RUN_STATUSES),
    started_at: timestamp,
    ended_at: timestamp.nullable(),
    error: z.string().nullable(),
    contacts: z.object({ total: z.int(), done: z.int(), no_answer: z.int(), skipped: z.int(), pending: z.int(), unfinished: z.int() }),
    outcomes: z.record(z.string(), z.int()),
    results_not_taken: z.int(),
  })
  .meta({ id: 'CampaignRun' });

export const runListSchema = z.object({ data: z.array(runSchema) }).meta({ id: 'CampaignRunList' });

export const resultsQuery = z
  .object({
    limit: z.coerce.number().int().min(1).max(100).default(50),
    cursor: z.string().max(200).optional().meta({ description: 'next_cursor of the page before' }),
  })
  .strict();

export const resultListSchema = z
  .object({
    data: z.array(z.record(z.string(), z.unknown()).meta({ description: 'A campaign result, as sent to the results path' })),
    next_cursor: z.string().nullable(),
  })
  .meta({ id: 'CampaignResultList' });

export const stopRunBody = z.object({}).strict().meta({ id: 'StopRunRequest' });
