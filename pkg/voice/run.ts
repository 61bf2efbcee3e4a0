// One placed call on the line: dial through the gateway, follow the line's events through the
// state table, and let the agent of the Agent API converse turn by turn (same prompt assembly,
// model client and tool loop). The API reaches a running call only through its row: hang-ups and
// steering are written there and announced, and this loop acts on them.
import type { Ctx } from '../context.js';
import { CHANNELS } from '../db/notify.js';
import { runTurn, type TurnEvent, type TurnResult } from '../agent/turn.js';
import { TurnCharge } from '../credits/charge.js';
import { getUsableAgent, type Agent } from '../store/agents.js';
import { accountConversation, createConversation, type Conversation } from '../store/conversations.js';
import { appendMessages, listMessages, unstoredMessage, type StoredMessage, type UnstoredMessage } from '../store/messages.js';
import { getTenant, type Tenant } from '../store/tenants.js';
import { callById } from '../store/calls/get.js';
import { unleaseCall } from '../store/calls/release.js';
import type { CallRow } from '../store/calls/row.js';
import { reviseLastAgentWords } from '../store/calls/transcript.js';
import { storeAgentReply, storeCallerWords, type CallTurn } from '../store/calls/turn.js';
import { updateCall } from '../store/calls/update.js';
import type { Gateway, Line, LineEvent } from './gateways/index.js';
import { CarrierFailure } from './gateways/carrier-api.js';
import { connectTransfer, TRANSFER_RING_SEC, transferNotAnswered, transferStatus } from './ai-transfer.js';
import { BridgingCall } from './bridge.js';
import { callTools, outcomesOf, type CallDecision, type Speaking, type Transfer } from './call-tools.js';
import { voiceOfCall } from './call-voice.js';
import { catalogueLanguages, type Voice } from './voices.js';
import { applyCallEvent, enqueueCallEvent, ending } from './events.js';
import { finalizeCall } from './finalize.js';
import { Signal } from './signal.js';
import { endEventOf, isOnTheLine, notRungYet, type CallEvent } from './state.js';

function instructions(call: CallRow, agent: Agent, speaking: Speaking, machine: boolean): string {
  const who =
    call.direction === 'inbound'
      ? `${call.from_number} called the company on ${call.to_number} and you answered`
      : `you are calling ${call.to_number}`;
  const lines = [`PHONE CALL ${call.id}: ${who} on a live phone line. Everything you write is spoken aloud; keep it short and natural.`];
  if (call.task) lines.push(`Task: ${call.task}`);
  if (Object.keys(call.context).length) lines.push(`Facts you may use: ${JSON.stringify(call.context)}`);
  if (machine) {
    lines.push(
      'An answering machine took the call and you are speaking after the beep. If your task asks you to leave a voicemail, call leave_voicemail with the message; otherwise do nothing.',
    );
    return lines.join('\n');
  }
  if (call.questions.length) {
    lines.push(
      `Questions to ask (record the answers under these keys):\n${call.questions.map((q) => `- ${q.key}: ${q.question}`).join('\n')}`,
    );
  }
  lines.push(
    `When the conversation is done, call end_call with one of the outcomes ${outcomesOf(call, agent).join(', ')}, the answers and a short note, then say goodbye.`,
    'To put the person through to another phone, call transfer_call. To take down a message for the company, call take_message.',
  );
  const others = speaking.languages.filter((l) => l !== speaking.language);
  if (others.length) {
    lines.push(
      `You speak ${speaking.language}. When the person speaks or asks for ${others.join(', ')}, call switch_language with it before your first words in it.`,
    );
  }
  return lines.join('\n');
}

/** What the agent said in a turn. */
const said = (turn: TurnResult): string => turn.messages.join(' ').trim();

/** What reading the call's row again found, while the agent was being asked. */
type Look = 'unchanged' | 'steered' | 'machine' | 'ended';

class CallSession extends BridgingCall {
  private tenant!: Tenant;
  private agent!: Agent;
  private conversation: Conversation | null = null;
  /** The voice the call speaks with (call-voice.ts). */
  private voice!: Voice;
  /** The conversation's messages, kept here: the Agent API hides voice conversations, so this session is their only writer. */
  private readonly history: StoredMessage[] = [];
  private steered = 0;

