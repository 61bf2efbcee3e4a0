// Twilio's side of a ConversationRelay WebSocket, playing a caller: it opens the socket with
// X-Twilio-Signature over the URL, sends `setup`, then what the test's script says (prompts,
// interruptions, DTMF, hang-up) and records every message the application sends, checked as Twilio
// checks them (an invalid one is answered with an `error` message).
// Sources:
//   https://www.twilio.com/docs/voice/conversationrelay/websocket-messages
//   https://www.twilio.com/docs/voice/twiml/connect/conversationrelay
//   https://www.twilio.com/en-us/changelog/new-features-now-available-for-conversationrelay
//     (signature header on the handshake; invalid application messages answered with error 64107)
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';
import type { RelaySpeech } from './conversation-relay.js';
import { twilioSignature } from './twilio-signature.js';

/** The `setup` message's fields (the docs' example carries all of these). */
export interface RelaySetup {
  callSid: string;
  accountSid: string;
  from: string;
  to: string;
  /** `inbound`, or `outbound-api` for a call placed through the REST API. */
  direction: string;
  sessionId?: string;
  parentCallSid?: string;
  forwardedFrom?: string;
  callType?: string;
  callerName?: string;
  callStatus?: string;
  /** The `<Parameter>` elements of `<ConversationRelay>`. */
  customParameters?: Record<string, string>;
}

/** A message the application sent, with when it arrived (performance.now() milliseconds), and for text the language and voice it is spoken in. */
export interface Received {
  message: any;
  atMs: number;
  spoken?: Spoken;
}

/** The language text is spoken in, and the voice the session declared for it (none: the carrier's default voice of it). */
export interface Spoken {
  language: string | undefined;
  voice: string | undefined;
}

export interface Reply {
  /** The tokens joined, as the caller heard them (all of them, or those before the interruption). */
  text: string;
  tokens: { token: string; atMs: number; spoken?: Spoken }[];
  interrupted: boolean;
}

/** Why the socket closed. */
export type RelayEnd =
  | { by: 'application-end'; handoffData?: string }
  | { by: 'caller-hang-up' }
  | { by: 'carrier' }
  | { by: 'application-close'; code: number };

/** The handshake was answered with an HTTP status instead of an upgrade. */
export class RelayRefused extends Error {
  constructor(readonly status: number) {
    super(`relay handshake refused with HTTP ${status}`);
  }
}

export interface RelayConnectOptions {
  /** The `url` attribute of `<ConversationRelay>` (wss://…). */
  url: string;
  setup: RelaySetup;
  /** The handshake's headers: Twilio's signature with `authToken` (or `signature` instead of the right one; null sends none), or these. */
  authToken?: string;
  signature?: string | null;
  headers?: Record<string, string>;
  /** What the TwiML turned on (`dtmfDetection`, `partialPrompts`): Twilio sends DTMF and partial prompts only then. Both on when not given. */
  enabled?: { dtmf: boolean; partialPrompts: boolean };
  /** The languages and voices the TwiML declared (none: the carrier's defaults, en-US). */
  speech?: RelaySpeech;
}

