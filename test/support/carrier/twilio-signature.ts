// X-Twilio-Signature, as Twilio documents it: HMAC-SHA1 keyed with the account's auth token over the
// full URL followed by each POST parameter's name and value, sorted by name; base64. A WebSocket
// handshake (ConversationRelay) is signed over its URL alone.
// Sources:
//   https://www.twilio.com/docs/usage/webhooks/webhooks-security
//   https://www.twilio.com/docs/usage/api-security-reference-guide/webhook
//   https://www.twilio.com/docs/voice/conversationrelay/websocket-messages (handshake header)
//   twilio-node src/webhooks/webhooks.ts (getExpectedTwilioSignature: repeated names sorted by value)
import { createHmac, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADER = 'x-twilio-signature';

/** Form parameters as Twilio sends them; a name given several times carries a list. */
export type TwilioParams = Record<string, string | string[]>;

export function twilioSignature(authToken: string, url: string, params: TwilioParams = {}): string {
  const data = Object.keys(params)
    .sort()
    .reduce((signed, name) => {
      const value = params[name];
      const values = Array.isArray(value) ? [...new Set(value)].sort() : [value];
      return signed + values.map((v) => name + v).join('');
    }, url);
  return createHmac('sha1', authToken).update(Buffer.from(data, 'utf8')).digest('base64');
}

/** Whether `signature` is the one Twilio would send for this URL and these parameters. */
export function isValidTwilioSignature(authToken: string, signature: string | undefined, url: string, params: TwilioParams = {}): boolean {
  const expected = Buffer.from(twilioSignature(authToken, url, params));
  const given = Buffer.from(signature ?? '');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** Form body parameters, a repeated name kept as a list (as twilioSignature expects). */
export function formParams(body: string): TwilioParams {
  const params: TwilioParams = {};
  for (const [name, value] of new URLSearchParams(body)) {
    const before = params[name];
    params[name] = before === undefined ? value : [...(Array.isArray(before) ? before : [before]), value];
  }
  return params;
}
