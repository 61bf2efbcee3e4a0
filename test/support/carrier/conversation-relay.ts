// The <ConversationRelay> noun as each carrier documents it: the attributes it takes (any other is an
// error), the <Language> elements inside it, and the values of those that name a voice, a language or a
// provider; and what a session declared from it speaks: the voice of each language, which the relay's
// `language` message switches between.
// Sources:
//   https://www.twilio.com/docs/voice/twiml/connect/conversationrelay (attributes, <Language>; the
//     attribute list as Twilio's own helper library spells it: twilio-python twiml/voice_response.py)
//   https://www.twilio.com/docs/voice/conversationrelay/voice-configuration (ttsProvider Google, Amazon,
//     ElevenLabs, and each one's voice names: en-US-Journey-O, Joanna-Neural, UgBBYS2sOqTuMpoF3BR0)
//   https://developers.telnyx.com/docs/voice/programmable-voice/texml-verbs/conversationrelay (TeXML's
//     attributes: no ttsProvider; voice as Provider.Model.VoiceId, e.g. Telnyx.NaturalHD.astra,
//     AWS.Polly.Joanna-Neural; transcriptionProvider deepgram, google, telnyx; <Language> code, ttsProvider,
//     voice, transcriptionProvider, speechModel)
import type { TwimlElement } from './twiml.js';

/** What a relay session speaks: its languages now, and the voice each declared language is spoken with. */
export interface RelaySpeech {
  ttsLanguage: string | undefined;
  transcriptionLanguage: string | undefined;
  /** Language → the voice declared for it (as the carrier names it, with its provider for Twilio: `Amazon Joanna-Neural`). */
  voices: Record<string, string>;
}

export interface RelayNoun {
  /** What is wrong with this <ConversationRelay>, by the carrier's documentation; empty when nothing. */
  problems(relay: TwimlElement): string[];
  /** What a session of it speaks, before any `language` message. */
  speech(relay: TwimlElement): RelaySpeech;
}

const LANGUAGE = /^([a-z]{2,3}(-[A-Z]{2})?|multi)$/;

/** Twilio's voice names by ttsProvider (its default provider: ElevenLabs); a Google voice's name begins with its language. */
const TWILIO_VOICES: Record<string, { name: RegExp; fits?: (voice: string, language: string) => boolean }> = {
  google: { name: /^[a-z]{2,3}-[A-Z]{2}-[A-Za-z0-9]+(-[A-Za-z0-9]+)*$/, fits: (voice, language) => voice.startsWith(`${language}-`) },
  amazon: { name: /^[A-Z][a-z]+(-(Neural|Generative|LongForm))?$/ },
  elevenlabs: { name: /^[A-Za-z0-9]{20}(-[A-Za-z0-9_.]+)*$/ },
};

const TWILIO_RELAY = [
  'url',
  'language',
  'ttsLanguage',
  'transcriptionLanguage',
  'ttsProvider',
  'voice',
  'transcriptionProvider',
  'speechModel',
  'profanityFilter',
  'dtmfDetection',
  'welcomeGreeting',
  'partialPrompts',
  'welcomeGreetingInterruptible',
  'interruptible',
  'preemptible',
  'hints',
  'intelligenceService',
  'reportInputDuringAgentSpeech',
  'elevenlabsTextNormalization',
  'interruptSensitivity',
  'debug',
  'backgroundNoiseReduction',
  'speechTimeout',
  'deepgramSmartFormat',
  'ignoreBackchannel',
  'events',
  'partialPromptOnHangup',
  'eagerEotThreshold',
  'asrSmartFormat',
  'ttsTextNormalization',
  'ttsLanguageTextNormalization',
  'elevenlabsLanguageTextNormalization',
  'includeInPrompt',
  'customerName',
  'applicationReconnect',
  'echoPromptFiltering',
  'turnDetection',
];
const TWILIO_LANGUAGE = [
  'code',
  'ttsProvider',
  'voice',
  'transcriptionProvider',
  'speechModel',
  'hints',
  'asrSmartFormat',
  'ttsTextNormalization',
  'ttsLanguageTextNormalization',
];

const TELNYX_RELAY = [
  'url',
  'welcomeGreeting',
  'voice',
  'language',
  'transcriptionProvider',
  'interruptible',
  'welcomeGreetingInterruptible',
  'dtmfDetection',
];
const TELNYX_LANGUAGE = ['code', 'ttsProvider', 'voice', 'transcriptionProvider', 'speechModel'];

