// The numbers part of the Voice API contract (DECISIONS.md "Inbound calls, numbers, routing").
import { z } from 'zod';
import { Unprocessable } from '../../pkg/errors.js';
import { MAX_ROUTING_DEPTH, routingStepSchema, tooDeepAt } from '../../pkg/voice/routing/steps.js';
import { parseVoice } from './parse.js';

export const numberParam = z.object({
  e164: z.string().meta({ description: "One of the account's numbers, E.164 (+ may be written %2B)" }),
});

export const numberPatchBody = z
  .object({
    name: z.string().trim().max(100).optional().meta({ description: 'A label for people' }),
    routing: routingStepSchema
      .nullable()
      .optional()
      .meta({ description: `How calls to the number are answered; null: not answered. At most ${MAX_ROUTING_DEPTH} steps deep` }),
  })
  .strict()
  .meta({ id: 'NumberPatch' });

export function parseNumberPatch(body: unknown): z.output<typeof numberPatchBody> {
  const routing = body && typeof body === 'object' ? (body as Record<string, unknown>).routing : undefined;
  const deep = tooDeepAt(routing);
  if (deep)
    throw new Unprocessable(`${['routing', ...deep].join('.')}: routing nests at most ${MAX_ROUTING_DEPTH} steps deep`, 'invalid_routing');
  return parseVoice(numberPatchBody, body, 'number');
}

export const numberSchema = z
  .object({
    number: z.string().meta({ description: 'E.164' }),
    name: z.string(),
    default: z.boolean().meta({ description: 'The from of placed calls that name none' }),
    routing: routingStepSchema.nullable(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'PhoneNumber' });

export const numberListSchema = z.object({ data: z.array(numberSchema) }).meta({ id: 'PhoneNumberList' });
