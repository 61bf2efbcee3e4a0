// A held call joined to a second line on the network: the far end is rung, and once it answers
// what one says the other hears until either hangs up. Queues, the transfer step and the agent's
// transfers all ring and bridge this way.
import type { Ctx } from '../context.js';
import type { CallRow } from '../store/calls/row.js';
import type { EndCause, Gateway, Line, LineEvent } from './gateways/index.js';
import { applyCallEvent, ending } from './events.js';
import { HeldCall } from './held-call.js';
import type { Signal } from './signal.js';

type Ended = Extract<LineEvent, { type: 'ended' }>;

/** How ringing the far end went: it answered, or ended first (why), the wait ran out, the caller hung up, or the call ended elsewhere. */
export type Rung =
  | { type: 'answered' }
  | { type: 'unanswered'; cause: EndCause }
  | { type: 'wait_over' }
  | { type: 'caller_left'; event: Ended }
  | { type: 'gone' };

export abstract class BridgingCall extends HeldCall {
  constructor(
    ctx: Ctx,
    /** The network the far ends are dialled on. */
    protected readonly gateway: Gateway,
    line: Line,
    row: CallRow,
    owner: string,
    protected readonly signal: Signal,
    /** The caller's next event, asked for once at a time. */
    protected next: Promise<LineEvent> = line.next(),
  ) {
    super(ctx, line, row, owner);
  }

  /** Reads the row again; the changes announced so far are covered by this reading. */
  protected override async stillOurs(): Promise<boolean> {
    this.signal.markRead();
    return super.stillOurs();
  }

  /** The caller hung up (other events: nothing to do): the call is over. */
  protected async ended(event: LineEvent | { type: 'timeout' | 'gone' }): Promise<void> {
    if (event.type === 'ended')
      await applyCallEvent(this.ctx, this.row.id, 'hang_up', ending(this.row, this.ctx.clock.now(), event.cause), this.owner);
  }

  protected async hangUp(cause: string): Promise<void> {
    await this.line.hangup();
    await applyCallEvent(this.ctx, this.row.id, 'hang_up', ending(this.row, this.ctx.clock.now(), cause), this.owner);
  }

  /** Ring `far` until it answers or not, `waitOver` settles, the caller hangs up, or the call ended elsewhere. */
  protected async ring(far: Line, waitOver: Promise<unknown>): Promise<Rung> {
    let farNext = far.next();
    for (;;) {
      const woke = await Promise.race([
        this.next.then((event) => ({ side: 'caller' as const, event })),
        farNext.then((event) => ({ side: 'far' as const, event })),
        waitOver.then(() => ({ side: 'wait_over' as const })),
        this.signal.wait().then(() => ({ side: 'row' as const })),
      ]);
      if (woke.side === 'wait_over') return { type: 'wait_over' };
      if (woke.side === 'row') {
        if (await this.stillOurs()) continue;
        return { type: 'gone' };
      }
      if (woke.side === 'caller') {
        this.next = this.line.next();
        if (woke.event.type === 'ended') return { type: 'caller_left', event: woke.event };
        continue;
      }
      if (woke.event.type === 'answered') return { type: 'answered' };
      if (woke.event.type === 'ended') return { type: 'unanswered', cause: woke.event.cause };
      farNext = far.next();
    }
  }

  /** The caller and `far` hear each other until either hangs up; then the call ends (`<what>_ended` when `far` hung up). */
  protected async bridge(far: Line, what: string): Promise<void> {
    let farNext = far.next();
    let cause = `${what}_ended`;
    for (;;) {
      const woke = await Promise.race([
        this.next.then((event) => ({ side: 'caller' as const, event })),
        farNext.then((event) => ({ side: 'far' as const, event })),
        this.signal.wait().then(() => ({ side: 'row' as const })),
      ]);
      if (woke.side === 'row') {
        // Hung up by the API, or the lease lost: both lines go down.
        if (await this.stillOurs()) continue;
        await far.hangup();
        return;
      }
      if (woke.side === 'caller') {
        this.next = this.line.next();
        if (woke.event.type === 'ended') {
          await far.hangup();
          return this.ended(woke.event);
        }
        if (woke.event.type === 'speech') await far.say(woke.event.text);
        continue;
      }
      farNext = far.next();
      if (woke.event.type === 'ended') {
        if (woke.event.cause !== 'callee_hangup') cause = `${what}_${woke.event.cause}`;
        break;
      }
      if (woke.event.type === 'speech') await this.line.say(woke.event.text);
    }
    await this.hangUp(cause);
  }
}
