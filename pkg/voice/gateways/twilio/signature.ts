// X-Twilio-Signature (https://www.twilio.com/docs/usage/security#validating-requests): base64
// HMAC-SHA1, keyed with the auth token, of the full URL Twilio requested followed by each POST
// parameter's name and value, sorted by name. A WebSocket handshake signs its URL alone.
import { createHmac, timingSafeEqual } from 'node:crypto';

export type FormParams = Record<string, string | string[]>;

export function twilioSignature(authToken: string, url: string, params: FormParams = {}): string {
  const hmac = createHmac('sha1', authToken).update(url, 'utf8');
  for (const name of Object.keys(params).sort()) {
    const value = params[name]!;
    for (const one of Array.isArray(value) ? [...value].sort() : [value]) hmac.update(`${name}${one}`, 'utf8');
  }
  return hmac.digest('base64');
}

/** The URL as Twilio may have signed it: with the scheme's default port written out, or without it. */
function spellings(url: string): string[] {
  const parsed = new URL(url);
  const defaultPort = { 'https:': '443', 'wss:': '443', 'http:': '80', 'ws:': '80' }[parsed.protocol];
  if (!defaultPort || (parsed.port && parsed.port !== defaultPort)) return [url];
  const withPort = `${parsed.protocol}//${parsed.username ? `${parsed.username}:${parsed.password}@` : ''}${parsed.hostname}:${defaultPort}${parsed.pathname}${parsed.search}`;
  const withoutPort = withPort.replace(`:${defaultPort}${parsed.pathname}`, parsed.pathname);
  return [withoutPort, withPort];
}

/** Whether `given` signs the request to `url` with `params`; compared in constant time. */
export function isTwilioSignature(authToken: string, given: string | undefined, url: string, params: FormParams = {}): boolean {
  if (!given) return false;
  const offered = Buffer.from(given);
  let valid = false;
  for (const spelling of spellings(url)) {
    const expected = Buffer.from(twilioSignature(authToken, spelling, params));
    // Every spelling is checked, so the time taken does not say which one matched.
    if (expected.length === offered.length && timingSafeEqual(expected, offered)) valid = true;
  }
  return valid;
}
