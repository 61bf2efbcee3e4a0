// Parsing a Voice API body or query string (DECISIONS.md "400 or 422"): what the endpoint cannot read
// is 400 `invalid_json`, a value it refuses is 422 `invalid_<field>` with the API's field name.
import type { z } from 'zod';
import { Invalid, Unprocessable } from '../../pkg/errors.js';

/**
 * A body that is not an object, or a body or query naming a field the endpoint does not take: 400
 * `invalid_json`. A refused value: 422 `invalid_<field>` for the first field refused (`invalid_to`,
 * `invalid_wait`…), `invalid_<what>` for a rule about the whole input.
 */
export function parseVoice<S extends z.ZodType>(schema: S, input: unknown, what: string): z.output<S> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues;
  const unknown = issues.find((i) => i.code === 'unrecognized_keys');
  if (unknown) throw new Invalid(`Unknown field(s): ${unknown.keys.join(', ')}`);
  if (input === null || typeof input !== 'object' || Array.isArray(input)) throw new Invalid('Body must be a JSON object');
  const first = issues[0]!;
  const field = first.path.length ? String(first.path[0]) : what;
  throw new Unprocessable(`${first.path.join('.') || what}: ${first.message}`, `invalid_${field}`);
}