const DIGITS = /^[0-9*#w]+$/;
const LANGUAGE = /^([a-z]{2,3}(-[A-Z]{2})?|multi)$/;

export class RelayCaller {
  /** Every message the application sent, in order. */
  readonly received: Received[] = [];
  /** The descriptions of the `error` messages sent to the application about its own messages. */
  readonly errorsSent: string[] = [];
  readonly setup: Required<Pick<RelaySetup, 'sessionId'>> & RelaySetup;
  /** Resolves when the socket has closed, saying why. */
  readonly ended: Promise<RelayEnd>;
  /** When the last message was handed to the socket (performance.now() milliseconds). */
  lastSentAtMs = 0;
  private end: RelayEnd | undefined;
  private turnStart = 0;
  private readonly watchers = new Set<() => void>();
  private closedBy: 'caller-hang-up' | 'carrier' | undefined;

  private constructor(
    private readonly socket: WebSocket,
    setup: RelaySetup,
    private readonly enabled: { dtmf: boolean; partialPrompts: boolean },
    /** The session's languages now (a `language` message changes them) and the voices declared. */
    readonly speech: RelaySpeech,
  ) {
    this.setup = { sessionId: `VX${randomBytes(16).toString('hex')}`, ...setup };
    this.ended = new Promise((resolve) => {
      socket.on('close', (code) => {
        const end = (this.end ??= this.closedBy ? { by: this.closedBy } : { by: 'application-close', code });
        resolve(end);
        this.wake();
      });
    });
    socket.on('message', (data) => this.onMessage(String(data)));
    // A broken connection is reported by the 'close' that follows.
    socket.on('error', () => undefined);
  }

  /** Opens the socket as Twilio does and sends `setup`; rejects with RelayRefused when the handshake is refused. */
  static async connect(options: RelayConnectOptions): Promise<RelayCaller> {
    const signature =
      options.signature === undefined && options.authToken !== undefined
        ? twilioSignature(options.authToken, options.url)
        : options.signature;
    const socket = new WebSocket(options.url, {
      headers: options.headers ?? (typeof signature === 'string' ? { 'X-Twilio-Signature': signature } : {}),
    });
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('unexpected-response', (_req, res) => {
        reject(new RelayRefused(res.statusCode ?? 0));
        res.resume();
        socket.terminate();
      });
      socket.once('error', reject);
    });
    const speech = options.speech ?? { ttsLanguage: 'en-US', transcriptionLanguage: 'en-US', voices: {} };
    const caller = new RelayCaller(socket, options.setup, options.enabled ?? { dtmf: true, partialPrompts: true }, {
      ...speech,
      voices: { ...speech.voices },
    });
    caller.send({
      type: 'setup',
      parentCallSid: '',
      callType: 'PSTN',
      callerName: '',
      callStatus: 'IN-PROGRESS',
      customParameters: {},
      ...caller.setup,
    });
    return caller;
  }

  /** The caller says `text`: a final prompt, after the given partial transcripts (`last: false`) when those are on, in the language it is heard in. */
  say(
    text: string,
    { partials = [], lang = this.speech.transcriptionLanguage ?? 'en-US' }: { partials?: string[]; lang?: string } = {},
  ): void {
    this.turnStart = this.received.length;
    if (this.enabled.partialPrompts) for (const partial of partials) this.send({ type: 'prompt', voicePrompt: partial, lang, last: false });
    this.send({ type: 'prompt', voicePrompt: text, lang, last: true });
  }

  /** The agent's reply to the last prompt: its `text` tokens up to the one with `last: true`. */
  reply(): Promise<Reply> {
    return this.until('the reply to end with last: true', () => {
      const tokens = this.tokensOfTurn();
      const lastAt = tokens.findIndex((t) => t.last);
      return lastAt === -1 ? undefined : this.replyOf(tokens.slice(0, lastAt + 1), false);
    });
  }

  /** The caller speaks over the reply once `n` of its tokens were heard: sends `interrupt` with those tokens. */
  async interruptAfter(n: number): Promise<Reply> {
    const heard = await this.until(`${n} tokens of the reply`, () => {
      const tokens = this.tokensOfTurn();
      return tokens.length >= n ? tokens.slice(0, n) : undefined;
    });
    const reply = this.replyOf(heard, true);
    const durationUntilInterruptMs = Math.round(performance.now() - (reply.tokens[0]?.atMs ?? performance.now()));
    this.turnStart = this.received.length;
    this.send({ type: 'interrupt', utteranceUntilInterrupt: reply.text, durationUntilInterruptMs });
    return reply;
  }

  /** The caller presses keys: one `dtmf` message per digit, when DTMF detection is on. */
  press(digits: string): void {
    // What the application says next answers the keys, as it would a prompt.
    this.turnStart = this.received.length;
    if (this.enabled.dtmf) for (const digit of digits) this.send({ type: 'dtmf', digit });
  }

  /** Twilio reports an error of the session to the application (an `error` message). */
  reportError(description: string): void {
    this.send({ type: 'error', description });
  }

  /** The caller hangs up: Twilio closes the socket. */
  hangUp(): Promise<RelayEnd> {
    return this.close('caller-hang-up');
  }

  /** The call ended on the carrier's side (a REST hang-up, new TwiML): Twilio closes the socket. */
  disconnect(): Promise<RelayEnd> {
    return this.close('carrier');
  }

  private close(by: 'caller-hang-up' | 'carrier'): Promise<RelayEnd> {
    this.closedBy ??= by;
    this.socket.close(1000);
    return this.ended;
  }

  /** Resolves once the application's socket has read all that was sent before: its pong to a ping sent after it. */
  roundTrip(): Promise<void> {
    return new Promise((resolve) => {
      this.socket.once('pong', () => resolve());
      this.socket.ping();
    });
  }

  /** The messages of one type the application sent, in order. */
  sent(type: string): any[] {
    return this.received.filter((r) => r.message.type === type).map((r) => r.message);
  }

  /** Waits until the application sent a message of this type, and returns the first. */
  nextOf(type: string): Promise<any> {
    return this.until(`a ${type} message`, () => this.sent(type)[0]);
  }

  private tokensOfTurn() {
    return this.received
      .slice(this.turnStart)
      .filter((r) => r.message.type === 'text')
      .map((r) => ({ ...r.message, atMs: r.atMs, spoken: r.spoken }));
  }

  private replyOf(tokens: { token: string; atMs: number; spoken?: Spoken }[], interrupted: boolean): Reply {
    return {
      text: tokens.map((t) => t.token).join(''),
      tokens: tokens.map(({ token, atMs, spoken }) => ({ token, atMs, spoken })),
      interrupted,
    };
  }

  private until<T>(what: string, probe: () => T | undefined): Promise<T> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const value = probe();
        if (value !== undefined) resolve(value);
        else if (this.end) reject(new Error(`relay socket closed (${this.end.by}) while waiting for ${what}`));
        else return;
        this.watchers.delete(check);
      };
      this.watchers.add(check);
      check();
    });
  }

  private wake() {
    for (const check of [...this.watchers]) check();
  }

  private send(message: object) {
    const raw = JSON.stringify(message);
    this.lastSentAtMs = performance.now();
    this.socket.send(raw);
  }

  private onMessage(raw: string) {
    let message: any;
    try {
      message = JSON.parse(raw);
    } catch {
      return this.refuse(`Invalid message received: not JSON: ${raw.slice(0, 80)}`);
    }
    const problem = problemOf(message);
    if (problem) return this.refuse(`Invalid message received: ${problem}`);
    if (message.type === 'language') {
      this.speech.ttsLanguage = message.ttsLanguage ?? this.speech.ttsLanguage;
      this.speech.transcriptionLanguage = message.transcriptionLanguage ?? this.speech.transcriptionLanguage;
    }
    const { ttsLanguage } = this.speech;
    const spoken =
      message.type === 'text'
        ? { language: ttsLanguage, voice: ttsLanguage === undefined ? undefined : this.speech.voices[ttsLanguage] }
        : undefined;
    this.received.push({ message, atMs: performance.now(), ...(spoken && { spoken }) });
    if (message.type === 'end') {
      this.end = { by: 'application-end', handoffData: message.handoffData };
      this.socket.close(1000);
    }
    this.wake();
  }

  private refuse(description: string) {
    this.errorsSent.push(description);
    this.send({ type: 'error', description });
  }
}

