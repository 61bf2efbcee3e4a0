// The receiver's check of a Switchboard webhook, under either header scheme it is signed with:
// X-Voice-Timestamp / X-Voice-Signature (hex HMAC-SHA256 of `timestamp.body`, keyed with the whole
// secret's UTF-8 bytes) and Standard Webhooks (base64 HMAC-SHA256 of `id.timestamp.body`, keyed with
// the base64 after `whsec_`).
import { createHmac, timingSafeEqual } from 'node:crypto';
import { WebhookVerificationError } from './errors.js';
import type { WebhookEvent } from './types.js';

/** Fetch's Headers, or Node's `req.headers` (names in lower case). */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

export interface VerifyWebhookOptions {
  /** How far the timestamp may be from `now`, in seconds (default 300). */
  toleranceSec?: number;
  /** The receiver's clock (default: the current time). */
  now?: Date;
}

const SECRET_PREFIX = 'whsec_';

function headerOf(headers: WebhookHeaders, name: string): string | undefined {
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  const found = Object.keys(headers).find((key) => key.toLowerCase() === name);
  const value = found === undefined ? undefined : headers[found];
  return Array.isArray(value) ? value[0] : value;
}

const sameBytes = (a: string, b: string): boolean => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

function checkTimestamp(timestamp: string | undefined, opts: VerifyWebhookOptions): string {
  if (timestamp === undefined || !/^\d{1,12}$/.test(timestamp)) throw new WebhookVerificationError('No valid timestamp header');
  const nowSec = (opts.now ?? new Date()).getTime() / 1000;
  if (Math.abs(nowSec - Number(timestamp)) > (opts.toleranceSec ?? 300)) {
    throw new WebhookVerificationError('The timestamp is outside the tolerance');
  }
  return timestamp;
}

function checkVoice(headers: WebhookHeaders, body: Buffer, secret: string, opts: VerifyWebhookOptions): void {
  const timestamp = checkTimestamp(headerOf(headers, 'x-voice-timestamp'), opts);
  const expected = createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest('hex');
  if (!sameBytes(headerOf(headers, 'x-voice-signature') ?? '', `sha256=${expected}`)) {
    throw new WebhookVerificationError('X-Voice-Signature does not match');
  }
}

function checkStandard(headers: WebhookHeaders, body: Buffer, secret: string, opts: VerifyWebhookOptions): void {
  const timestamp = checkTimestamp(headerOf(headers, 'webhook-timestamp'), opts);
  const key = Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
  const id = headerOf(headers, 'webhook-id') ?? '';
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.`).update(body).digest('base64');
  // A space-separated list while a secret changes: any v1 entry may match.
  const signatures = (headerOf(headers, 'webhook-signature') ?? '').split(' ');
  if (!signatures.some((entry) => entry.startsWith('v1,') && sameBytes(entry.slice(3), expected))) {
    throw new WebhookVerificationError('webhook-signature does not match');
  }
}

const bytesOf = (rawBody: string | Uint8Array): Buffer =>
  typeof rawBody === 'string' ? Buffer.from(rawBody) : Buffer.from(rawBody.buffer, rawBody.byteOffset, rawBody.byteLength);

/**
 * Checks a request Switchboard signed against `secret` (the account's `whsec_…`), on the raw body
 * before any parsing: a webhook event, an agent's tool call to your API (a GET or DELETE has an
 * empty body) or a campaign request. Every scheme whose signature header is present must match, and
 * at least one must be. Throws WebhookVerificationError otherwise.
 */
export function verifySignature(
  headers: WebhookHeaders,
  rawBody: string | Uint8Array,
  secret: string,
  opts: VerifyWebhookOptions = {},
): void {
  const body = bytesOf(rawBody);
  const voice = headerOf(headers, 'x-voice-signature') !== undefined;
  const standard = headerOf(headers, 'webhook-signature') !== undefined;
  if (!voice && !standard) throw new WebhookVerificationError('No X-Voice-Signature or webhook-signature header');
  if (voice) checkVoice(headers, body, secret, opts);
  if (standard) checkStandard(headers, body, secret, opts);
}

/**
 * The event of a webhook request, once verifySignature passes. Throws WebhookVerificationError
 * when the body is not an event (a JSON object with a string `type`), as a tool call's or a
 * campaign request's is not.
 */
export function verifyWebhook(
  headers: WebhookHeaders,
  rawBody: string | Uint8Array,
  secret: string,
  opts: VerifyWebhookOptions = {},
): WebhookEvent {
  verifySignature(headers, rawBody, secret, opts);
  let event: unknown;
  try {
    event = JSON.parse(bytesOf(rawBody).toString('utf8'));
  } catch {
    event = undefined;
  }
  if (typeof (event as { type?: unknown } | null)?.type !== 'string') {
    throw new WebhookVerificationError('The body is not a webhook event; verifySignature checks a tool call or a campaign request');
  }
  return event as WebhookEvent;
}
