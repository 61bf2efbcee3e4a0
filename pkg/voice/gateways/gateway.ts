// The telephone network as the call controller sees it: dial a number, speak, hang up, and the
// events coming back from the line. A real carrier plugs in by implementing Gateway.

/** Why the far end ended the line. */
export type EndCause = 'busy' | 'no-answer' | 'failed' | 'callee_hangup';

export type LineEvent =
  | { type: 'ringing' }
  /** machine: an answering machine took the call (speak after the beep). */
  | { type: 'answered'; machine: boolean }
  | { type: 'speech'; text: string }
  | { type: 'ended'; cause: EndCause };

export interface Line {
  /** The next event from the far end; waits until there is one. */
  next(): Promise<LineEvent>;
  say(text: string): Promise<void>;
  /** End the line from our side; no events follow. */
  hangup(): Promise<void>;
}

interface DialRequest {
  callId: string;
  from: string;
  to: string;
}

export interface Gateway {
  name: string;
  dial(req: DialRequest): Promise<Line>;
}

/** Events in arrival order, handed out one `next()` at a time. */
export class EventQueue<T> {
  private readonly items: T[] = [];
  private waiter: ((item: T) => void) | null = null;

  push(item: T): void {
    const waiter = this.waiter;
    if (waiter) {
      this.waiter = null;
      waiter(item);
    } else this.items.push(item);
  }

  next(): Promise<T> {
    const item = this.items.shift();
    if (item !== undefined) return Promise.resolve(item);
    return new Promise((resolve) => (this.waiter = resolve));
  }
}
