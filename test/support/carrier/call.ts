// One call on the carrier stand-in, from dialing to its end, as Twilio documents it: the status
// callbacks asked for (signed, numbered, in order), answering-machine detection, the TwiML (inline
// or fetched by a signed request), <Connect><ConversationRelay> played by a scripted RelayCaller,
// the <Connect action> request, and hang-up or new TwiML given through the REST API.
// Sources:
//   https://www.twilio.com/docs/voice/api/call-resource (statuses, StatusCallbackEvent, update)
//   https://www.twilio.com/docs/voice/twiml#request-parameters (parameters of every request)
//   https://www.twilio.com/docs/voice/api/call-resource#statuscallback (CallbackSource, SequenceNumber, Timestamp, CallDuration)
//   https://www.twilio.com/docs/voice/answering-machine-detection (AnsweredBy, AsyncAmd)
//   https://www.twilio.com/docs/voice/twiml/connect (action attribute)
//   https://www.twilio.com/docs/voice/twiml/connect/conversationrelay (attributes, <Parameter>)
//   https://www.twilio.com/docs/voice/twiml/dial (action, callerId, timeout; DialCallStatus, DialCallSid, DialCallDuration)
//   https://www.twilio.com/docs/voice/twiml/reject (first verb: never answered, busy or no-answer by `reason`)
//   https://www.twilio.com/docs/voice/twiml/gather (input, numDigits, actionOnEmptyResult; Digits, SpeechResult, Confidence)
//   https://www.twilio.com/docs/voice/twiml/record (maxLength, action: RecordingUrl, RecordingDuration, RecordingSid, Digits=hangup;
//     recordingStatusCallback: RecordingStatus, RecordingChannels, RecordingSource, RecordingStartTime)
//   https://www.twilio.com/docs/voice/twiml/number#url (asked on the dialled call when it answers; ParentCallSid)
import { randomBytes } from 'node:crypto';
import type { RelayNoun } from './conversation-relay.js';
import { RelayCaller, RelayRefused, type RelayEnd } from './relay-caller.js';
import { parseTwiml, type TwimlElement } from './twiml.js';
import type { TwilioParams } from './twilio-signature.js';

export const API_VERSION = '2010-04-01';

/** What the next placement (or update) answers instead of doing it: an HTTP error, or nothing at all. */
export type ForcedAnswer = { status: number; code?: number; message?: string } | 'hang';

/** What the caller does in the relay conversation; the call waits for the socket to close after it. */
export type CallerScript = (caller: RelayCaller) => Promise<void>;

/** What the caller does at a <Gather>: presses keys, says words, stays silent, or hangs up. */
export type GatherAnswer = { digits: string } | { speech: string } | 'silence' | 'hangup';

/** What the caller leaves at a <Record>: this much audio, then hangs up (or stays silent until the recording ends). */
export interface Message {
  seconds: number;
  then: 'hangup' | 'silence';
}

/** A recording a <Record> made, as the Recording resource serves it. */
export interface Recording {
  sid: string;
  /** The account whose call made it, the only one that may fetch it. */
  accountSid: string;
  callSid: string;
  seconds: number;
  wav: Buffer;
}

export type MachineAnswer = 'machine_start' | 'machine_end_beep' | 'machine_end_silence' | 'machine_end_other' | 'fax';

/** How the called number behaves. */
export type Scenario =
  | { answer: 'busy' }
  | { answer: 'no-answer' }
  | { answer: 'failed' }
  /** Rings until the call is canceled through the REST API. */
  | { answer: 'ring' }
  /**
   * `gathers`: answered at each <Gather> in turn (silence once none is left); `message`: left at a <Record> (none: silence);
   * `staysOn`: when a <Dial> rings it, it stays on the bridge until the call is hung up through the REST API;
   * `unreported`: once its relay socket closed, nothing more of the call reaches the application (the network
   * between them is down) and it stays up until hung up through the REST API.
   */
  | { answer: 'human'; caller?: CallerScript; gathers?: GatherAnswer[]; message?: Message; staysOn?: boolean; unreported?: boolean }
  /** `detectedAfter`: asynchronous detection reports once this settles (at once when not given). */
  | { answer: 'machine'; answeredBy?: MachineAnswer; caller?: CallerScript; detectedAfter?: Promise<void> };

