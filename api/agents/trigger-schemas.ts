// The autonomous-job half of the Agent API contract.
import { z } from 'zod';
import { contactHintsSchema } from '../../pkg/store/contacts.js';
import { customToolSchema } from '../../pkg/tools/custom-tools.js';
import { STATUSES } from '../../pkg/store/triggers/row.js';
import { MAX_DELAY_MINUTES } from '../../pkg/triggers/schedule.js';

const text = (max: number) => z.string().min(1).max(max);
const metadata = z.record(z.string(), z.unknown());
const delayMinutes = z.number().int().min(1).max(MAX_DELAY_MINUTES);
const runAt = z
  .string()
  .min(1)
  .max(64)
  .meta({ description: 'ISO 8601 with UTC or offset, or company-local YYYY-MM-DDTHH:mm; within 7 days' });

const exclusiveStart = (v: { delayMinutes?: number; runAt?: string }, ctx: z.RefinementCtx) => {
  if (v.delayMinutes !== undefined && v.runAt !== undefined) {
    ctx.addIssue({ code: 'custom', path: ['runAt'], message: 'delayMinutes and runAt are mutually exclusive' });
  }
};

export const createTriggerBody = z
  .object({
    agentId: z.uuid().optional(),
    conversationId: z.uuid().optional(),
    task: text(32000),
    successCriteria: text(8000).optional(),
    businessKeys: metadata.optional(),
    idempotencyKey: text(255).optional(),
    metadata: metadata.optional(),
    contactId: z.number().int().positive().optional(),
    contact: contactHintsSchema.optional(),
    customTools: z.array(customToolSchema).max(5).optional(),
    delayMinutes: delayMinutes.optional(),
    runAt: runAt.optional(),
  })
  .strict()
  .superRefine((v, ctx) => {
    if (!v.agentId && !v.conversationId) {
      ctx.addIssue({ code: 'custom', path: ['agentId'], message: 'agentId or conversationId is required' });
    }
    exclusiveStart(v, ctx);
  })
  .meta({ id: 'CreateTriggerRequest' });

const EVENT_TYPE = /^[A-Za-z0-9_.:-]{1,100}$/;

export const conversationTriggerBody = z
  .object({
    task: text(32000).optional(),
    message: text(8000).optional().meta({ description: 'Legacy alias of task' }),
    eventType: z.string().regex(EVENT_TYPE, '1-100 characters of [A-Za-z0-9_.:-]').optional(),
    successCriteria: text(8000).optional(),
    idempotencyKey: text(255).optional(),
    metadata: metadata.optional(),
    customTools: z.array(customToolSchema).max(5).optional(),
    delayMinutes: delayMinutes.optional(),
    runAt: runAt.optional(),
  })
  .strict()
  .superRefine((v, ctx) => {
    if (!v.task && !v.message && !v.eventType) {
      ctx.addIssue({ code: 'custom', path: ['task'], message: 'at least one of task, message or eventType is required' });
    }
    exclusiveStart(v, ctx);
  })
  .meta({ id: 'ConversationTriggerRequest' });

export const triggerAccepted = z
  .object({
    conversationId: z.uuid(),
    triggerId: z.uuid(),
    status: z.enum(STATUSES),
    nextRunAt: z.iso.datetime().optional(),
    idempotent: z.literal(true).optional(),
  })
  .meta({ id: 'TriggerAccepted' });

export const triggerObject = z
  .object({
    triggerId: z.uuid(),
    conversationId: z.uuid(),
    agentId: z.uuid(),
    status: z.enum(STATUSES),
    task: z.string(),
    successCriteria: z.string().nullable(),
    businessKeys: metadata,
    metadata,
    approvalId: z.string().nullable(),
    approvalUrl: z.string().nullable(),
    waitPayload: metadata.nullable(),
    resultSummary: z.string().nullable(),
    errorMessage: z.string().nullable(),
    attemptCount: z.number().int(),
    maxAttempts: z.number().int(),
    nextRunAt: z.iso.datetime().nullable(),
    waitingReason: z.string().nullable(),
    waitingSince: z.iso.datetime().nullable(),
    expiresAt: z.iso.datetime(),
    lastRunAt: z.iso.datetime().nullable(),
    startedAt: z.iso.datetime().nullable(),
    completedAt: z.iso.datetime().nullable(),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: 'Trigger' });

export const rawJob = triggerObject
  .extend({
    jobId: z.uuid(),
    triggerType: z.enum(['api', 'event', 'agent']),
    inputMessage: z.string(),
    idempotencyKey: z.string().nullable(),
    eventType: z.string().nullable(),
    humanReply: z.object({ decision: z.string(), reason: z.string().nullable(), at: z.iso.datetime() }).nullable(),
  })
  .meta({ id: 'LegacyJob' });

export const getTriggerQuery = z
  .object({
    wait: z.coerce
      .number()
      .int()
      .min(0)
      .max(60)
      .optional()
      .meta({ description: 'Long poll: hold up to this many seconds for a status change' }),
  })
  .strict()
  .meta({ id: 'GetTriggerQuery' });

export const listTriggersQuery = z
  .object({
    limit: z.coerce.number().int().min(1).max(100).default(50),
    offset: z.coerce.number().int().min(0).default(0),
  })
  .strict()
  .meta({ id: 'ListTriggersQuery' });

export const triggerList = z
  .object({
    conversationId: z.uuid(),
    triggers: z.array(
      z.object({
        triggerId: z.uuid(),
        status: z.enum(STATUSES),
        attemptCount: z.number().int(),
        resultSummary: z.string().nullable(),
        completedAt: z.iso.datetime().nullable(),
      }),
    ),
    total: z.number().int(),
    hasMore: z.boolean(),
  })
  .meta({ id: 'TriggerList' });

export const cancelBody = z
  .object({ reason: text(1000).optional() })
  .strict()
  .meta({ id: 'CancelTriggerRequest' });

export const replyBody = z
  .object({ decision: z.enum(['approved', 'rejected']), reason: text(4000).optional() })
  .strict()
  .meta({ id: 'ReplyTriggerRequest' });
