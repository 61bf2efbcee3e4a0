// Parsing plain input with zod for every surface: a failure is Invalid listing each field (dotted path).
import type { z } from 'zod';
import { Invalid, type FieldIssue } from './errors.js';

/** Invalid naming each field: `Invalid <what>: <path>: <message>; …`. */
export function invalid(what: string, details: FieldIssue[]): Invalid {
  return new Invalid(`Invalid ${what}: ${details.map((d) => `${d.path}: ${d.message}`).join('; ')}`, details);
}

/** Why some text is refused wherever it enters: Postgres cannot store NUL, and an unpaired surrogate is not Unicode (jsonb refuses it). */
export const UNSTORABLE_TEXT = 'must not contain NUL characters or unpaired UTF-16 surrogates';

const UNSTORABLE = /\0|\p{Cs}/u;

/**
 * The path of the first string or object key in a parsed JSON value (or query) that holds text that
 * cannot be stored; [] for the value itself, undefined when there is none. Walked without recursion:
 * a body may nest deeper than the call stack.
 */
export function unstorableTextAt(value: unknown): string[] | undefined {
  type Node = { value: unknown; key?: string; parent?: Node };
  const pathOf = (node: Node): string[] => {
    const path: string[] = [];
    for (let n = node; n.parent; n = n.parent) path.push(n.key!);
    return path.reverse();
  };
  const stack: Node[] = [{ value }];
  while (stack.length) {
    const node = stack.pop()!;
    if (typeof node.value === 'string') {
      if (UNSTORABLE.test(node.value)) return pathOf(node);
    } else if (node.value !== null && typeof node.value === 'object') {
      const children = Object.entries(node.value).map(([key, child]) => ({ value: child, key, parent: node }));
      const badKey = children.find((c) => UNSTORABLE.test(c.key));
      if (badKey) return pathOf(badKey);
      // One at a time: spreading a large array into push() overflows the call stack.
      for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
    }
  }
  return undefined;
}

/** Deeper than any field of the APIs holds (a routing of 5 menus is 12); serializing much deeper JSON overflows the call stack. */
export const MAX_JSON_DEPTH = 32;

/** The path to the first object or array in `value` nested more than `max` levels deep (the value itself is level 1), walked without recursion. */
export function nestedTooDeepAt(value: unknown, max = MAX_JSON_DEPTH): string[] | undefined {
  const stack: { value: unknown; path: string[] }[] = [{ value, path: [] }];
  while (stack.length) {
    const node = stack.pop()!;
    if (node.value === null || typeof node.value !== 'object') continue;
    if (node.path.length >= max) return node.path;
    for (const [key, child] of Object.entries(node.value)) stack.push({ value: child, path: [...node.path, key] });
  }
  return undefined;
}

/** `root` names an issue about the whole value (no path). Text that cannot be stored is refused first, naming its field. */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown, what: string, root = what): z.output<S> {
  const at = (path: PropertyKey[]) => path.map(String).join('.') || root;
  const unstorable = unstorableTextAt(value);
  if (unstorable) throw invalid(what, [{ path: at(unstorable), message: UNSTORABLE_TEXT }]);
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  // An unknown field is named by its own path (`contact.crmId`), not by the object holding it.
  const details = result.error.issues.flatMap((i) =>
    i.code === 'unrecognized_keys'
      ? i.keys.map((key) => ({ path: at([...i.path, key]), message: 'Unrecognized field' }))
      : [{ path: at(i.path), message: i.message }],
  );
  throw invalid(what, details);
}