/** A request the carrier made to the application, and how it was answered. */
export interface WebhookSent {
  purpose: 'status' | 'twiml' | 'voice' | 'action' | 'amd' | 'recording' | 'answered';
  method: string;
  url: string;
  params: TwilioParams;
  /** The headers that signed it. */
  headers: Record<string, string>;
  status?: number;
  body?: string;
  error?: string;
}

/** New instructions for a live call through the REST API: TwiML, or a URL to fetch it from. */
/** A request the carrier made, sent again as it was (a carrier's retry, or a duplicate delivery). */
export const sendAgain = (sent: WebhookSent): Promise<Response> =>
  fetch(sent.url, {
    method: 'POST',
    headers: { ...sent.headers, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(sent.params as Record<string, string>),
  });

export type Redirect = { twiml: string } | { url: string; method: string };

/** How the carrier signs what it sends the application (X-Twilio-Signature, Telnyx's Ed25519). */
export interface Signer {
  /** The headers of a request to `url`: a POST with form `params` as `body`, or a GET (no body). */
  request(url: string, params: TwilioParams, body: string | undefined): Record<string, string>;
  /** The headers of the relay socket's handshake to `url`. */
  handshake(url: string): Record<string, string>;
}

export interface CallContext {
  accountSid: string;
  signer: Signer;
  /** <ConversationRelay> as this carrier documents it. */
  relayNoun: RelayNoun;
  /** A new call's sid, in the carrier's form. */
  newSid(): string;
  /** Where a recording's audio is served (its RecordingUrl). */
  recordingUrl(recording: Recording): string;
  /** How each number a <Dial> rings behaves; a number not listed does not answer. */
  phones: Record<string, Scenario>;
  /** Every recording made, on any call. */
  recordings: Recording[];
}

/** A number a <Dial> rang, and how that went (its DialCallStatus). */
export interface Dialled {
  to: string;
  callerId: string | undefined;
  timeout: string | undefined;
  status: string;
}

const FINAL = ['completed', 'busy', 'no-answer', 'failed', 'canceled'];
const WEBHOOK_TIMEOUT_MS = 15_000;

const rfc2822 = (ms: number) => new Date(ms).toUTCString().replace('GMT', '+0000');

/** A Twilio-style sid: a prefix and 32 hexadecimal digits. */
export const sid = (prefix: string) => prefix + randomBytes(16).toString('hex');

export class CarrierCall {
  readonly sid: string;
  status = 'queued';
  answeredBy: string | undefined;
  /** Every request made to the application for this call, in order. */
  readonly webhooks: WebhookSent[] = [];
  /** The relay sessions opened, in order. */
  readonly relays: RelayCaller[] = [];
  /** The attributes of each <ConversationRelay> run, with its <Parameter>s. */
  readonly conversationRelays: {
    attributes: Record<string, string>;
    languages: Record<string, string>[];
    parameters: Record<string, string>;
  }[] = [];
  /** The numbers <Dial> rang, in order. */
  readonly dialled: Dialled[] = [];
  /** When each <Dial> rang, from and until (Date.now()), in order. */
  readonly rang: { to: string; fromMs: number; untilMs: number }[] = [];
  /** What the caller heard spoken by <Say> and welcome greetings. */
  readonly said: string[] = [];
  /** The attributes of each <Gather> run. */
  readonly gathers: Record<string, string>[] = [];
  /** What went wrong as Twilio would log it (bad TwiML, unreachable URLs, refused sockets, script failures). */
  readonly errors: string[] = [];
  /** Resolves when the call has ended and its last callback was sent. */
  readonly done: Promise<void>;
  private readonly createdMs = Date.now();
  private answeredMs: number | undefined;
  private endedMs: number | undefined;
  private sequence = 0;
  private generation = 0;
  private pending: Redirect | undefined;
  private hungUp = false;
  private onHangUp!: () => void;
  private readonly hangUpRequested = new Promise<void>((resolve) => (this.onHangUp = resolve));
  private readonly sideRequests: Promise<unknown>[] = [];

  constructor(
    private readonly context: CallContext,
    /** The placement's parameters (To, From, Twiml or Url, StatusCallback…), or the inbound call's. */
    readonly params: Record<string, string | string[]>,
    readonly direction: 'outbound-api' | 'inbound',
    private readonly scenario: Scenario,
  ) {
    this.sid = context.newSid();
    // Dialing starts after the creating request was answered (the call is still queued then).
    this.done = new Promise(setImmediate)
      .then(() => (direction === 'inbound' ? this.ringIn() : this.dial()))
      .catch((error) => {
        this.errors.push(`stand-in failure: ${error}`);
      });
  }

  /** The account the call was placed with (or rang in on). */
  get accountSid(): string {
    return this.context.accountSid;
  }

  /** The status callbacks' parameters, in the order they were sent. */
  get statusCallbacks(): TwilioParams[] {
    return this.webhooks.filter((w) => w.purpose === 'status').map((w) => w.params);
  }

  /** The last relay session (the one a test usually means). */
  get relay(): RelayCaller | undefined {
    return this.relays.at(-1);
  }

  /** Status=completed or canceled through the REST API. */
  hangUpByApi(requested: 'completed' | 'canceled'): void {
    if (FINAL.includes(this.status) || this.hungUp) return;
    if (requested === 'canceled' && this.status === 'in-progress') return;
    this.hungUp = true;
    this.onHangUp();
    void this.relay?.disconnect();
  }

  /** New TwiML through the REST API: the running TwiML stops and this one runs. */
  redirect(next: Redirect): void {
    this.generation += 1;
    this.pending = next;
    void this.relay?.disconnect();
  }

  /** The Call resource as the REST API answers it. */
  toResource() {
    const path = `/${API_VERSION}/Accounts/${this.context.accountSid}/Calls/${this.sid}`;
    const one = (name: string) => (typeof this.params[name] === 'string' ? (this.params[name] as string) : null);
    return {
      sid: this.sid,
      account_sid: this.context.accountSid,
      api_version: API_VERSION,
      to: one('To'),
      from: one('From'),
      status: this.status,
      direction: this.direction,
      answered_by: this.answeredBy ?? null,
      parent_call_sid: null,
      date_created: rfc2822(this.createdMs),
      date_updated: rfc2822(Date.now()),
      start_time: this.answeredMs === undefined ? null : rfc2822(this.answeredMs),
      end_time: this.endedMs === undefined ? null : rfc2822(this.endedMs),
      duration: this.endedMs === undefined ? null : String(this.durationSeconds()),
      uri: `${path}.json`,
      subresource_uris: { recordings: `${path}/Recordings.json`, events: `${path}/Events.json` },
    };
  }

  private async dial() {
    await this.progress('initiated', 'initiated');
    const { answer } = this.scenario;
    if (answer === 'failed' || answer === 'busy') return this.finish(answer);
    await this.progress('ringing', 'ringing');
    if (answer === 'no-answer') return this.finish('no-answer');
    if (answer === 'ring' || this.hungUp) {
      await this.hangUpRequested;
      return this.finish('canceled');
    }
    this.answer();
    const amd = this.machineDetection();
    await this.progress('answered', 'in-progress');
    if (amd === 'async') this.sideRequests.push(this.asyncAmdCallback());
    const twiml =
      typeof this.params.Twiml === 'string'
        ? this.params.Twiml
        : await this.fetchTwiml('twiml', String(this.params.Url), String(this.params.Method ?? 'POST'));
    await this.runTwiml(twiml);
    await Promise.all(this.sideRequests);
    await this.finish('completed');
  }

  private async ringIn() {
    this.status = 'ringing';
    const twiml = await this.fetchTwiml('voice', String(this.params.VoiceUrl), 'POST');
    const rejected = twiml === undefined ? undefined : this.rejection(twiml);
    if (rejected) return this.finish(rejected);
    this.answer();
    await this.runTwiml(twiml);
    await this.finish('completed');
    await Promise.all(this.sideRequests);
  }

  private answer() {
    this.status = 'in-progress';
    this.answeredMs = Date.now();
  }

  /** Sets AnsweredBy when detection was asked for; 'async' when its result goes to AsyncAmdStatusCallback. */
  private machineDetection(): 'sync' | 'async' | undefined {
    const mode = this.params.MachineDetection;
    if (mode !== 'Enable' && mode !== 'DetectMessageEnd') return undefined;
    const machine =
      this.scenario.answer === 'machine'
        ? (this.scenario.answeredBy ?? (mode === 'Enable' ? 'machine_start' : 'machine_end_beep'))
        : undefined;
    this.answeredBy = machine ?? 'human';
    return this.params.AsyncAmd === 'true' ? 'async' : 'sync';
  }

  private async asyncAmdCallback() {
    const url = this.params.AsyncAmdStatusCallback;
    if (typeof url !== 'string') return;
    if (this.scenario.answer === 'machine') await this.scenario.detectedAfter;
    const params = {
      AccountSid: this.context.accountSid,
      CallSid: this.sid,
      AnsweredBy: this.answeredBy!,
      MachineDetectionDuration: '1200',
    };
    await this.request('amd', String(this.params.AsyncAmdStatusCallbackMethod ?? 'POST'), url, params);
  }

  /** The parameters Twilio sends with every request about a call. */
  private standardParams(): Record<string, string> {
    const to = String(this.params.To);
    const from = String(this.params.From);
    const params: Record<string, string> = {
      AccountSid: this.context.accountSid,
      ApiVersion: API_VERSION,
      CallSid: this.sid,
      CallStatus: this.status,
      Called: to,
      Caller: from,
      Direction: this.direction,
      From: from,
      To: to,
    };
    // Synchronous detection's result comes with the TwiML request and the callbacks after it.
    if (this.answeredBy !== undefined && this.params.AsyncAmd !== 'true') params.AnsweredBy = this.answeredBy;
    return params;
  }

  private requestedEvents(): string[] {
    const asked = this.params.StatusCallbackEvent;
    const events = (Array.isArray(asked) ? asked : asked === undefined ? [] : [asked]).flatMap((e) => e.split(/[\s,]+/)).filter(Boolean);
    return events.length > 0 ? events : ['completed'];
  }

  /** The status moves on; a callback goes out when this event was asked for. */
  private async progress(event: 'initiated' | 'ringing' | 'answered' | 'completed', status: string, extra: Record<string, string> = {}) {
    this.status = status;
    const url = this.params.StatusCallback;
    if (typeof url !== 'string' || !this.requestedEvents().includes(event)) return;
    const params = {
      ...this.standardParams(),
      CallbackSource: 'call-progress-events',
      SequenceNumber: String(this.sequence++),
      Timestamp: rfc2822(Date.now()),
      ...extra,
    };
    await this.request('status', String(this.params.StatusCallbackMethod ?? 'POST'), url, params);
  }

  private async finish(status: string) {
    this.endedMs = Date.now();
    await this.progress('completed', status, { CallDuration: String(this.durationSeconds()) });
  }

  private durationSeconds(): number {
    return this.answeredMs === undefined ? 0 : Math.round(((this.endedMs ?? Date.now()) - this.answeredMs) / 1000);
  }

  /** The status a ringing call ends with when the document's first verb is <Reject>. */
  private rejection(twiml: string): string | undefined {
    try {
      const first = parseTwiml(twiml).children[0];
      if (first?.name === 'Reject') return first.attributes.reason === 'busy' ? 'busy' : 'no-answer';
    } catch {
      // A document that does not parse is reported when it runs.
    }
    return undefined;
  }

  /** Runs TwiML, then whatever TwiML the REST API gave meanwhile, until none is left or the call hung up. */
  private async runTwiml(twiml: string | undefined) {
    let next = twiml;
    while (next !== undefined && !this.hungUp) {
      await this.execute(next, this.generation);
      const redirect = this.pending;
      this.pending = undefined;
      next = redirect && ('twiml' in redirect ? redirect.twiml : await this.fetchTwiml('twiml', redirect.url, redirect.method));
    }
  }

  private async execute(twiml: string, generation: number): Promise<void> {
    let response: TwimlElement;
    try {
      response = parseTwiml(twiml);
    } catch (error) {
      this.errors.push(`12100 Document parse failure: ${(error as Error).message}`);
      return;
    }
    for (const verb of response.children) {
      if (this.hungUp || generation !== this.generation) return;
      switch (verb.name) {
        case 'Say':
          this.said.push(verb.text);
          break;
        case 'Pause':
        case 'Play':
          break;
        case 'Hangup':
        case 'Reject':
          return;
        case 'Gather': {
          const next = await this.gather(verb);
          if (next === 'over') return;
          // With an answer (or actionOnEmptyResult), the action's TwiML replaces the rest of this document.
          if (next !== 'no-input') return next === undefined ? undefined : this.execute(next, generation);
          break;
        }
        case 'Record': {
          const next = await this.record(verb);
          if (next === 'over') return;
          if (next !== 'no-audio') return next === undefined ? undefined : this.execute(next, generation);
          break;
        }
        case 'Dial': {
          const next = await this.playDial(verb);
          // With an action URL, its answer replaces the rest of this document.
          if (verb.attributes.action) return next === undefined ? undefined : this.execute(next, generation);
          break;
        }
        case 'Redirect': {
          const next = await this.fetchTwiml('twiml', verb.text, verb.attributes.method ?? 'POST');
          return next === undefined ? undefined : this.execute(next, generation);
        }
        case 'Connect': {
          const next = await this.connect(verb, generation);
          // With an action URL, its answer replaces the rest of this document.
          if (verb.attributes.action) return next === undefined ? undefined : this.execute(next, generation);
          break;
        }
        default:
          this.errors.push(`12200 Schema validation warning: <${verb.name}> is not played by the stand-in`);
          return;
      }
    }
  }

  /** <Connect><ConversationRelay>: the relay session, then the action request; its answer is returned when the call goes on. */
  private async connect(connect: TwimlElement, generation: number): Promise<string | undefined> {
    const relay = connect.children.find((c) => c.name === 'ConversationRelay');
    if (!relay) {
      this.errors.push('12200 <Connect> without <ConversationRelay> is not played by the stand-in');
      return undefined;
    }
    const parameters = Object.fromEntries(
      relay.children.filter((p) => p.name === 'Parameter').map((p) => [p.attributes.name, p.attributes.value ?? '']),
    );
    const languages = relay.children.filter((l) => l.name === 'Language').map((l) => l.attributes);
    this.conversationRelays.push({ attributes: relay.attributes, languages, parameters });
    if (relay.attributes.welcomeGreeting) this.said.push(relay.attributes.welcomeGreeting);
    const startedMs = Date.now();
    // A noun the carrier does not take fails the session, as a real carrier's refusal would.
    const problems = this.context.relayNoun.problems(relay);
    this.errors.push(...problems.map((problem) => `64101 invalid <ConversationRelay>: ${problem}`));
    const { sessionId, end } = problems.length ? { sessionId: sid('VX'), end: undefined } : await this.relaySession(relay, parameters);
    if (generation !== this.generation) return undefined;
    if (end?.by === 'caller-hang-up') this.hungUp = true;
    if (this.person?.unreported) {
      await this.hangUpRequested;
      return undefined;
    }
    const action = connect.attributes.action;
    if (!action) return undefined;
    const sessionStatus =
      end === undefined
        ? 'failed'
        : { 'application-end': 'ended', 'application-close': 'failed', 'caller-hang-up': 'completed', carrier: 'completed' }[end.by];
    const params: Record<string, string> = {
      ...this.standardParams(),
      CallStatus: this.hungUp ? 'completed' : this.status,
      SessionId: sessionId,
      SessionStatus: sessionStatus,
      SessionDuration: String(Math.round((Date.now() - startedMs) / 1000)),
    };
    if (end?.by === 'application-end' && end.handoffData !== undefined) params.HandoffData = end.handoffData;
    const answer = await this.request('action', connect.attributes.method ?? 'POST', action, params);
    // After a hang-up the action request only reports; its TwiML is not played.
    return this.hungUp ? undefined : this.twimlOf(answer);
  }

  /**
   * <Dial>: rings the number as its scenario says (a person answers, talks and hangs up; `ring` rings
   * for the dial's timeout), asking <Number url> when it answers, then the action request.
   */
  private async playDial(verb: TwimlElement): Promise<string | undefined> {
    const number = verb.children.find((c) => c.name === 'Number');
    const to = (number?.text ?? verb.text).trim();
    const phone = this.context.phones[to] ?? { answer: 'no-answer' };
    const answer = phone.answer;
    let status = answer === 'human' || answer === 'machine' ? 'completed' : answer === 'ring' ? 'no-answer' : answer;
    const dialSid = sid('CA');
    const dialled: Dialled = { to, callerId: verb.attributes.callerId, timeout: verb.attributes.timeout, status };
    this.dialled.push(dialled);
    const fromMs = Date.now();
    if (answer === 'ring')
      await Promise.race([
        new Promise((resolve) => setTimeout(resolve, Number(verb.attributes.timeout ?? 30) * 1000)),
        this.hangUpRequested,
      ]);
    if (status === 'completed' && number?.attributes.url) {
      // Asked on the dialled call as it answers, before the bridge: its own sid, the caller's as its parent.
      const child = {
        ...this.standardParams(),
        CallSid: dialSid,
        ParentCallSid: this.sid,
        Direction: 'outbound-dial',
        To: to,
        Called: to,
        CallStatus: 'in-progress',
      };
      this.twimlOf(await this.request('answered', number.attributes.method ?? 'POST', number.attributes.url, child));
    }
    if (phone.answer === 'human' && phone.staysOn) await this.hangUpRequested;
    this.rang.push({ to, fromMs, untilMs: Date.now() });
    // The caller hung up while it rang: the dialled call is canceled.
    if (this.hungUp && answer === 'ring') status = dialled.status = 'canceled';
    const action = verb.attributes.action;
    if (!action) return undefined;
    const params: Record<string, string> = {
      ...this.standardParams(),
      DialCallStatus: status,
      DialCallSid: dialSid,
      DialCallDuration: status === 'completed' ? '1' : '0',
    };
    if (this.hungUp) params.CallStatus = 'completed';
    const sent = await this.request('action', verb.attributes.method ?? 'POST', action, params);
    // After a hang-up the action request only reports; its TwiML is not played.
    return this.hungUp ? undefined : this.twimlOf(sent);
  }

  /** What the caller does at the next <Gather> or <Record>, by the scenario. */
  private get person(): Extract<Scenario, { answer: 'human' }> | undefined {
    return this.scenario.answer === 'human' ? this.scenario : undefined;
  }

  /** <Gather>: its <Say>s, then the caller's next answer; the action's TwiML, 'no-input' to go on, or 'over' when the caller hung up. */
  private async gather(verb: TwimlElement): Promise<string | undefined | 'no-input' | 'over'> {
    this.gathers.push(verb.attributes);
    for (const said of verb.children.filter((c) => c.name === 'Say')) this.said.push(said.text);
    const answer = this.person?.gathers?.shift() ?? 'silence';
    if (answer === 'hangup') {
      this.hungUp = true;
      return 'over';
    }
    const input = (verb.attributes.input ?? 'dtmf').split(/\s+/);
    const heard: Record<string, string> = {};
    if (answer !== 'silence' && 'digits' in answer && input.includes('dtmf'))
      heard.Digits = answer.digits.slice(0, Number(verb.attributes.numDigits ?? answer.digits.length));
    if (answer !== 'silence' && 'speech' in answer && input.includes('speech'))
      Object.assign(heard, { SpeechResult: answer.speech, Confidence: '0.9' });
    if (Object.keys(heard).length === 0 && verb.attributes.actionOnEmptyResult !== 'true') return 'no-input';
    if (!verb.attributes.action) {
      this.errors.push('12200 the stand-in plays <Gather> with an action only');
      return 'over';
    }
    return this.twimlOf(
      await this.request('action', verb.attributes.method ?? 'POST', verb.attributes.action, { ...this.standardParams(), ...heard }),
    );
  }

  /**
   * <Record>: the caller's message (at most maxLength seconds) is recorded; the action is asked (Digits=hangup when
   * the caller hung up), then the recording is reported to recordingStatusCallback. No audio: no recording, and on.
   */
  private async record(verb: TwimlElement): Promise<string | undefined | 'no-audio' | 'over'> {
    const message = this.person?.message;
    if (!message || message.seconds <= 0) return 'no-audio';
    const seconds = Math.min(message.seconds, Number(verb.attributes.maxLength ?? 3600));
    const recording: Recording = {
      sid: sid('RE'),
      accountSid: this.context.accountSid,
      callSid: this.sid,
      seconds,
      wav: wavOf(seconds, 300 + (this.context.recordings.length % 8) * 100),
    };
    this.context.recordings.push(recording);
    if (message.then === 'hangup') this.hungUp = true;
    const url = this.context.recordingUrl(recording);
    const made = { RecordingUrl: url, RecordingSid: recording.sid, RecordingDuration: String(seconds) };
    const callback = verb.attributes.recordingStatusCallback;
    if (callback) {
      // Reported once the recording is stored: after the action, maybe after the call ended.
      const report = {
        AccountSid: this.context.accountSid,
        CallSid: this.sid,
        ...made,
        RecordingStatus: 'completed',
        RecordingChannels: '1',
        RecordingSource: 'RecordVerb',
        RecordingStartTime: rfc2822(Date.now() - seconds * 1000),
        ErrorCode: '0',
      };
      this.sideRequests.push(
        new Promise(setImmediate).then(() =>
          this.request('recording', verb.attributes.recordingStatusCallbackMethod ?? 'POST', callback, report),
        ),
      );
    }
    if (!verb.attributes.action) {
      this.errors.push('12200 the stand-in plays <Record> with an action only');
      return 'over';
    }
    const params = {
      ...this.standardParams(),
      ...made,
      Digits: message.then === 'hangup' ? 'hangup' : '',
      ...(this.hungUp ? { CallStatus: 'completed' } : {}),
    };
    const answer = await this.request('action', verb.attributes.method ?? 'POST', verb.attributes.action, params);
    // After a hang-up the action request only reports; its TwiML is not played.
    return this.hungUp ? 'over' : this.twimlOf(answer);
  }

  /** The relay session of a <ConversationRelay> its noun takes (it has a url). */
  private async relaySession(
    relay: TwimlElement,
    customParameters: Record<string, string>,
  ): Promise<{ sessionId: string; end?: RelayEnd }> {
    const refused = { sessionId: sid('VX') };
    const { attributes } = relay;
    const url = attributes.url!;
    let caller: RelayCaller;
    try {
      caller = await RelayCaller.connect({
        url,
        headers: this.context.signer.handshake(url),
        enabled: { dtmf: attributes.dtmfDetection === 'true', partialPrompts: attributes.partialPrompts === 'true' },
        speech: this.context.relayNoun.speech(relay),
        setup: {
          callSid: this.sid,
          accountSid: this.context.accountSid,
          from: String(this.params.From),
          to: String(this.params.To),
          direction: this.direction,
          callStatus: this.status.toUpperCase(),
          customParameters,
        },
      });
    } catch (error) {
      this.errors.push(`64102 relay socket not opened: ${error instanceof RelayRefused ? `HTTP ${error.status}` : String(error)}`);
      return refused;
    }
    this.relays.push(caller);
    if (this.hungUp) await caller.disconnect();
    const script = this.scenario.answer === 'human' || this.scenario.answer === 'machine' ? this.scenario.caller : undefined;
    const played = script?.(caller).catch((error) => this.errors.push(`caller script: ${(error as Error).message}`));
    const end = await caller.ended;
    await played;
    return { sessionId: caller.setup.sessionId, end };
  }

  private async fetchTwiml(purpose: 'twiml' | 'voice', url: string, method: string): Promise<string | undefined> {
    return this.twimlOf(await this.request(purpose, method, url, this.standardParams()));
  }

  private twimlOf(sent: WebhookSent): string | undefined {
    if (sent.status === 200) return sent.body;
    this.errors.push(`11200 HTTP retrieval failure: ${sent.url} answered ${sent.status ?? sent.error}`);
    return undefined;
  }

  /** A signed request to the application: GET carries the parameters in the query, POST in a form body. */
  private async request(
    purpose: WebhookSent['purpose'],
    method: string,
    url: string,
    params: Record<string, string>,
  ): Promise<WebhookSent> {
    const get = method.toUpperCase() === 'GET';
    const target = new URL(url);
    if (get) for (const [name, value] of Object.entries(params)) target.searchParams.append(name, value);
    const body = get ? undefined : new URLSearchParams(params).toString();
    const headers = get ? this.context.signer.request(target.toString(), {}, undefined) : this.context.signer.request(url, params, body);
    const sent: WebhookSent = { purpose, method: get ? 'GET' : 'POST', url: get ? target.toString() : url, params, headers };
    this.webhooks.push(sent);
    try {
      const answer = await fetch(sent.url, {
        method: sent.method,
        headers: { ...headers, ...(get ? {} : { 'Content-Type': 'application/x-www-form-urlencoded' }) },
        body,
        signal: AbortSignal.timeout(WEBHOOK_TIMEOUT_MS),
      });
      sent.status = answer.status;
      sent.body = await answer.text();
    } catch (error) {
      sent.error = String(error);
    }
    return sent;
  }
}

/** A recording's audio as Twilio serves it (.wav): 8 kHz 16-bit mono PCM, here a tone of `hz`. */
function wavOf(seconds: number, hz: number): Buffer {
  const rate = 8000;
  const data = Buffer.alloc(seconds * rate * 2);
  for (let i = 0; i < seconds * rate; i++) data.writeInt16LE(Math.round(8000 * Math.sin((2 * Math.PI * hz * i) / rate)), i * 2);
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVEfmt ', 8, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}
