// Twilio as a carrier: its REST API (rest.ts) and X-Twilio-Signature (signature.ts), keyed with the
// account's auth token, which also signs the relay parameters of its calls.
import type { Carrier } from '../carrier-api.js';
import { fetchRecording, hangUpCall, placeCall, type TwilioAccount } from './rest.js';
import { isTwilioSignature } from './signature.js';

export type { TwilioAccount } from './rest.js';

export const twilio: Carrier<TwilioAccount> = {
  placeCall,
  hangUpCall,
  fetchRecording,
  isSigned: (account, req) =>
    isTwilioSignature(account.authToken, req.headers['x-twilio-signature'] as string | undefined, req.url, req.params),
  signsAddresses: true,
  relayKey: (account) => account.authToken,
  speechAttributes: (voice, transcription) => ({
    ...(voice && { ttsProvider: voice.provider, voice: voice.voice }),
    transcriptionProvider: transcription,
  }),
};
