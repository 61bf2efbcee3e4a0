// Long polling on NOTIFY: read a row, then read it again on every announcement of its id until it
// has changed as the caller wants or the time runs out.
import { sleep } from '../clock.js';
import type { Ctx } from '../context.js';

interface WatchSpec<T> {
  channel: string;
  id: string;
  seconds: number;
  read: () => Promise<T>;
  /** True when the first read already is final: nothing to wait for. */
  settled: (first: T) => boolean;
  /** True when `current` is the change the caller waits for. */
  changed: (first: T, current: T) => boolean;
}

export async function watchRow<T>(ctx: Pick<Ctx, 'notifier' | 'clock'>, spec: WatchSpec<T>): Promise<T> {
  if (spec.seconds <= 0) return spec.read();
  // A notification that lands while a read is in flight must not be lost: it is remembered here.
  let signalled = false;
  let wake = new AbortController();
  const unsubscribe = await ctx.notifier.subscribe(spec.channel, (payload) => {
    if (payload !== spec.id && payload !== '') return;
    signalled = true;
    wake.abort();
  });
  try {
    // Subscribed before this read, so no change after it can be missed.
    const first = await spec.read();
    if (spec.settled(first)) return first;
    const deadline = ctx.clock.now().getTime() + spec.seconds * 1000;
    const left = () => deadline - ctx.clock.now().getTime();
    let current = first;
    while (!spec.changed(first, current) && left() > 0) {
      if (!signalled) await sleep(ctx.clock, left(), wake.signal);
      signalled = false;
      wake = new AbortController();
      current = await spec.read();
    }
    return current;
  } finally {
    unsubscribe();
  }
}
