// Telnyx as a carrier: its TeXML REST API (rest.ts), and its Ed25519 signatures checked with the
// account's public key (signature.ts). They cover the body only, so the addresses handed to Telnyx are
// sealed (address-seal.ts), and the relay socket brings its call's relay parameter in its address.
import type { Voice } from '../../voices.js';
import type { Carrier } from '../carrier-api.js';
import { fetchRecording, hangUpCall, placeCall, type TelnyxAccount } from './rest.js';
import { isTelnyxSignature } from './signature.js';

export type { TelnyxAccount } from './rest.js';

const header = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value[0] : value);

/**
 * Telnyx's name of a catalogue voice (Provider.Model.VoiceId; its ConversationRelay takes no ttsProvider): the
 * one the catalogue gives, else an Amazon voice's AWS.Polly.<voice>; none, and Telnyx's default voice speaks.
 */
const telnyxVoice = (voice: Voice): string | undefined =>
  voice.telnyx_voice ?? (voice.provider === 'Amazon' ? `AWS.Polly.${voice.voice}` : undefined);

export const telnyx: Carrier<TelnyxAccount> = {
  placeCall,
  hangUpCall,
  fetchRecording,
  isSigned: (account, req, now) =>
    isTelnyxSignature(
      account.publicKey,
      header(req.headers['telnyx-signature-ed25519']),
      header(req.headers['telnyx-timestamp']),
      req.rawBody,
      now,
    ),
  signsAddresses: false,
  relayKey: (account) => account.apiKey,
  // Telnyx names transcription providers in lower case (deepgram, google).
  speechAttributes: (voice, transcription) => {
    const name = voice && telnyxVoice(voice);
    return { ...(name && { voice: name }), transcriptionProvider: transcription.toLowerCase() };
  },
};
