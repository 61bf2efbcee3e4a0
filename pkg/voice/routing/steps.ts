// A number's routing (DECISIONS.md "Inbound calls, numbers, routing"): one step, which may lead on
// to others (a menu's options and fallback, a webhook's fallback), at most five deep.
import { z } from 'zod';
import { MENU_KEYS, type MenuKey, type RoutingStep } from '../../store/routing-step.js';

export { MENU_KEYS, type MenuKey, type RoutingStep };

export const MAX_ROUTING_DEPTH = 5;

/** What `call.updated` names as the call's handler when it reaches a step of this type. */
export type StepType = RoutingStep['type'];

const id = z.string().min(1).max(64);

const aiStep = z
  .object({
    type: z.literal('ai'),
    agent_id: id.meta({ description: "agt_ id of one of the account's agents" }),
    greeting: z.string().min(1).max(1000).optional().meta({ description: 'Said first; else the agent opens' }),
    voice: id.optional().meta({ description: "A voice id from GET /v1/voices; else the agent's voice, else the deployment's default" }),
  })
  .strict()
  .meta({ id: 'AiStep' });

const menuStep = z
  .object({
    type: z.literal('menu'),
    prompt: z.string().min(1).max(1000).meta({ description: 'Said to the caller, listing the options' }),
    get options(): z.ZodType<Partial<Record<MenuKey, RoutingStep>>, Record<string, unknown>> {
      return z
        .record(z.string().regex(/^[0-9*#]$/, 'must be one keypad key: 0-9, * or #'), routingStepSchema)
        .refine((o) => Object.keys(o).length > 0, 'give at least one option')
        .meta({ description: 'Keypad key (0-9, *, #) to the step it leads to; the caller presses the key or says it' });
    },
    timeout_sec: z.int().min(1).max(60).default(5).meta({ description: 'Seconds to wait for a key or a word' }),
    retries: z.int().min(0).max(10).default(3).meta({ description: 'Times the prompt is said again after no or an unknown answer' }),
    get fallback(): z.ZodType<RoutingStep> {
      return routingStepSchema;
    },
  })
  .strict()
  .meta({ id: 'MenuStep' });

const queueStep = z
  .object({ type: z.literal('queue'), queue_id: id })
  .strict()
  .meta({ id: 'QueueStep' });
const voicemailStep = z
  .object({ type: z.literal('voicemail'), mailbox_id: id })
  .strict()
  .meta({ id: 'VoicemailStep' });
const transferStep = z
  .object({
    type: z.literal('transfer'),
    to: z.string().min(1).max(64).meta({ description: "E.164, or national in the account's country" }),
  })
  .strict()
  .meta({ id: 'TransferStep' });

const webhookStep = z
  .object({
    type: z.literal('webhook'),
    url: z
      .string()
      .min(1)
      .max(2048)
      .meta({ description: 'https, public: receives the call record signed like webhooks, answers {step} within 3 s' }),
    get fallback(): z.ZodType<RoutingStep> {
      return routingStepSchema;
    },
  })
  .strict()
  .meta({ id: 'WebhookStep' });

export const routingStepSchema: z.ZodType<RoutingStep> = z
  .discriminatedUnion('type', [aiStep, menuStep, queueStep, voicemailStep, transferStep, webhookStep])
  .meta({ id: 'RoutingStep' }) as z.ZodType<RoutingStep>;

/** The steps a step leads on to, each with its path below it. */
export function nextSteps(step: Record<string, unknown>): [string[], unknown][] {
  const next: [string[], unknown][] = [];
  if (step.options && typeof step.options === 'object') {
    for (const [key, option] of Object.entries(step.options)) next.push([['options', key], option]);
  }
  if ('fallback' in step) next.push([['fallback'], step.fallback]);
  return next;
}

/**
 * The path of the first step deeper than MAX_ROUTING_DEPTH in raw input, or undefined. Walked without
 * recursion and before the schema parses it: a body may nest deeper than the call stack.
 */
export function tooDeepAt(raw: unknown): string[] | undefined {
  const stack: { value: unknown; path: string[]; depth: number }[] = [{ value: raw, path: [], depth: 1 }];
  while (stack.length) {
    const { value, path, depth } = stack.pop()!;
    if (value === null || typeof value !== 'object' || Array.isArray(value)) continue;
    if (depth > MAX_ROUTING_DEPTH) return path;
    for (const [below, step] of nextSteps(value as Record<string, unknown>))
      stack.push({ value: step, path: [...path, ...below], depth: depth + 1 });
  }
  return undefined;
}
