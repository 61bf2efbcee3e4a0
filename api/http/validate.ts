// Request parsing with zod: a failure is a 400 listing each invalid field (dotted path).
import type { z } from 'zod';
import { Invalid } from '../../pkg/errors.js';
import { parseInput } from '../../pkg/validate.js';

export function parse<S extends z.ZodType>(schema: S, value: unknown, what = 'body'): z.output<S> {
  // The JSON body parser reads no body as `{}`: what it left unread is a body sent as another type.
  if (value === undefined) throw new Invalid(`Invalid request ${what}: send it as JSON (Content-Type: application/json)`);
  return parseInput(schema, value, `request ${what}`, what);
}