interface Dialect {
  relay: string[];
  language: string[];
  transcriptionProviders: string[];
  /** What is wrong with the voice of one element (the relay or a <Language>) speaking `language`. */
  voiceProblem(attributes: Record<string, string>, language: string | undefined): string | undefined;
  /** The voice one element declares, as tests name it. */
  voiceOf(attributes: Record<string, string>): string | undefined;
}

function nounOf(carrier: string, dialect: Dialect): RelayNoun {
  const languagesOf = (relay: TwimlElement) => relay.children.filter((c) => c.name === 'Language');
  const sessionLanguage = (a: Record<string, string>) => a.ttsLanguage ?? a.language ?? 'en-US';
  /** The problems of one element's attributes, `known` the names it takes. */
  const elementProblems = (element: TwimlElement, known: string[], language: string | undefined): string[] => {
    const a = element.attributes;
    const problems = Object.keys(a)
      .filter((name) => !known.includes(name))
      .map((name) => `<${element.name}> has no attribute ${name} on ${carrier}`);
    for (const name of ['language', 'ttsLanguage', 'transcriptionLanguage', 'code']) {
      if (a[name] !== undefined && !LANGUAGE.test(a[name])) problems.push(`<${element.name}> ${name}="${a[name]}" is not a language tag`);
    }
    if (a.transcriptionProvider !== undefined && !dialect.transcriptionProviders.includes(a.transcriptionProvider)) {
      problems.push(
        `<${element.name}> transcriptionProvider="${a.transcriptionProvider}" is none of ${dialect.transcriptionProviders.join(', ')}`,
      );
    }
    const voice = dialect.voiceProblem(a, language);
    if (voice) problems.push(`<${element.name}> ${voice}`);
    return problems;
  };
  return {
    problems(relay) {
      const problems = elementProblems(relay, dialect.relay, sessionLanguage(relay.attributes));
      if (!relay.attributes.url) problems.push('<ConversationRelay> has no url');
      for (const child of relay.children.filter((c) => c.name !== 'Parameter' && c.name !== 'Language'))
        problems.push(`<ConversationRelay> has no element <${child.name}>`);
      const codes = languagesOf(relay).map((l) => l.attributes.code);
      for (const language of languagesOf(relay)) {
        problems.push(...elementProblems(language, dialect.language, language.attributes.code));
        if (!language.attributes.code) problems.push('<Language> has no code');
      }
      if (new Set(codes).size !== codes.length) problems.push('<Language> codes repeat');
      return problems;
    },
    speech(relay) {
      const a = relay.attributes;
      const voices: Record<string, string> = {};
      const top = dialect.voiceOf(a);
      if (top) voices[sessionLanguage(a)] = top;
      for (const language of languagesOf(relay)) {
        const voice = dialect.voiceOf(language.attributes);
        if (voice) voices[language.attributes.code!] = voice;
      }
      return { ttsLanguage: sessionLanguage(a), transcriptionLanguage: a.transcriptionLanguage ?? a.language ?? 'en-US', voices };
    },
  };
}

export const twilioRelayNoun = nounOf('Twilio', {
  relay: TWILIO_RELAY,
  language: TWILIO_LANGUAGE,
  transcriptionProviders: ['Google', 'Deepgram'],
  voiceProblem(a, language) {
    const provider = a.ttsProvider ?? 'ElevenLabs';
    const names = TWILIO_VOICES[provider.toLowerCase()];
    if (!names) return `ttsProvider="${provider}" is none of Google, Amazon, ElevenLabs`;
    if (a.voice === undefined) return undefined;
    if (!names.name.test(a.voice)) return `voice="${a.voice}" is not a voice name of ${provider}`;
    if (language && names.fits && !names.fits(a.voice, language)) return `voice="${a.voice}" does not speak ${language}`;
    return undefined;
  },
  voiceOf: (a) => (a.voice === undefined ? undefined : `${a.ttsProvider ?? 'ElevenLabs'} ${a.voice}`),
});

export const telnyxRelayNoun = nounOf('Telnyx', {
  relay: TELNYX_RELAY,
  language: TELNYX_LANGUAGE,
  transcriptionProviders: ['deepgram', 'google', 'telnyx'],
  voiceProblem: (a) =>
    a.voice === undefined || /^[A-Za-z]+(\.[A-Za-z0-9_:.-]+)+$/.test(a.voice)
      ? undefined
      : `voice="${a.voice}" is not Provider.Model.VoiceId`,
  voiceOf: (a) => a.voice,
});
