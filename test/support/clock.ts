// A clock tests set and advance. Its timers fire only when it is moved past their time (one due
// already fires on the next turn of the event loop, as a zero-delay setTimeout does).
import type { Clock } from '../../pkg/clock.js';

interface Timer {
  due: number;
  fn: () => void;
}

export class ManualClock implements Clock {
  private current: number;
  private timers: Timer[] = [];

  constructor(start: Date = new Date()) {
    this.current = start.getTime();
  }

  now(): Date {
    return new Date(this.current);
  }

  setTimer(ms: number, fn: () => void): () => void {
    const timer = { due: this.current + Math.max(0, ms), fn };
    this.timers.push(timer);
    if (timer.due <= this.current) setImmediate(() => this.fireDue());
    return () => {
      this.timers = this.timers.filter((t) => t !== timer);
    };
  }

  /** How many timers are waiting for the clock to move. */
  get waiting(): number {
    return this.timers.length;
  }

  set(to: Date): void {
    this.current = to.getTime();
    this.fireDue();
  }

  advance(ms: number): void {
    this.set(new Date(this.current + ms));
  }

  /** Fires the timers whose time has come, earliest first. */
  private fireDue(): void {
    const due = this.timers.filter((t) => t.due <= this.current).sort((a, b) => a.due - b.due);
    this.timers = this.timers.filter((t) => t.due > this.current);
    for (const timer of due) timer.fn();
  }
}
