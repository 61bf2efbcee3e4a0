// Telnyx's webhook signatures (https://developers.telnyx.com/docs/messaging/messages/receiving-webhooks#webhook-signing):
// `telnyx-signature-ed25519`, base64 Ed25519 over `<telnyx-timestamp>|<the raw body>`, checked with the
// account's public key (base64, as the portal shows it). A timestamp too far from now is refused, so a
// captured request cannot be replayed later.
import { createPublicKey, verify, type KeyObject } from 'node:crypto';

/** How far a request's timestamp may be from now. */
const TOLERANCE_SEC = 300;

/** The account's public key, from its base64 (32 bytes); null when it is not one. */
export function telnyxPublicKey(base64: string): KeyObject | null {
  const raw = Buffer.from(base64, 'base64');
  if (raw.length !== 32 || raw.toString('base64') !== base64) return null;
  try {
    return createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: raw.toString('base64url') }, format: 'jwk' });
  } catch {
    return null;
  }
}

/** Whether `signature` (base64) signs `timestamp` and `rawBody` with `publicKey`, the timestamp within tolerance of `now`. */
export function isTelnyxSignature(
  publicKey: string,
  signature: string | undefined,
  timestamp: string | undefined,
  rawBody: Buffer,
  now: Date,
): boolean {
  const key = telnyxPublicKey(publicKey);
  if (!key || !signature || !timestamp || !/^\d{1,12}$/.test(timestamp)) return false;
  if (Math.abs(now.getTime() / 1000 - Number(timestamp)) > TOLERANCE_SEC) return false;
  const signed = Buffer.concat([Buffer.from(`${timestamp}|`), rawBody]);
  return verify(null, signed, key, Buffer.from(signature, 'base64'));
}
