// Time is injected: every due-time decision asks a Clock, so tests move time instead of sleeping.
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock tests set and advance. */
export class ManualClock implements Clock {
  private current: number;
  constructor(start: Date = new Date()) {
    this.current = start.getTime();
  }
  now(): Date {
    return new Date(this.current);
  }
  set(to: Date): void {
    this.current = to.getTime();
  }
  advance(ms: number): void {
    this.current += ms;
  }
}
