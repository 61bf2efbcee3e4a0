// An inbound call on the line: the platform answers it with its number's routing and follows the
// steps (DECISIONS.md "Routing"), each one reached announced with call.updated, until the call ends.
import type { Ctx } from '../../context.js';
import { CHANNELS } from '../../db/notify.js';
import { callById } from '../../store/calls/get.js';
import { unleaseCall } from '../../store/calls/release.js';
import type { CallRow } from '../../store/calls/row.js';
import { appendTranscript } from '../../store/calls/transcript.js';
import { findNumber } from '../../store/phone-numbers.js';
import { releaseMember, type Queue, type QueueMember } from '../../store/queues.js';
import { keepVoicemail, MAX_VOICEMAIL_SEC } from '../../messages/voicemail.js';
import type { Gateway, Line, LineEvent } from '../gateways/index.js';
import { BridgingCall } from '../bridge.js';
import { applyCallEvent, ending } from '../events.js';
import { finalizeCall } from '../finalize.js';
import { converse } from '../run.js';
import { Signal } from '../signal.js';
import { askForStep } from './ask-webhook.js';
import { menuChoice, menuPrompt, menuTriesAgain } from './menu-keys.js';
import { nextMember } from './queue-members.js';
import { enterQueue, leaveQueue } from './queue-events.js';
import { handlerOf, reachStep } from './reach.js';
import { mailboxOfStep, queueOfStep } from './step-targets.js';
import type { RoutingStep } from './steps.js';

/** Said when an ai step names no greeting. */
export const DEFAULT_GREETING = 'Hello, how can I help you?';

/** A voicemail ends after this much silence, as a recorder's timeout does, or once MAX_VOICEMAIL_SEC are recorded. */
const VOICEMAIL_SILENCE_MS = 5000;

type Heard = LineEvent | { type: 'timeout' } | { type: 'gone' };

class InboundCall extends BridgingCall {
  /** The caller's next event, a timeout after `ms` on the process's clock, or gone when the call ended elsewhere. */
  private async listen(ms: number): Promise<Heard> {
    let cancel = () => {};
    const timeout = new Promise<Heard>((resolve) => (cancel = this.ctx.clock.setTimer(ms, () => resolve({ type: 'timeout' }))));
    try {
      for (;;) {
        const heard = await Promise.race([this.next, timeout, this.signal.wait().then(() => null)]);
        if (heard === null) {
          if (await this.stillOurs()) continue;
          return { type: 'gone' };
        }
        if (heard.type !== 'timeout') this.next = this.line.next();
        return heard;
      }
    } finally {
      cancel();
    }
  }

  /** Answer the call with its first step. False when it had ended meanwhile. */
  async answer(step: RoutingStep): Promise<boolean> {
    const moved = await applyCallEvent(
      this.ctx,
      this.row.id,
      'answer',
      { answered_at: this.ctx.clock.now(), ...handlerOf(step) },
      this.owner,
    );
    if (!moved) return false;
    this.row = moved;
    return true;
  }

  /** Follow `step` to the end of the call; `reached`: its call.updated was already sent (with the answer). */
  async follow(step: RoutingStep, reached = false): Promise<void> {
    if (!reached) {
      const moved = await reachStep(this.ctx, this.row, handlerOf(step));
      // Hung up through the API while the step was chosen: the call is over.
      if (!moved) return;
      this.row = moved;
    }
    switch (step.type) {
      case 'ai':
        return converse(this.ctx, this.gateway, this.line, this.next, this.row, this.owner, this.signal, step.greeting ?? DEFAULT_GREETING);
      case 'menu':
        return this.menu(step);
      case 'webhook':
        return this.follow((await askForStep(this.ctx, this.row, step.url)) ?? step.fallback);
      case 'transfer':
        return this.transfer(step.to);
      case 'queue':
        return this.queue(step.queue_id);
      case 'voicemail':
        return this.voicemail(step.mailbox_id);
    }
  }

