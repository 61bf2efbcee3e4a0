// A call the carrier conducts over its relay socket (ConversationRelay): the carrier turns the
// caller's speech into `prompt` text and speaks the `text` tokens sent back. The socket's process
// leases the call while the socket lives, and the agent converses here as on any line.
import type { WebSocket } from 'ws';
import { sleep } from '../clock.js';
import type { Ctx } from '../context.js';
import { CHANNELS } from '../db/notify.js';
import { callById } from '../store/calls/get.js';
import { bindRelay, handCallToCarrier, type RelayBinding } from '../store/calls/relay.js';
import { unleaseCall } from '../store/calls/release.js';
import type { CallRow } from '../store/calls/row.js';
import type { Transfer } from './call-tools.js';
import type { CarrierName } from './gateways/carrier.js';
import { EventQueue, type Line, type LineEvent, type Recorder, type StreamingVoice } from './gateways/gateway.js';
import { finalizeCall } from './finalize.js';
import { heartbeatConductedCalls } from './heartbeat.js';
import { conductRelayed } from './run.js';
import { carriedUntil } from './routing/carrier-steps.js';
import { Signal } from './signal.js';
import { createGateway, type Gateway } from './gateways/index.js';
import { isLive, isOnTheLine, LIVE, notRungYet, ON_THE_LINE, UNANSWERED } from './state.js';
import type { CallStatus } from '../store/calls/row.js';

/** How long a call whose socket closed waits for the carrier's report of its end. */
const CARRIER_REPORT_MS = 10_000;

/** How long after a key press more digits still belong to the same entry. */
const KEYS_GAP_MS = 1500;

/** Messages from the carrier (https://www.twilio.com/docs/voice/conversationrelay/websocket-messages; Telnyx's are the same). */
type CarrierMessage =
  | { type: 'prompt'; voicePrompt: string; last?: boolean }
  | { type: 'dtmf'; digit: string }
  | { type: 'interrupt'; utteranceUntilInterrupt?: string }
  | { type: 'error'; description?: string }
  | { type: 'setup' };

export class RelayLine implements Line, StreamingVoice {
  private readonly events = new EventQueue<LineEvent>();
  /** Partial prompts, until the final one. */
  private prompt = '';
  private current: AbortController | null = null;
  private ended = false;
  /** Digits pressed since the last entry, and the end of the wait for more. */
  private keys = '';
  private cancelKeys: () => void = () => {};
  /** The agent's transfer the carrier dials once this session ended. */
  handedOff: Transfer | null = null;
  /** Lets go of the call before the carrier learns of the transfer: its next relay session may bind the call at once. */
  beforeHandOff: () => Promise<void> = async () => {};
  readonly streaming = this;

  constructor(
    private readonly socket: WebSocket,
    private readonly ctx: Pick<Ctx, 'log' | 'metrics' | 'clock'>,
    /** Whose relay this is, for the count of its errors. */
    private readonly carrier: CarrierName,
    machine: boolean,
    private readonly callId: string,
    /** The call's status when bound: a queued one rang all the same (the carrier's report has not arrived yet); an answered one is not answered again. */
    status: CallStatus,
    /** Messages the carrier sent after setup, before this line existed. */
    early: string[],
  ) {
    if (notRungYet(status)) this.events.push({ type: 'ringing' });
    if (!isOnTheLine(status)) this.events.push({ type: 'answered', machine });
    for (const text of early) this.received(text);
    socket.on('message', (data) => this.received(data.toString()));
    // Closed while the call was being bound: the line is gone already.
    if (socket.readyState !== socket.OPEN) this.lost();
    else socket.on('close', () => this.lost());
  }

  private lost(): void {
    this.ended = true;
    this.cancelKeys();
    this.current?.abort();
    this.events.push({ type: 'lost' });
  }

  private received(text: string): void {
    let message: CarrierMessage;
    try {
      message = JSON.parse(text) as CarrierMessage;
    } catch {
      return void this.ctx.log.warn({ callId: this.callId }, 'relay message is not JSON');
    }
    switch (message.type) {
      case 'prompt':
        this.prompt += message.voicePrompt ?? '';
        if (message.last === false) return;
        this.events.push({ type: 'speech', text: this.prompt });
        this.prompt = '';
        return;
      case 'dtmf':
        this.keyPressed(message.digit);
        return;
      case 'interrupt':
        // The model stops now; what was heard is written once the turn has stopped.
        this.current?.abort();
        this.events.push({ type: 'interrupted', heard: message.utteranceUntilInterrupt ?? '' });
        return;
      case 'error':
        this.ctx.metrics.carrierErrors.inc({ carrier: this.carrier });
        return void this.ctx.log.warn({ callId: this.callId, description: message.description }, 'the carrier reported a relay error');
    }
  }

  /** The carrier sends one digit a message: digits pressed in quick succession are one entry. */
  private keyPressed(digit: string): void {
    this.keys += digit;
    this.cancelKeys();
    this.cancelKeys = this.ctx.clock.setTimer(KEYS_GAP_MS, () => {
      this.events.push({ type: 'keys', keys: this.keys });
      this.keys = '';
    });
  }

