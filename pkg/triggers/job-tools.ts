// The job tools of DECISIONS.md. schedule_trigger_retry and request_human_input record what the
// run should end in; create_background_task enqueues another job on the same conversation.
import type { Ctx } from '../context.js';
import { DomainError } from '../errors.js';
import type { TurnTool } from '../agent/tools.js';
import type { Conversation } from '../store/conversations.js';
import type { Tenant } from '../store/tenants.js';
import { createTrigger } from './create.js';
import { MAX_DELAY_MINUTES, startTime } from './schedule.js';

export type JobOutcome =
  | { kind: 'retry'; at: Date; reason: string }
  | { kind: 'park'; reason: string; payload: Record<string, unknown> | null };

const tool = (name: string, description: string, properties: Record<string, unknown>, required: string[]) => ({
  type: 'function' as const,
  function: { name, description, parameters: { type: 'object', properties, required } },
});

/** The parameters naming when a job runs (startTime reads them). */
const startTimeProperties = {
  delayMinutes: { type: 'integer', minimum: 1, maximum: MAX_DELAY_MINUTES, description: 'Minutes from now' },
  runAt: { type: 'string', description: 'ISO 8601 time with offset, or company-local YYYY-MM-DDTHH:mm' },
};

const refusal = (err: unknown): string => {
  if (err instanceof DomainError) return `Refused: ${err.message}`;
  throw err;
};

/** Available in message turns and job turns; `askedUnverified`: asked for by a contact not verified. */
export function backgroundTaskTool(ctx: Ctx, tenant: Tenant, conversation: Conversation, askedUnverified = false): Map<string, TurnTool> {
  return new Map([
    [
      'create_background_task',
      {
        definition: tool(
          'create_background_task',
          'Enqueue an autonomous background job on this conversation',
          { task: { type: 'string' }, successCriteria: { type: 'string' }, ...startTimeProperties },
          ['task'],
        ),
        run: async (args) => {
          try {
            const task = String(args.task ?? '').slice(0, 32_000);
            if (!task) return { output: 'Refused: task is required' };
            const { trigger } = await createTrigger(ctx, tenant, {
              conversationId: conversation.id,
              task,
              inputMessage: task,
              triggerType: 'agent',
              successCriteria: typeof args.successCriteria === 'string' ? args.successCriteria.slice(0, 8000) : undefined,
              delayMinutes: typeof args.delayMinutes === 'number' ? args.delayMinutes : undefined,
              runAt: typeof args.runAt === 'string' ? args.runAt : undefined,
              askedUnverified,
            });
            return { output: JSON.stringify({ triggerId: trigger.id, status: trigger.status }) };
          } catch (err) {
            return { output: refusal(err) };
          }
        },
      },
    ],
  ]);
}

/** Tools only a running job has; `outcome` holds what the model asked for. */
export function jobTools(ctx: Ctx, tenant: Tenant, outcome: { value: JobOutcome | null }): Map<string, TurnTool> {
  return new Map<string, TurnTool>([
    [
      'schedule_trigger_retry',
      {
        definition: tool(
          'schedule_trigger_retry',
          'Pause this job and run it again later (same job, same history)',
          { ...startTimeProperties, reason: { type: 'string' } },
          ['reason'],
        ),
        run: async (args) => {
          try {
            const input = {
              delayMinutes: typeof args.delayMinutes === 'number' ? args.delayMinutes : undefined,
              runAt: typeof args.runAt === 'string' ? args.runAt : undefined,
            };
            if (input.delayMinutes === undefined && input.runAt === undefined) return { output: 'Refused: give delayMinutes or runAt' };
            const at = startTime(input, tenant.timezone, ctx.clock.now())!;
            outcome.value = { kind: 'retry', at, reason: String(args.reason ?? '') };
            return { output: `Follow-up scheduled for ${at.toISOString()}. End your turn now with a short status.` };
          } catch (err) {
            return { output: refusal(err) };
          }
        },
      },
    ],
    [
      'request_human_input',
      {
        definition: tool(
          'request_human_input',
          'Park this job until a human replies (approve, reject or provide information)',
          { reason: { type: 'string', description: 'What you need from the human' }, payload: { type: 'object' } },
          ['reason'],
        ),
        run: async (args) => {
          const payload =
            args.payload && typeof args.payload === 'object' && !Array.isArray(args.payload)
              ? (args.payload as Record<string, unknown>)
              : null;
          outcome.value = { kind: 'park', reason: String(args.reason ?? 'Input required'), payload };
          return { output: 'The job will wait for a human reply. End your turn now with a short status.' };
        },
      },
    ],
  ]);
}
