// Request parsing with zod: a failure is a 400 listing each invalid field (dotted path).
import type { z } from 'zod';
import { parseInput } from '../../pkg/validate.js';

export function parse<S extends z.ZodType>(schema: S, value: unknown, what = 'body'): z.output<S> {
  return parseInput(schema, value ?? {}, `request ${what}`, what);
}