  /** Say the prompt and wait for a key or a word; after `retries` more tries without one, the fallback. */
  private async menu(step: Extract<RoutingStep, { type: 'menu' }>): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      await this.speak(menuPrompt(step, attempt));
      const heard = await this.listen(step.timeout_sec * 1000);
      if (heard.type === 'ended' || heard.type === 'gone') return this.ended(heard);
      if (heard.type === 'speech' || heard.type === 'keys') {
        const chosen = await menuChoice(this.ctx, this.row.id, step, heard);
        if (chosen) return this.follow(chosen);
      }
      if (!menuTriesAgain(step, attempt)) return this.follow(step.fallback);
    }
  }

  /** The mailbox's greeting, then what the caller says until silence or hanging up is left as a voicemail. */
  private async voicemail(mailboxId: string): Promise<void> {
    const mailbox = await mailboxOfStep(this.ctx, this.row.tenant_id, mailboxId);
    if (!mailbox) return this.hangUp('mailbox_unavailable');
    // Recording from the greeting on, as a recorder that takes whatever is said after it starts.
    const recorder = this.line.record(MAX_VOICEMAIL_SEC);
    await this.speak(mailbox.greeting);
    const said: string[] = [];
    let heard: Heard;
    do {
      heard = await this.listen(VOICEMAIL_SILENCE_MS);
      if (heard.type === 'speech') {
        said.push(heard.text);
        await appendTranscript(this.ctx, this.row.id, { speaker: 'caller', text: heard.text });
      } else if (heard.type !== 'keys') break;
    } while (!recorder.full);
    const wav = await recorder.stop();
    if (heard.type === 'gone') return;
    // Nothing said is a missed call, not a message.
    const text = said.join(' ');
    if (text) {
      await keepVoicemail(
        this.ctx,
        { tenant_id: this.row.tenant_id, call_id: this.row.id, caller: this.row.from_number, summary: text, mailbox_id: mailbox.id },
        wav,
      );
    }
    return heard.type === 'ended' ? this.ended(heard) : this.hangUp('voicemail_recorded');
  }

  /** Bridge the caller to `to` on the network: what one says the other hears, until either hangs up. */
  private async transfer(to: string): Promise<void> {
    return this.bridge(await this.gateway.dial({ callId: this.row.id, from: this.row.to_number, to }), 'transfer');
  }

  /** Keep the caller waiting until `until` settles, the caller hangs up, the wait is over, or the call ended elsewhere. */
  private async hold<T>(until: Promise<T>, waitOver: Promise<'wait_over'>): Promise<T | 'wait_over' | 'gone' | LineEvent> {
    const settled = until.then((value) => ({ side: 'until' as const, value }));
    for (;;) {
      const woke = await Promise.race([
        this.next.then((event) => ({ side: 'caller' as const, event })),
        settled,
        waitOver.then(() => ({ side: 'wait_over' as const })),
        this.signal.wait().then(() => ({ side: 'row' as const })),
      ]);
      if (woke.side === 'until') return woke.value;
      if (woke.side === 'wait_over') return 'wait_over';
      if (woke.side === 'row') {
        if (await this.stillOurs()) continue;
        return 'gone';
      }
      this.next = this.line.next();
      if (woke.event.type === 'ended') return woke.event;
    }
  }

  /** The next member to ring, taken for this caller: waits while every one left is on another caller's call; null when none is left. */
  private async nextMember(
    queue: Queue,
    rung: ReadonlySet<string>,
    waitOver: Promise<'wait_over'>,
  ): Promise<QueueMember | null | 'wait_over' | 'gone' | LineEvent> {
    const abort = new AbortController();
    const taking = nextMember(this.ctx, queue, this.row.id, rung, abort.signal);
    const next = await this.hold(taking, waitOver).finally(() => abort.abort());
    const taken = await taking;
    // The caller left while a member was being taken: the member is free again.
    if (taken && next !== taken) await releaseMember(this.ctx, queue.id, taken.id, this.row.id, { talked: false });
    return next;
  }

  /** Wait in the queue while its available members are rung, longest idle first; the first to answer takes the caller. */
  private async queue(queueId: string): Promise<void> {
    const queue = await queueOfStep(this.ctx, this.row.tenant_id, queueId);
    if (!queue) return this.hangUp('queue_unavailable');
    const entered = await enterQueue(this.ctx, this.row, queue);
    if (!entered) return;
    this.row = entered;
    if (queue.holdMessage) await this.speak(queue.holdMessage);
    let cancel = () => {};
    const waitOver = new Promise<'wait_over'>(
      (resolve) => (cancel = this.ctx.clock.setTimer(queue.maxWaitSec * 1000, () => resolve('wait_over'))),
    );
    const rung = new Set<string>();
    try {
      for (;;) {
        const waited = await this.nextMember(queue, rung, waitOver);
        // Nobody left to ring (or nobody available at all).
        if (waited === null) break;
        let left: 'wait_over' | 'gone' | LineEvent;
        if (typeof waited === 'object' && 'phone' in waited) {
          const member = waited;
          rung.add(member.id);
          const far = await this.gateway.dial({ callId: this.row.id, from: this.row.to_number, to: member.phone });
          const rang = await this.ring(far, waitOver);
          if (rang.type === 'answered') {
            this.row = await leaveQueue(this.ctx, this.row, { type: 'queue.exited', reason: 'answered', member });
            try {
              return await this.bridge(far, 'queue');
            } finally {
              await releaseMember(this.ctx, queue.id, member.id, this.row.id, { talked: true });
            }
          }
          await far.hangup();
          await releaseMember(this.ctx, queue.id, member.id, this.row.id, { talked: false });
          if (rang.type === 'unanswered') continue;
          left = rang.type === 'caller_left' ? rang.event : rang.type;
        } else left = waited;
        if (left === 'wait_over') {
          this.row = await leaveQueue(this.ctx, this.row, { type: 'queue.timeout', reason: 'max_wait' });
          return this.hangUp('queue_timeout');
        }
        await leaveQueue(this.ctx, this.row, { type: 'queue.exited', reason: 'hangup' });
        // Hung up by the API (or the lease lost): the caller left the queue with the call.
        return left === 'gone' ? undefined : this.ended(left);
      }
    } finally {
      cancel();
    }
    this.row = await leaveQueue(this.ctx, this.row, { type: 'queue.timeout', reason: 'no_agents' });
    await this.hangUp('queue_timeout');
  }
}

