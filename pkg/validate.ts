// Parsing plain input with zod for every surface: a failure is Invalid listing each field (dotted path).
import type { z } from 'zod';
import { Invalid, type FieldIssue } from './errors.js';

/** Invalid naming each field: `Invalid <what>: <path>: <message>; …`. */
export function invalid(what: string, details: FieldIssue[]): Invalid {
  return new Invalid(`Invalid ${what}: ${details.map((d) => `${d.path}: ${d.message}`).join('; ')}`, details);
}

/** `root` names an issue about the whole value (no path). */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown, what: string, root = what): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const at = (path: PropertyKey[]) => path.map(String).join('.') || root;
  // An unknown field is named by its own path (`contact.crmId`), not by the object holding it.
  const details = result.error.issues.flatMap((i) =>
    i.code === 'unrecognized_keys'
      ? i.keys.map((key) => ({ path: at([...i.path, key]), message: 'Unrecognized field' }))
      : [{ path: at(i.path), message: i.message }],
  );
  throw invalid(what, details);
}