  constructor(ctx: Ctx, gateway: Gateway, line: Line, row: CallRow, owner: string, signal: Signal, next?: Promise<LineEvent>) {
    super(ctx, gateway, line, row, owner, signal, next);
    this.steered = row.steering.length;
  }

  /** Apply `event` while still holding the call; false when it moved on (hung up by API, lease lost). */
  private async applyEvent(event: CallEvent, patch: Parameters<typeof applyCallEvent>[3]): Promise<boolean> {
    const moved = await applyCallEvent(this.ctx, this.row.id, event, patch, this.owner);
    if (moved) this.row = moved;
    return moved !== null;
  }

  private async end(event: CallEvent, cause: string): Promise<void> {
    // Recorded first: the far end's report of the hang-up (a carrier's status callback) then finds the call ended.
    await this.applyEvent(event, ending(this.row, this.ctx.clock.now(), cause));
    await this.line.hangup();
  }

  /** Stores a message of the call's conversation; it is in the agent's next prompt at once. */
  private async remember(role: StoredMessage['role'], content: string, metadata: Record<string, unknown> | null = null): Promise<void> {
    await appendMessages(this.ctx, this.conversation!.id, [this.addToHistory(unstoredMessage(role, content, metadata))]);
  }

  /** `message` is in the agent's next prompt at once; its caller stores it. */
  private addToHistory(message: UnstoredMessage): UnstoredMessage {
    this.history.push({ ...message, createdAt: this.ctx.clock.now().toISOString() });
    return message;
  }

  /**
   * The person's words, in the transcript and the conversation (one transaction, one round trip),
   * which reads again what others change on the row as it stores them: whether the call is still ours.
   */
  private async storeHeard(text: string): Promise<boolean> {
    // This reads the row, as stillOurs does: the changes announced so far are covered by it.
    this.signal.markRead();
    const changed = await storeCallerWords(this.ctx, this.turnOfCall(), text, this.addToHistory(unstoredMessage('user', text)));
    return this.isOurs({ ...this.row, ...changed });
  }

  /** Where this call's turns write: the call and its agent's conversation. */
  private turnOfCall(): CallTurn {
    return { callId: this.row.id, conversationId: this.conversation!.id };
  }

  /** Steering written since the last look: instructions join the agent's context, `say` is spoken now. */
  private async applySteering(): Promise<void> {
    if (!this.conversation) return;
    for (const item of this.row.steering.slice(this.steered)) {
      this.steered++;
      if (item.instruction) {
        await this.remember('system', `STEER (from the operator, follow it): ${item.instruction}`, { steer: true });
      }
      if (item.say) {
        await this.remember('assistant', item.say, { steer: true, agentId: this.agent.id });
        await this.speak(item.say);
      }
    }
  }

  /** The call's agent, and its conversation: a new one, or the call's own with its history when the agent resumes it. */
  private async meetAgent(): Promise<Conversation> {
    const { ctx, row } = this;
    this.tenant = await getTenant(ctx, row.tenant_id);
    this.agent = await getUsableAgent(ctx, row.tenant_id, row.agent_id!);
    this.voice = await voiceOfCall(ctx, row);
    if (row.conversation_id) {
      this.conversation = await accountConversation(ctx, row.tenant_id, row.conversation_id, 'voice');
      this.history.push(...(await listMessages(ctx, row.conversation_id)));
    } else {
      this.conversation = await createConversation(ctx, {
        tenantId: row.tenant_id,
        agentId: this.agent.id,
        contactId: null,
        channel: 'voice',
      });
    }
    return this.conversation;
  }

  /** Back on the line after the carrier's <Dial> of its transfer went unanswered: the agent, told in its conversation, speaks first. */
  async resume(): Promise<void> {
    await this.meetAgent();
    if (await this.respond()) return this.run();
    await this.line.hangup();
  }

  /** An answered inbound call handed to the agent: it says the greeting, then the caller speaks. */
  async greet(greeting: string): Promise<void> {
    const conversation = await this.meetAgent();
    this.row = await updateCall(this.ctx, this.row.id, { conversation_id: conversation.id });
    await this.sayGreeting(greeting);
  }

