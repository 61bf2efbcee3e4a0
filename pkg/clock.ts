// Time is injected: every due-time decision asks a Clock, and every wait for a due time is one of
// its timers, so tests move time instead of sleeping.
export interface Clock {
  now(): Date;
  /** Calls `fn` once `ms` of this clock's time has passed; the returned function cancels it. */
  setTimer(ms: number, fn: () => void): () => void;
}

export const systemClock: Clock = {
  now: () => new Date(),
  setTimer(ms, fn) {
    const timer = setTimeout(fn, Math.max(0, ms));
    return () => clearTimeout(timer);
  },
};

/** Resolves once `ms` of the clock's time has passed, or as soon as `signal` aborts. */
export function sleep(clock: Clock, ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      cancel();
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const cancel = clock.setTimer(ms, done);
    signal?.addEventListener('abort', done);
  });
}
