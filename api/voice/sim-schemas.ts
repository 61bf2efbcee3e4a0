// The simulated network's part of the Voice API contract (DECISIONS.md "Trying it without a carrier").
import { z } from 'zod';
import { parseVoice } from './parse.js';

const phone = z.string().min(1).max(64);

export const simCallBody = z
  .object({
    to: phone.meta({ description: "One of the account's numbers: the one the simulated caller rings" }),
    from: phone.meta({ description: "The caller's number, E.164 (or national in the account's country)" }),
    lines: z.array(z.string().max(1000)).max(50).default([]).meta({
      description:
        "What the caller says, one line after each thing it hears once its presses are spent ('' stays silent); it hangs up after the last",
    }),
    presses: z
      .array(
        z
          .string()
          .regex(/^[0-9*#]*$/, 'keys are 0-9, * and #')
          .max(20),
      )
      .max(20)
      .default([])
      .meta({ description: "Keys the caller presses, one entry after each thing it hears, before it says any line ('' stays silent)" }),
  })
  .strict()
  .meta({ id: 'SimCallRequest' });

export const parseSimCall = (body: unknown): z.output<typeof simCallBody> => parseVoice(simCallBody, body, 'sim_call');
