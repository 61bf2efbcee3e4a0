// Webhook signatures: the spec's X-Voice-* headers and the Standard Webhooks headers (DECISIONS.md),
// and the receiver's check (spec Authentication 7), exported for tests.
import { createHmac, timingSafeEqual } from 'node:crypto';

const USER_AGENT = 'voice-webhooks/1';
/** How far a receiver accepts a timestamp from its own clock. */
const TOLERANCE_SEC = 300;
export const SECRET_PREFIX = 'whsec_';

interface Signable {
  /** The event id (`evt_…`), sent as `webhook-id`. */
  id: string;
  /** Unix seconds. */
  timestamp: number;
  /** The exact bytes sent. */
  body: string;
}

/** Lower-case hex HMAC-SHA256 of `${timestamp}.${body}`, keyed with the whole secret string's UTF-8 bytes. */
function voiceSignature(secret: string, timestamp: number | string, body: string | Buffer): string {
  return createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest('hex');
}

/** Standard Webhooks v1: base64 HMAC-SHA256 of `${id}.${timestamp}.${body}`, keyed with the base64 after `whsec_`. */
export function standardSignature(secret: string, id: string, timestamp: number | string, body: string | Buffer): string {
  const key = Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');
  return createHmac('sha256', key).update(`${id}.${timestamp}.`).update(body).digest('base64');
}

/** Every header a webhook request carries. */
export function signatureHeaders(secret: string, { id, timestamp, body }: Signable): Record<string, string> {
  return {
    'content-type': 'application/json',
    'user-agent': USER_AGENT,
    'x-voice-timestamp': String(timestamp),
    'x-voice-signature': `sha256=${voiceSignature(secret, timestamp, body)}`,
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': `v1,${standardSignature(secret, id, timestamp, body)}`,
  };
}

type Headers = Record<string, string | string[] | undefined>;

interface VerifyOptions {
  /** The receiver's clock (default: now). */
  now?: Date;
  toleranceSec?: number;
  /** `voice` checks X-Voice-*, `standard` checks webhook-* (default voice). */
  scheme?: 'voice' | 'standard';
}

const header = (headers: Headers, name: string): string => {
  const value = headers[name] ?? headers[name.toLowerCase()];
  return (Array.isArray(value) ? value[0] : value) ?? '';
};

const sameBytes = (a: string, b: string): boolean => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

/**
 * The receiver's check, on the raw body before parsing: the timestamp is within the tolerance of
 * the receiver's clock and the signature matches (compared in constant time).
 */
export function verify(secret: string, headers: Headers, rawBody: string | Buffer, opts: VerifyOptions = {}): boolean {
  const standard = opts.scheme === 'standard';
  const timestamp = header(headers, standard ? 'webhook-timestamp' : 'x-voice-timestamp');
  if (!/^\d{1,12}$/.test(timestamp)) return false;
  const nowSec = (opts.now ?? new Date()).getTime() / 1000;
  if (Math.abs(nowSec - Number(timestamp)) > (opts.toleranceSec ?? TOLERANCE_SEC)) return false;
  if (!standard) return sameBytes(header(headers, 'x-voice-signature'), `sha256=${voiceSignature(secret, timestamp, rawBody)}`);
  const expected = standardSignature(secret, header(headers, 'webhook-id'), timestamp, rawBody);
  // A space-separated list during a key change; any v1 entry may match.
  return header(headers, 'webhook-signature')
    .split(' ')
    .some((entry) => entry.startsWith('v1,') && sameBytes(entry.slice(3), expected));
}
