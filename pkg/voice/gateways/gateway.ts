// The telephone network as the call controller sees it: dial a number, speak, hang up, and the
// events coming back from the line. A real carrier plugs in by implementing Gateway.
import type { CallerScript, Transfer } from '../../store/calls/row.js';

/** Why the far end ended the line. */
export type EndCause = 'busy' | 'no-answer' | 'failed' | 'callee_hangup' | 'caller_hangup';

export type LineEvent =
  | { type: 'ringing' }
  /** machine: an answering machine took the call (speak after the beep). */
  | { type: 'answered'; machine: boolean }
  | { type: 'speech'; text: string }
  /** Keys pressed on the far end's keypad. */
  | { type: 'keys'; keys: string }
  /** The far end cut the agent short: `heard` is what was said of its last words before that. */
  | { type: 'interrupted'; heard: string }
  | { type: 'ended'; cause: EndCause }
  /** The line left this process without an end: the carrier reports how the call ended. */
  | { type: 'lost' };

/** A line that speaks the agent's words as the model writes them (a carrier's relay). */
export interface StreamingVoice {
  /** The signal of the next utterance: aborted when the far end interrupts it. */
  utterance(): AbortSignal;
  piece(text: string): void;
  /** The utterance is complete. */
  end(): Promise<void>;
}

/** What the far end says from its start, as audio (a carrier records the call's leg). */
export interface Recorder {
  /** It holds as much as it may: nothing more is recorded. */
  readonly full: boolean;
  /** Stop recording: what was recorded, as a WAV (PCM). */
  stop(): Promise<Buffer>;
}

export interface Line {
  /** The next event from the far end; waits until there is one. */
  next(): Promise<LineEvent>;
  say(text: string): Promise<void>;
  /** Record what the far end says from now on, at most `maxSec` seconds of it. */
  record(maxSec: number): Recorder;
  /** End the line from our side; no events follow. */
  hangup(): Promise<void>;
  /** Puts the person through to `transfer`'s target by the carrier itself, ending this line (a relay call). */
  handOff?(transfer: Transfer): Promise<void>;
  /** Speaks and hears `language` from now on, as the carrier's voice of it (a relay line); a line without text-to-speech has none. */
  switchLanguage?(language: string): void;
  /** The carrier's id of the call, when a real carrier placed it. */
  readonly carrierSid?: string;
  readonly streaming?: StreamingVoice;
}

export interface DialRequest {
  callId: string;
  from: string;
  to: string;
}

export type { CallerScript };

interface PickUpRequest {
  callId: string;
  from: string;
  to: string;
  /** The simulated network's caller; null for a real one. */
  caller: CallerScript | null;
}

export interface Gateway {
  name: string;
  dial(req: DialRequest): Promise<Line>;
  /** Take the line of a call ringing in on one of our numbers. */
  pickUp(req: PickUpRequest): Promise<Line>;
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