  private async answered(machine: boolean): Promise<boolean> {
    const { ctx, row } = this;
    const conversation = await this.meetAgent();
    const now = ctx.clock.now();
    const deadline = new Date(now.getTime() + row.max_duration_sec * 1000);
    const leaseEnd = row.lease_until ?? deadline;
    const moved = await this.applyEvent('answer', {
      answered_at: now,
      handler: 'ai',
      conversation_id: conversation.id,
      // Also due when max_duration_sec runs out: the sweep hangs up then.
      due_at: deadline < leaseEnd ? deadline : leaseEnd,
    });
    if (!moved) return false;
    if (machine) {
      await this.voicemail();
      return false;
    }
    if (this.row.greeting) await this.sayGreeting(this.row.greeting);
    return true;
  }

  /** A greeting (an inbound number's, a campaign's), said first; the agent's conversation holds it as its own words. */
  private async sayGreeting(greeting: string): Promise<void> {
    await this.remember('assistant', greeting, { agentId: this.agent.id });
    await this.speak(greeting);
  }

  /** The language the call is in and the switch to another: written to the row (a new relay session starts in it), then said to the line. */
  private speaking(): Speaking {
    return {
      language: this.row.language ?? this.voice.language,
      languages: catalogueLanguages(this.ctx.config),
      switchTo: async (language) => {
        this.row = await updateCall(this.ctx, this.row.id, { language });
        this.line.switchLanguage?.(language);
      },
    };
  }

  /** The agent handed the call to another: that one conducts it from now on, and the call's events and messages name it. */
  private async handedTo(agentId: string): Promise<void> {
    this.agent = await getUsableAgent(this.ctx, this.row.tenant_id, agentId);
    this.row = await updateCall(this.ctx, this.row.id, { agent_id: agentId });
  }

  /**
   * One agent turn; returns what the agent decided, or null when the call is over (ended meanwhile,
   * or the agent failed). A streaming line speaks the words as the model writes them; an utterance
   * the far end interrupts stops the model at once (what was heard arrives as a line event).
   * `look`, settling while the model is asked, must find the call unchanged before anything is said
   * or stored; otherwise the model is stopped and the turn answers null, leaving the call as it is.
   */
  private async turn(machine: boolean, look?: Promise<Look>): Promise<CallDecision | null> {
    const decision: CallDecision = {};
    const voice = this.line.streaming;
    const utterance = voice?.utterance();
    const changed = new AbortController();
    const stop = utterance ? AbortSignal.any([utterance, changed.signal]) : changed.signal;
    const looked = look?.then((seen) => {
      if (seen === 'unchanged') return;
      changed.abort();
      throw new Error(`the call was ${seen} while the agent was asked`);
    });
    // Awaited by the turn unless the model fails first; judged below either way.
    looked?.catch(() => {});
    const charge = new TurnCharge(this.ctx, this.row.tenant_id, { turnKind: 'voice', agentId: this.agent.id }, () => this.row.id);
    const speaking = this.speaking();
    try {
      const turn = await runTurn(this.ctx, {
        tenant: this.tenant,
        agent: this.agent,
        conversation: this.conversation!,
        history: this.history,
        beforeEmit: looked,
        signal: stop,
        turnSystemMessage: instructions(this.row, this.agent, speaking, machine),
        extraTools: () => callTools(this.ctx, { call: this.row, agent: this.agent, tenant: this.tenant, speaking }, decision, machine),
        charge,
        // The reply and the turn's charge, and a streamed reply's transcript line (heard as the model wrote it): one transaction.
        storeLast: async (last, turn, unstored) => {
          const reply = [...unstored, unstoredMessage('assistant', last.content, last.metadata)].map((m) => this.addToHistory(m));
          await storeAgentReply(this.ctx, this.turnOfCall(), reply, voice ? said(turn) : '', charge);
        },
        ...(voice && { emit: (e: TurnEvent) => e.type === 'content' && !stop.aborted && voice.piece(e.content) }),
      });
      if (turn.handoff) await this.handedTo(turn.handoff.agentId);
      this.conversation = turn.conversation;
      // Hung up (or the lease lost) while the agent was thinking, as announced: nothing more is said.
      if (this.signal.hasUnreadChange && !(await this.stillOurs())) return null;
      const words = said(turn);
      if (voice) await voice.end();
      else if (words) await this.speak(words);
      return decision;
    } catch (err) {
      await look?.catch(() => {});
      if (changed.signal.aborted) return null;
      if (utterance?.aborted) return decision;
      this.ctx.log.error({ err, callId: this.row.id }, 'the agent failed on a call; hanging up');
      await this.end('fail', 'agent_error');
      return null;
    }
  }

