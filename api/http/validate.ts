// Request parsing with zod: a failure is a 400 listing each invalid field (dotted path).
import type { z } from 'zod';
import { Invalid } from '../../pkg/errors.js';

export function parse<S extends z.ZodType>(schema: S, value: unknown, what = 'body'): z.output<S> {
  const result = schema.safeParse(value ?? {});
  if (result.success) return result.data;
  const details = result.error.issues.map((i) => ({
    path: i.path.map(String).join('.') || what,
    message: i.message,
  }));
  throw new Invalid(`Invalid request ${what}: ${details.map((d) => `${d.path}: ${d.message}`).join('; ')}`, details);
}
