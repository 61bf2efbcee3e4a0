// The calls part of the Voice API contract (DECISIONS.md): request bodies, queries and replies.
// The MCP tools take their inputs from the same schemas.
import { z } from 'zod';
import { CALL_STATUSES } from '../../pkg/store/calls/row.js';
import { TTS_PROVIDERS } from '../../pkg/voice/voices.js';
import type { PlaceCallInput } from '../../pkg/voice/place.js';
import { parseVoice } from './parse.js';

/** A JSON object whose serialized form is at most `bytes` long. */
const sizedObject = (bytes: number) =>
  z
    .record(z.string(), z.unknown())
    .refine((v) => Buffer.byteLength(JSON.stringify(v)) <= bytes, `must be at most ${bytes / 1024} KB as JSON`);

// Fields other bodies share are made fresh for each use: one instance in two places would become a
// shared component of the OpenAPI document.
export const phone = () =>
  z.string().min(1).max(64).meta({ description: "E.164 (+14155550100), or national format read in the account's country" });
export const agentIdField = () =>
  z.string().min(1).max(64).meta({ description: "agt_ id; default the account's default voice agent, else its first agent" });
export const taskField = () => z.string().min(1).max(8000).meta({ description: 'The brief for the agent' });
export const questionsField = () =>
  z
    .array(z.object({ key: z.string().min(1).max(64), question: z.string().min(1).max(1000) }).strict())
    .max(20)
    .refine((qs) => new Set(qs.map((q) => q.key)).size === qs.length, 'question keys must be unique')
    .meta({ description: 'Answers come back in result.answers under each key' });
export const outcomesField = () =>
  z.array(z.string().min(1).max(64)).min(1).max(20).meta({ description: "Allowed outcome names; default the agent's list" });

export const placeCallBody = z
  .object({
    to: phone(),
    from: phone().optional().meta({ description: "One of the account's numbers (GET /v1/numbers); default the account's default number" }),
    agent_id: agentIdField().optional(),
    task: taskField().optional(),
    context: sizedObject(8 * 1024)
      .optional()
      .meta({ description: 'Facts the agent may use (at most 8 KB)' }),
    questions: questionsField().optional(),
    outcomes: outcomesField().optional(),
    voice: z.string().min(1).max(64).optional().meta({
      description: "A voice id from GET /v1/voices (422 invalid_voice otherwise); default the agent's voice, else the deployment's default",
    }),
    max_duration_sec: z.int().min(30).max(3600).default(600),
    callback_url: z
      .string()
      .min(1)
      .max(2048)
      .optional()
      .meta({ description: 'https address on the public internet; receives call.result once, when final' }),
    metadata: sizedObject(16 * 1024)
      .optional()
      .meta({ description: 'Echoed back (at most 16 KB)' }),
  })
  .strict()
  .meta({ id: 'PlaceCallRequest' });

export const parsePlaceCall = (body: unknown): PlaceCallInput => parseVoice(placeCallBody, body, 'call');

export { IDEMPOTENCY_KEY_MAX } from '../../pkg/voice/place.js';

export const steerBody = z
  .object({
    instruction: z.string().min(1).max(2000).optional().meta({ description: "Joins the agent's context before its next turn" }),
    say: z.string().min(1).max(1000).optional().meta({ description: 'Spoken next' }),
  })
  .strict()
  .refine((v) => v.instruction !== undefined || v.say !== undefined, 'give instruction or say')
  .meta({ id: 'SteerCallRequest' });

/** Hanging up takes no fields: no body, an empty one or `{}` (DECISIONS.md "Action endpoints and their body"). */
export const hangupBody = z.object({}).strict().meta({ id: 'HangupCallRequest' });

export const parseSteer = (body: unknown): z.output<typeof steerBody> => parseVoice(steerBody, body, 'steer');

export const resultQuery = z
  .object({
    wait: z.coerce
      .number()
      .int()
      .min(1)
      .max(60)
      .optional()
      .meta({ description: 'Seconds (1-60) to hold the request until the result is final' }),
  })
  .strict();

const timestamp = z.iso.datetime({ offset: true }).transform((s) => new Date(s));

export const listCallsQuery = z
  .object({
    status: z.enum(CALL_STATUSES).optional(),
    direction: z.enum(['outbound', 'inbound']).optional(),
    to: z.string().min(1).max(64).optional(),
    from: z.string().min(1).max(64).optional(),
    created_after: timestamp.optional(),
    created_before: timestamp.optional(),
    limit: z.coerce.number().int().min(1).max(100).default(20),
    cursor: z.string().max(64).optional(),
  })
  .strict();

// Strict (a reply has no other field), so the call of a reply and of a webhook body is one schema.
export const callRecordSchema = z
  .strictObject({
    id: z.string(),
    tenant_id: z.string(),
    direction: z.enum(['outbound', 'inbound']),
    from: z.string(),
    to: z.string(),
    status: z.enum(CALL_STATUSES),
    duration_sec: z.int(),
    created_at: z.string(),
    answered_at: z.string().nullable(),
    ended_at: z.string().nullable(),
    hangup_cause: z.string().nullable(),
    handler: z.string().nullable(),
    ai: z.strictObject({ agent_id: z.string() }).nullable(),
    queue: z
      .strictObject({ id: z.string(), name: z.string(), position: z.int(), entered_at: z.string() })
      .nullable()
      .meta({ description: 'The queue an inbound caller waits in, while it waits' }),
    max_duration_sec: z.int(),
    metadata: z.record(z.string(), z.unknown()),
    campaign: z
      .strictObject({ id: z.string(), run_id: z.string(), contact_id: z.string() })
      .optional()
      .meta({ description: 'Present on calls of a campaign run' }),
  })
  .meta({ id: 'Call' });

export const callResultSchema = z
  .strictObject({
    call_id: z.string(),
    status: z.enum(CALL_STATUSES),
    final: z.boolean(),
    from: z.string(),
    to: z.string(),
    duration_sec: z.int(),
    outcome: z.string(),
    result: z.strictObject({ outcome: z.string(), answers: z.record(z.string(), z.unknown()), note: z.string() }).nullable(),
    summary: z.string(),
    transcript: z.array(z.strictObject({ speaker: z.enum(['agent', 'caller']), text: z.string() })),
    metadata: z.record(z.string(), z.unknown()),
  })
  .meta({ id: 'CallResult' });

export const callListSchema = z.object({ data: z.array(callRecordSchema), next_cursor: z.string().nullable() }).meta({ id: 'CallList' });

export const steerAcceptedSchema = z.object({ call_id: z.string(), accepted: z.literal(true) }).meta({ id: 'SteerAccepted' });

export const voiceListSchema = z
  .object({
    data: z
      .array(
        z.object({
          id: z.string().meta({ description: "What a call's voice, an ai routing step's voice or an agent's voice names" }),
          name: z.string(),
          language: z.string().meta({ description: 'The language tag the voice speaks (en-US): the relay session starts in it' }),
          gender: z.enum(['female', 'male', 'neutral']),
          provider: z.enum(TTS_PROVIDERS).meta({ description: "The text-to-speech provider, as ConversationRelay's ttsProvider names it" }),
        }),
      )
      .meta({ description: "The deployment's voice catalogue (SWITCHBOARD_VOICES)" }),
  })
  .meta({ id: 'VoiceList' });