/** Pick up a call ringing in, claimed by `owner`, and route it; then make it final. */
export async function answerCall(ctx: Ctx, gateway: Gateway, row: CallRow, owner: string): Promise<void> {
  const signal = new Signal();
  const unsubscribe = await ctx.notifier.subscribe(CHANNELS.calls, (payload) => {
    if (payload === row.id || payload === '') signal.noteChange();
  });
  let line: Line | null = null;
  try {
    line = await gateway.pickUp({ callId: row.id, from: row.from_number, to: row.to_number, caller: row.sim_caller });
    const number = await findNumber(ctx.db, row.to_number);
    const routing = number?.tenantId === row.tenant_id ? number.routing : null;
    if (!routing) {
      // Nobody is there to answer a number without routing.
      await line.hangup();
      await applyCallEvent(ctx, row.id, 'no_answer', ending(row, ctx.clock.now(), 'not_routed'), owner);
    } else {
      const call = new InboundCall(ctx, gateway, line, row, owner, signal);
      if (await call.answer(routing)) await call.follow(routing, true);
    }
  } catch (err) {
    ctx.log.error({ err, callId: row.id }, 'inbound call failed unexpectedly; hanging up');
    const current = await callById(ctx.db, row.id);
    if (current) await applyCallEvent(ctx, row.id, 'fail', ending(current, ctx.clock.now(), 'error'), owner);
  } finally {
    await line?.hangup();
    unsubscribe();
  }
  await finalizeCall(ctx, row.id, owner);
  await unleaseCall(ctx, row.id, owner);
}