  /** The far end cut the agent short: the transcript keeps what was heard, and the agent learns it. */
  private async interrupted(heard: string): Promise<void> {
    await reviseLastAgentWords(this.ctx, this.row.id, heard);
    if (this.conversation) {
      await this.remember('system', `The caller interrupted you. Of your last reply they heard only: "${heard}"`, { interrupted: true });
    }
  }

  /** The carrier's detection found an answering machine after the call was answered as a person: the voicemail path. */
  private async machineFound(): Promise<false> {
    await this.voicemail();
    return false;
  }

  private async voicemail(): Promise<void> {
    // A campaign leaves a message on its last attempt only; before that the machine is hung up on.
    const decision = this.row.campaign && !this.row.campaign.voicemail ? {} : await this.turn(true);
    if (!decision) return;
    const message = decision.voicemail;
    // DECISIONS.md "Outbound voicemail": the call's outcome, not a message for the account.
    if (message) await this.speak(message);
    await updateCall(this.ctx, this.row.id, {
      result: message
        ? { outcome: 'voicemail', answers: {}, note: 'Left a voicemail' }
        : { outcome: 'no-answer', answers: {}, note: 'An answering machine took the call; no message was left' },
    });
    await this.end('hang_up', 'agent_hangup');
  }

  /**
   * The person said something: the agent answers. It is asked at once, while the words are stored
   * and the row is read again; a hang-up or steering found then comes first. False when the call is over.
   */
  private async heard(text: string): Promise<boolean> {
    // The row changed since it was last acted on (steered while the agent spoke): it is read, and acted on, first.
    const changed = this.signal.hasUnreadChange || this.row.steering.length > this.steered;
    const stored = this.storeHeard(text);
    if (changed) {
      if (!(await stored)) return false;
      if (this.row.answered_by_machine) return this.machineFound();
      await this.applySteering();
      return this.respond();
    }
    const look = stored.then(
      (ours): Look =>
        !ours ? 'ended' : this.row.answered_by_machine ? 'machine' : this.row.steering.length > this.steered ? 'steered' : 'unchanged',
    );
    const decision = await this.turn(false, look);
    // A write that failed has failed the turn, which said so and ended the call.
    const seen = await look.catch(() => 'unchanged' as const);
    if (seen === 'unchanged') return this.actOn(decision);
    if (seen === 'ended') return false;
    if (seen === 'machine') return this.machineFound();
    await this.applySteering();
    return this.respond();
  }

  /** The agent's turn, after which it may end or transfer the call. False when the call is over. */
  private async respond(): Promise<boolean> {
    return this.actOn(await this.turn(false));
  }

  /** Acts on what the agent decided in its turn. False when the call is over. */
  private async actOn(decision: CallDecision | null): Promise<boolean> {
    if (!decision) return false;
    if (decision.end) {
      await this.end('hang_up', 'agent_hangup');
      return false;
    }
    if (decision.transfer) return this.transfer(decision.transfer);
    return true;
  }

  /**
   * Ring the agent's transfer target from the account's number. Answered: the person is bridged to it
   * until either hangs up. Otherwise ai.transfer says how it went and the agent, told, carries on.
   */
  private async transfer(transfer: Transfer): Promise<boolean> {
    if (this.line.handOff) {
      // The carrier dials the target itself; its <Dial> reports how it went (api/voice/carrier.ts).
      await this.line.handOff(transfer);
      return false;
    }
    const ours = this.row.direction === 'inbound' ? this.row.to_number : this.row.from_number;
    const far = await this.gateway.dial({ callId: this.row.id, from: ours, to: transfer.target });
    let cancel = () => {};
    const ringOut = new Promise<void>((resolve) => (cancel = this.ctx.clock.setTimer(TRANSFER_RING_SEC * 1000, resolve)));
    const rung = await this.ring(far, ringOut).finally(() => cancel());
    if (rung.type === 'answered') {
      const bridged = await connectTransfer(this.ctx, this.row, transfer);
      // Hung up through the API as the target answered.
      if (!bridged) {
        await far.hangup();
        return false;
      }
      this.row = bridged;
      await this.bridge(far, 'transfer');
      return false;
    }
    await far.hangup();
    if (rung.type === 'gone') return false;
    const status = transferStatus(rung);
    await enqueueCallEvent(this.ctx, this.row, 'ai.transfer', { ai: { transfer: { ...transfer, status } } });
    if (rung.type === 'caller_left') {
      await this.ended(rung.event);
      return false;
    }
    await this.remember('system', transferNotAnswered(transfer, status));
    return this.respond();
  }

