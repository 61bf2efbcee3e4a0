// The TwiML Switchboard answers Twilio with (https://www.twilio.com/docs/voice/twiml), and Telnyx, whose
// TeXML plays the same verbs (https://developers.telnyx.com/docs/voice/programmable-voice/texml-twiml-compatibility): an answered
// call connected to the relay socket (<Connect><ConversationRelay>), put through to another phone
// (<Dial>), a menu (<Gather>), a voicemail (<Record>), words said (<Say>), hung up, or a ringing
// call refused (<Reject>). Verbs are fragments; `respond` makes them a document.

const escapeXml = (s: string): string =>
  s.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!);

const document = (body: string): string => `<?xml version="1.0" encoding="UTF-8"?><Response>${body}</Response>`;

/** A document of `verbs`, played in order. */
export const respond = (...verbs: string[]): string => document(verbs.join(''));

export interface RelayConnection {
  /** The wss:// address of the relay socket. */
  url: string;
  /** The session's language, voice and transcription provider (language, ttsProvider, voice, transcriptionProvider). */
  speech: Record<string, string>;
  /** A <Language> each (code, voice…): what the relay's `language` message switches to. */
  languages: Record<string, string>[];
  /** Sent back in the socket's `setup` message (customParameters). */
  parameters: Record<string, string>;
  /** Where Twilio reports the end of the relay session. */
  action: string;
}

const attributes = (values: Record<string, string>): string =>
  Object.entries(values)
    .map(([name, value]) => ` ${name}="${escapeXml(value)}"`)
    .join('');

/** https://www.twilio.com/docs/voice/twiml/connect/conversationrelay (Telnyx's TeXML: developers.telnyx.com/docs/voice/programmable-voice/texml-verbs/conversationrelay) */
export function connectToRelay(c: RelayConnection): string {
  const languages = c.languages.map((l) => `<Language${attributes(l)}/>`).join('');
  const parameters = Object.entries(c.parameters)
    .map(([name, value]) => `<Parameter${attributes({ name, value })}/>`)
    .join('');
  // DTMF reaches the socket; the caller's speech may interrupt the agent.
  const relay = attributes({ url: c.url, ...c.speech, dtmfDetection: 'true', interruptible: 'any' });
  return document(
    `<Connect${attributes({ action: c.action })}><ConversationRelay${relay}>${languages}${parameters}</ConversationRelay></Connect>`,
  );
}

export interface DialTarget {
  to: string;
  /** The number the target sees calling: one of ours. */
  callerId: string;
  /** Seconds it rings before no-answer. */
  timeoutSec: number;
  /** Where Twilio reports how the dialled call went (DialCallStatus); without it the TwiML goes on after <Dial>. */
  action?: string;
  /**
   * Asked (on the dialled call, ParentCallSid naming ours) the moment the number answers, before bridging
   * (https://www.twilio.com/docs/voice/twiml/number#url).
   */
  answeredUrl?: string;
}

/** https://www.twilio.com/docs/voice/twiml/dial */
export function dial(d: DialTarget): string {
  return document(dialVerb(d));
}

/** <Dial> as a verb. */
export function dialVerb(d: DialTarget): string {
  const action = d.action ? ` action="${escapeXml(d.action)}"` : '';
  const number = d.answeredUrl ? `<Number url="${escapeXml(d.answeredUrl)}">${escapeXml(d.to)}</Number>` : escapeXml(d.to);
  return `<Dial callerId="${escapeXml(d.callerId)}" timeout="${d.timeoutSec}"${action}>${number}</Dial>`;
}

export const say = (text: string): string => `<Say>${escapeXml(text)}</Say>`;

/** Asks Twilio for `url`'s TwiML next (https://www.twilio.com/docs/voice/twiml/redirect). */
export const redirect = (url: string): string => `<Redirect method="POST">${escapeXml(url)}</Redirect>`;

/**
 * One key or words, after `prompt`; the action is asked with Digits or SpeechResult, and also when
 * nothing came in `timeoutSec` (https://www.twilio.com/docs/voice/twiml/gather).
 */
export const gather = (g: { prompt: string; timeoutSec: number; action: string }): string =>
  `<Gather input="dtmf speech" numDigits="1" timeout="${g.timeoutSec}" action="${escapeXml(g.action)}" actionOnEmptyResult="true">${say(g.prompt)}</Gather>`;

/**
 * Records the caller after a beep for at most `maxLengthSec`; the action is asked when it ends, the
 * callback once the recording is stored (https://www.twilio.com/docs/voice/twiml/record).
 */
export const record = (r: { maxLengthSec: number; action: string; recordingStatusCallback: string }): string =>
  `<Record maxLength="${r.maxLengthSec}" playBeep="true" action="${escapeXml(r.action)}" recordingStatusCallback="${escapeXml(r.recordingStatusCallback)}" recordingStatusCallbackEvent="completed"/>`;

export const hangUp = (): string => document('<Hangup/>');

/** A ringing call nobody takes, never answered (https://www.twilio.com/docs/voice/twiml/reject). */
export const reject = (): string => document('<Reject/>');
