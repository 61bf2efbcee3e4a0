// Structured JSON logs. Secret-bearing fields are redacted at the logger, not at each call site.
import { pino, type Logger } from 'pino';

export type { Logger };

const CENSOR = '[redacted]';
/**
 * The keys whose values are secrets, each with the deepest level of a line's object it is looked
 * for at (1: the object's own keys; 3 reaches `req.headers.authorization`).
 */
const SECRETS = new Map<string, number>([
  ['authConfig', 3],
  ['apiKey', 2],
  ['authToken', 2],
  ['authorization', 3],
  ['password', 2],
  ['token', 2],
  ['webhookSecret', 2],
]);
const DEEPEST = Math.max(...SECRETS.values());

/** Objects walked into: the shapes a log line's values take (not buffers, dates or class instances). */
const walked = (value: unknown): value is Record<string, unknown> => {
  if (value === null || typeof value !== 'object') return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null || Array.isArray(value) || value instanceof Error;
};

/** A shallow copy of a walked object; an error's keeps its class, message and stack. */
function copyOf(value: Record<string, unknown>): Record<string, unknown> {
  if (Array.isArray(value)) return [...value] as unknown as Record<string, unknown>;
  if (!(value instanceof Error)) return { ...value };
  return Object.assign(Object.create(Object.getPrototypeOf(value)) as Error, value, { message: value.message, stack: value.stack });
}

/**
 * `value` with its secrets censored, copied only along the way to one: one walk of the line and
 * nothing allocated for a line without secrets (pino's path redaction parsed each path and cloned on every line).
 */
function redacted(value: Record<string, unknown>, depth: number): Record<string, unknown> {
  let copy: Record<string, unknown> | undefined;
  for (const key in value) {
    const v = value[key];
    const deepest = SECRETS.get(key);
    const next = deepest !== undefined && depth <= deepest ? CENSOR : depth < DEEPEST && walked(v) ? redacted(v, depth + 1) : v;
    if (next === v) continue;
    copy ??= copyOf(value);
    copy[key] = next;
  }
  return copy ?? value;
}

export function createLogger(level: string, destination?: NodeJS.WritableStream): Logger {
  return pino(
    {
      level,
      base: { service: 'switchboard' },
      formatters: { log: (object) => redacted(object, 1) },
    },
    destination as pino.DestinationStream | undefined,
  );
}
