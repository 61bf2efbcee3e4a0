// The relay socket learns its call from a signed, expiring parameter in the TwiML, never from a
// guessable id: `<call id>.<expiry, Unix seconds>.<base64url HMAC-SHA256 of both>`.
import { createHmac, timingSafeEqual } from 'node:crypto';

const mac = (key: string, callId: string, expires: number): Buffer =>
  createHmac('sha256', key).update(`switchboard-relay.${callId}.${expires}`).digest();

export function relayToken(key: string, callId: string, expiresAt: Date): string {
  const expires = Math.floor(expiresAt.getTime() / 1000);
  return `${callId}.${expires}.${mac(key, callId, expires).toString('base64url')}`;
}

/** The call the token names, unverified: whose key verifies it. */
export const relayTokenCall = (token: string): string => token.split('.')[0]!;

/** The call the token names, or why it is refused. */
export function readRelayToken(key: string, token: string, now: Date): { callId: string } | { refused: string } {
  const [callId, expiresText, given, ...rest] = token.split('.');
  if (!callId || !expiresText || !given || rest.length || !/^\d+$/.test(expiresText)) return { refused: 'malformed relay token' };
  const expires = Number(expiresText);
  const expected = mac(key, callId, expires);
  const offered = Buffer.from(given, 'base64url');
  if (offered.length !== expected.length || !timingSafeEqual(offered, expected)) return { refused: 'relay token signature does not match' };
  if (now.getTime() / 1000 > expires) return { refused: 'relay token expired' };
  return { callId };
}