/** What is wrong with a message from the application, by the documented fields of each type. */
function problemOf(m: any): string | undefined {
  if (typeof m !== 'object' || m === null) return 'not an object';
  const isString = (v: unknown) => typeof v === 'string';
  const optionalBoolean = (v: unknown) => v === undefined || typeof v === 'boolean';
  // Booleans stay accepted for interruptible beside the newer none/dtmf/speech/any.
  const interruptible = (v: unknown) => optionalBoolean(v) || ['none', 'dtmf', 'speech', 'any'].includes(v as string);
  switch (m.type) {
    case 'text':
      if (!isString(m.token)) return 'text needs a string token';
      if (!optionalBoolean(m.last) || !optionalBoolean(m.preemptible) || !interruptible(m.interruptible))
        return 'text: last and preemptible are booleans, interruptible none, dtmf, speech or any';
      return undefined;
    case 'play':
      return isString(m.source) ? undefined : 'play needs a source URL';
    case 'sendDigits':
      return isString(m.digits) && DIGITS.test(m.digits) ? undefined : 'sendDigits needs digits of 0-9, *, # and w';
    case 'language': {
      const tags = [m.ttsLanguage, m.transcriptionLanguage].filter((v) => v !== undefined);
      if (!tags.length) return 'language needs ttsLanguage or transcriptionLanguage';
      return tags.every((v) => isString(v) && LANGUAGE.test(v))
        ? undefined
        : 'ttsLanguage and transcriptionLanguage are language tags (en-US)';
    }
    case 'end':
      return m.handoffData === undefined || isString(m.handoffData) ? undefined : 'handoffData must be a string';
    default:
      return `unknown type ${JSON.stringify(m.type)}`;
  }
}
