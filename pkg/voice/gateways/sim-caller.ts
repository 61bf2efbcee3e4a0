// A simulated caller ringing one of the account's numbers (DECISIONS.md "Trying it without a
// carrier"): after each thing it hears it answers with its next key press while any are left, else
// its next line; '' stays silent; with nothing left it hangs up.
import type { Clock } from '../../clock.js';
import { EventQueue, type CallerScript, type Line, type LineEvent, type Recorder } from './gateway.js';
import { SimRecorder } from './sim-recorder.js';

export class SimCallerLine implements Line {
  private readonly events = new EventQueue<LineEvent>();
  private readonly presses: string[];
  private readonly lines: string[];
  private closed = false;
  private recorder: SimRecorder | null = null;

  constructor(
    script: CallerScript,
    private readonly clock: Clock,
  ) {
    this.presses = [...script.presses];
    this.lines = [...script.lines];
  }

  next(): Promise<LineEvent> {
    return this.events.next();
  }

  /** The caller answers what it heard a moment later, as a person does (not once the line is down). */
  async say(): Promise<void> {
    if (!this.closed) this.clock.setTimer(0, () => this.answer());
  }

  private answer(): void {
    if (this.closed) return;
    const keys = this.presses.shift();
    if (keys !== undefined) {
      if (keys !== '') this.events.push({ type: 'keys', keys });
      return;
    }
    const line = this.lines.shift();
    if (line === undefined) {
      this.closed = true;
      this.events.push({ type: 'ended', cause: 'caller_hangup' });
    } else if (line !== '') {
      this.recorder?.heard(line);
      this.events.push({ type: 'speech', text: line });
    }
  }

  record(maxSec: number): Recorder {
    this.recorder = new SimRecorder(maxSec);
    return this.recorder;
  }

  async hangup(): Promise<void> {
    this.closed = true;
  }
}
