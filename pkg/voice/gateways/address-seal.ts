// A carrier whose signature leaves the URL out (Telnyx signs only the body) could be sent a signed
// body with another query; so each address handed to it carries its own HMAC, `sig`, over the rest.
import { createHmac, timingSafeEqual } from 'node:crypto';

const mac = (key: string, url: string): string => createHmac('sha256', key).update(`switchboard-address.${url}`).digest('base64url');

/** `url` with its seal appended, as the last query parameter. */
export const sealAddress = (key: string, url: string): string => `${url}${url.includes('?') ? '&' : '?'}sig=${mac(key, url)}`;

/** Whether `url` ends with the seal of everything before it, compared in constant time. */
export function isSealedAddress(key: string, url: string): boolean {
  const at = url.search(/[?&]sig=[A-Za-z0-9_-]{43}$/);
  if (at < 0) return false;
  const offered = Buffer.from(url.slice(at + 5));
  const expected = Buffer.from(mac(key, url.slice(0, at)));
  return offered.length === expected.length && timingSafeEqual(offered, expected);
}
