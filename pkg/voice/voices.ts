// The deployment's voice catalogue (GET /v1/voices): the voices a call, an `ai` routing step or an
// agent may name, in the terms ConversationRelay takes them (its ttsProvider and voice, and the
// voice's language); SWITCHBOARD_VOICES replaces the built-in one, SWITCHBOARD_DEFAULT_VOICE picks
// the voice of calls that name none.
import { z } from 'zod';
import type { Config } from '../config.js';

/** The text-to-speech providers of Twilio's ConversationRelay (its ttsProvider attribute). */
export const TTS_PROVIDERS = ['ElevenLabs', 'Google', 'Amazon'] as const;
/** The speech-to-text providers of ConversationRelay (its transcriptionProvider attribute). */
export const TRANSCRIPTION_PROVIDERS = ['Deepgram', 'Google'] as const;
export type TranscriptionProvider = (typeof TRANSCRIPTION_PROVIDERS)[number];

/** A BCP-47 language tag as ConversationRelay takes it: en-US, de-DE, cmn-CN. */
const LANGUAGE = /^[a-z]{2,3}-[A-Z]{2}$/;

const voiceSchema = z
  .object({
    id: z.string().regex(/^[A-Za-z0-9._-]{1,64}$/, 'must be 1-64 letters, digits, dots, dashes or underscores'),
    name: z.string().min(1).max(100),
    language: z.string().regex(LANGUAGE, 'must be a language tag such as en-US'),
    gender: z.enum(['female', 'male', 'neutral']),
    provider: z.enum(TTS_PROVIDERS),
    /** The provider's name of the voice, as ConversationRelay's `voice` takes it (en-US-Journey-O, Joanna-Neural, an ElevenLabs voice id). */
    voice: z.string().min(1).max(200),
    /** Telnyx's name of the same voice (Provider.Model.VoiceId); an Amazon voice's is AWS.Polly.<voice> unless given. */
    telnyx_voice: z
      .string()
      .regex(/^[A-Za-z]+(\.[A-Za-z0-9_:.-]+)+$/, 'must be Provider.Model.VoiceId, as Telnyx names voices')
      .optional(),
  })
  .strict();

export type Voice = z.output<typeof voiceSchema>;

/** SWITCHBOARD_VOICES: a JSON array of voices, ids unique. */
export const catalogueSchema = z
  .array(voiceSchema)
  .min(1)
  .refine((voices) => new Set(voices.map((v) => v.id)).size === voices.length, 'voice ids must be unique');

/** Amazon Polly's neural voices, which both carriers speak under the same names (Twilio: Amazon + Joanna-Neural; Telnyx: AWS.Polly.Joanna-Neural). */
const BUILT_IN: readonly Voice[] = [
  { id: 'joanna', name: 'Joanna', language: 'en-US', gender: 'female', provider: 'Amazon', voice: 'Joanna-Neural' },
  { id: 'matthew', name: 'Matthew', language: 'en-US', gender: 'male', provider: 'Amazon', voice: 'Matthew-Neural' },
  { id: 'amy', name: 'Amy', language: 'en-GB', gender: 'female', provider: 'Amazon', voice: 'Amy-Neural' },
  { id: 'vicki', name: 'Vicki', language: 'de-DE', gender: 'female', provider: 'Amazon', voice: 'Vicki-Neural' },
  { id: 'daniel', name: 'Daniel', language: 'de-DE', gender: 'male', provider: 'Amazon', voice: 'Daniel-Neural' },
  { id: 'lea', name: 'Léa', language: 'fr-FR', gender: 'female', provider: 'Amazon', voice: 'Lea-Neural' },
  { id: 'lucia', name: 'Lucia', language: 'es-ES', gender: 'female', provider: 'Amazon', voice: 'Lucia-Neural' },
];

type Catalogue = Pick<Config, 'SWITCHBOARD_VOICES' | 'SWITCHBOARD_DEFAULT_VOICE'>;

export const voicesOf = (config: Catalogue): readonly Voice[] => config.SWITCHBOARD_VOICES ?? BUILT_IN;

/** The catalogue's voice `id`, if it has one. */
export const findVoice = (config: Catalogue, id: string): Voice | undefined => voicesOf(config).find((v) => v.id === id);

/** The voice of calls that name none: SWITCHBOARD_DEFAULT_VOICE, else the catalogue's first. */
export const defaultVoice = (config: Catalogue): Voice => findVoice(config, config.SWITCHBOARD_DEFAULT_VOICE ?? '') ?? voicesOf(config)[0]!;

/** A voice as GET /v1/voices lists it. */
export const listedVoice = ({ id, name, language, gender, provider }: Voice) => ({ id, name, language, gender, provider });

export const listVoices = (config: Catalogue) => ({ data: voicesOf(config).map(listedVoice) });

/** Why `id` cannot be a voice of this deployment, or undefined when it can. */
export const voiceProblem = (config: Catalogue, id: string): string | undefined =>
  findVoice(config, id) ? undefined : `${id} is not in the voice catalogue (GET /v1/voices)`;

/** The languages of the catalogue, in its order. */
export const catalogueLanguages = (config: Catalogue): string[] => [...new Set(voicesOf(config).map((v) => v.language))];

/** A language of a relay session and the voice that speaks it (none: the carrier's default for the language). */
export interface SpokenLanguage {
  language: string;
  voice: Voice | undefined;
}

/**
 * What a relay session of a call speaking with `chosen` declares: `language` (the call's now) with its voice,
 * and each other language of the catalogue with its voice, so that the relay's `language` message
 * switches to the deployment's voice of it. A language is spoken by `chosen` when it is its own, else
 * by the catalogue's first voice of it.
 */
export function relaySpeech(config: Catalogue, chosen: Voice, language: string): { spoken: SpokenLanguage; others: SpokenLanguage[] } {
  const voiceOf = (l: string): SpokenLanguage => ({
    language: l,
    voice: chosen.language === l ? chosen : voicesOf(config).find((v) => v.language === l),
  });
  return {
    spoken: voiceOf(language),
    others: catalogueLanguages(config)
      .filter((l) => l !== language)
      .map(voiceOf),
  };
}