  /** Handle one line event; false when the call is over for this loop. */
  private async onLine(event: LineEvent): Promise<boolean> {
    const now = this.ctx.clock.now();
    switch (event.type) {
      case 'ringing':
        // The carrier's ringing report may have moved the call on first: still ours, it goes on.
        return (await this.applyEvent('ring', { ringing_at: now })) || this.stillOurs();
      case 'answered':
        return this.answered(event.machine);
      case 'speech':
        return this.heard(event.text);
      case 'keys':
        // Keys pressed reach the agent as the caller's words do.
        return this.heard(`[pressed ${event.keys}]`);
      case 'interrupted':
        await this.interrupted(event.heard);
        return true;
      case 'ended':
        await this.applyEvent(endEventOf(event.cause), ending(this.row, now, event.cause));
        return false;
      case 'lost':
        return false;
    }
  }

  async run(): Promise<void> {
    for (;;) {
      const woke = await Promise.race([this.next.then((event) => ({ event })), this.signal.wait().then(() => null)]);
      if (woke) {
        this.next = this.line.next();
        if (await this.onLine(woke.event)) continue;
        break;
      }
      // The row changed: hung up or steered by the API, past its max duration, the lease lost, or a machine found.
      if (!(await this.stillOurs())) break;
      // Found before this loop answered the call (it waits for the relay's), the answer takes the voicemail path itself.
      if (this.row.answered_by_machine && this.conversation) {
        await this.machineFound();
        break;
      }
      await this.applySteering();
    }
    await this.line.hangup();
  }
}

/** A call the carrier placed and answered, its relay bound to `owner`: the agent converses on `line` until it ends. */
export async function conductRelayed(ctx: Ctx, gateway: Gateway, line: Line, row: CallRow, owner: string, signal: Signal): Promise<void> {
  // The agent's conversation goes on: its transfer, which the carrier dialled, was not answered.
  if (isOnTheLine(row.status) && row.conversation_id) return new CallSession(ctx, gateway, line, row, owner, signal).resume();
  // Answered before (the carrier played other routing steps first): the agent greets the caller now.
  if (isOnTheLine(row.status)) return converse(ctx, gateway, line, line.next(), row, owner, signal, row.greeting!);
  await new CallSession(ctx, gateway, line, row, owner, signal).run();
}

/** The agent of an answered inbound call (its row names the agent) converses until the call ends. */
export async function converse(
  ctx: Ctx,
  gateway: Gateway,
  line: Line,
  next: Promise<LineEvent>,
  row: CallRow,
  owner: string,
  signal: Signal,
  greeting: string,
): Promise<void> {
  const session = new CallSession(ctx, gateway, line, row, owner, signal, next);
  await session.greet(greeting);
  await session.run();
}

/** Run a call claimed by `owner`: dial it when queued, then write its summary and result once it ended. */
export async function runCall(ctx: Ctx, gateway: Gateway, row: CallRow, owner: string): Promise<void> {
  if (notRungYet(row.status)) {
    const signal = new Signal();
    const unsubscribe = await ctx.notifier.subscribe(CHANNELS.calls, (payload) => {
      if (payload === row.id || payload === '') signal.noteChange();
    });
    let line: Line | null = null;
    try {
      line = await gateway.dial({ callId: row.id, from: row.from_number, to: row.to_number });
      if (line.carrierSid) await updateCall(ctx, row.id, { carrier_sid: line.carrierSid });
      await new CallSession(ctx, gateway, line, row, owner, signal).run();
    } catch (err) {
      const refused = err instanceof CarrierFailure;
      if (refused) ctx.log.warn({ callId: row.id, err: err.message }, 'the carrier did not place the call');
      else ctx.log.error({ err, callId: row.id }, 'call failed unexpectedly; hanging up');
      await line?.hangup();
      const current = await callById(ctx.db, row.id);
      if (current) await applyCallEvent(ctx, row.id, 'fail', ending(current, ctx.clock.now(), refused ? err.hangupCause : 'error'), owner);
    } finally {
      unsubscribe();
    }
  }
  await finalizeCall(ctx, row.id, owner);
  await unleaseCall(ctx, row.id, owner);
}