  private send(message: object): void {
    if (!this.ended) this.socket.send(JSON.stringify(message));
  }

  next(): Promise<LineEvent> {
    return this.events.next();
  }

  utterance(): AbortSignal {
    this.current = new AbortController();
    return this.current.signal;
  }

  piece(text: string): void {
    this.send({ type: 'text', token: text, last: false });
  }

  async end(): Promise<void> {
    this.send({ type: 'text', token: '', last: true });
  }

  async say(text: string): Promise<void> {
    this.send({ type: 'text', token: text, last: true });
  }

  /** The relay's `language` message: the voice the TwiML declared for `language` speaks, and the caller is heard in it. */
  switchLanguage(language: string): void {
    this.send({ type: 'language', ttsLanguage: language, transcriptionLanguage: language });
  }

  /** The relay carries text only: audio would come from the carrier's call recording. */
  record(): Recorder {
    throw new Error('a relay line carries no audio to record');
  }

  /** Ends the relay session naming the target: the carrier's request at its end (<Connect action>) dials it. */
  async handOff(transfer: Transfer): Promise<void> {
    await this.beforeHandOff();
    this.send({ type: 'end', handoffData: JSON.stringify({ reason: 'transfer', ...transfer }) });
    this.ended = true;
    this.handedOff = transfer;
  }

  /** Ends the relay session; the carrier then ends the call and reports it. */
  async hangup(): Promise<void> {
    this.send({ type: 'end', handoffData: JSON.stringify({ reason: 'ended by Switchboard' }) });
    this.ended = true;
  }
}

/** Keeps the leases of the calls this process's relay sockets conduct. */
export class RelayLeases {
  private readonly held = new Set<string>();
  private readonly stopped = new AbortController();
  /** What the agent's transfers dial through. */
  private readonly gateway: Gateway;

  constructor(
    private readonly ctx: Ctx,
    readonly owner: string,
    readonly leaseMs: number,
  ) {
    this.gateway = createGateway(ctx);
    void this.heartbeats();
  }

  /** Renews the leases every third of a lease, by the clock, until closed. */
  private async heartbeats(): Promise<void> {
    const every = Math.max(50, Math.floor(this.leaseMs / 3));
    for (;;) {
      await sleep(this.ctx.clock, every, this.stopped.signal);
      if (this.stopped.signal.aborted) return;
      await this.renew();
    }
  }

  private async renew(): Promise<void> {
    if (!this.held.size) return;
    try {
      await heartbeatConductedCalls(this.ctx, [...this.held], this.owner, this.leaseMs);
    } catch (err) {
      this.ctx.log.warn({ err: (err as Error).message }, 'relay call heartbeat failed');
    }
  }

  /**
   * Binds the call of the relay session's setup to this process, once only, while it is still being placed or
   * answered with the carrier playing its routing until it reached an ai step; null when it is not such a call.
   */
  bind(binding: Omit<RelayBinding, 'owner' | 'leaseMs'>): Promise<CallRow | null> {
    return bindRelay(
      this.ctx,
      { ...binding, owner: this.owner, leaseMs: this.leaseMs },
      { unanswered: UNANSWERED, onTheLine: ON_THE_LINE },
    );
  }

  /** Conducts `row` (bound to this process) on `line` until the line or the call ends. */
  async conduct(line: RelayLine, row: CallRow): Promise<void> {
    const { ctx } = this;
    this.held.add(row.id);
    const signal = new Signal();
    const unsubscribe = await ctx.notifier.subscribe(CHANNELS.calls, (payload) => {
      if (payload === row.id || payload === '') signal.noteChange();
    });
    // The carrier rings the target and bridges the call for as long as it may last, its slot held as long; its status callback ends both.
    line.beforeHandOff = async () => {
      const until = carriedUntil(row, ctx.clock.now());
      await handCallToCarrier(ctx, row.id, this.owner, until, LIVE);
      await ctx.callLimits.renewSlots([row], until);
    };
    try {
      await conductRelayed(ctx, this.gateway, line, row, this.owner, signal);
      if (line.handedOff) return;
      // The socket may close before the carrier reports the call's end: that report follows at once.
      const waited = new AbortController();
      const waitOver = sleep(ctx.clock, CARRIER_REPORT_MS, waited.signal).then(() => (waited.signal.aborted ? undefined : 'over'));
      for (;;) {
        signal.markRead();
        if (!isLive((await callById(ctx.db, row.id))!.status)) break;
        if ((await Promise.race([signal.wait(), waitOver])) === 'over') break;
      }
      waited.abort();
    } finally {
      unsubscribe();
      this.held.delete(row.id);
    }
    // Still live: no report came, and the sweep fails the call once its lease runs out.
    if (isLive((await callById(ctx.db, row.id))!.status)) return;
    await finalizeCall(ctx, row.id, this.owner);
    await unleaseCall(ctx, row.id, this.owner);
  }

  close(): void {
    this.stopped.abort();
  }
}
