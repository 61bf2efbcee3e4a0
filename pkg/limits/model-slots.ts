// The deployment-wide cap on simultaneous model calls (SWITCHBOARD_MODEL_CONCURRENCY): a turn (or a
// lone model call) holds a lease while it runs; one that finds none free waits for one, bounded.
import { randomUUID } from 'node:crypto';
import { sleep } from '../clock.js';
import type { Logger } from '../log.js';
import type { Metrics } from '../metrics/index.js';
import { leaseStore, type Lease, type LeaseOptions } from './leases.js';

/** A slot held; `release` may be called more than once. */
export interface ModelSlot {
  release(): void;
}

export interface ModelSlots {
  /** Waits for a free slot; null when none came free in time or `signal` aborted. */
  acquire(signal?: AbortSignal): Promise<ModelSlot | null>;
}

// A waiter looks again this soon, doubling up to the most: a slot freed on another replica is seen
// within POLL_MAX_MS, one freed on this replica at once.
const POLL_MIN_MS = 20;
const POLL_MAX_MS = 500;

type Options = Omit<LeaseOptions, 'prefix' | 'scope'> & {
  log: Logger;
  metrics: Metrics;
  /** Simultaneous model calls across the deployment; 0: no cap. */
  max: number;
  /** How long a call waits for a slot before it fails. */
  waitMs: number;
};

const unlimited: ModelSlot = { release: () => {} };

export function createModelSlots(opts: Options): ModelSlots {
  const { clock, log, metrics, max, waitMs, leaseMs } = opts;
  if (max === 0) return { acquire: async () => unlimited };
  const store = leaseStore({ ...opts, prefix: 'sb:model', scope: 'model_slots' });
  const held = new Set<Lease>();
  /** Waiters of this replica, woken when one of its slots is released. */
  const wakers = new Set<() => void>();

  // One batched renewal of every slot this replica holds, while it holds any.
  let renewal: (() => void) | null = null;
  const renewSoon = () => {
    if (renewal || !held.size) return;
    renewal = clock.setTimer(leaseMs / 3, () => {
      store
        .renew([...held])
        .catch((err: Error) => log.warn({ err: err.message }, 'could not renew model slots; they run out unless renewed later'))
        .finally(() => {
          renewal = null;
          renewSoon();
        });
    });
  };

  const slot = (lease: Lease): ModelSlot => {
    let released = false;
    return {
      release() {
        if (released) return;
        released = true;
        held.delete(lease);
        store
          .release(lease)
          .catch((err: Error) => log.warn({ err: err.message }, 'could not release a model slot; its lease will expire'))
          .finally(() => {
            for (const wake of wakers) wake();
          });
      },
    };
  };

  const observe = (started: number, result: 'acquired' | 'timed_out' | 'aborted') =>
    metrics.modelSlotWait.observe({ result }, (clock.now().getTime() - started) / 1000);

  return {
    async acquire(signal) {
      const lease = { group: 'slots', id: randomUUID() };
      const started = clock.now().getTime();
      for (let pollMs = POLL_MIN_MS; ; pollMs = Math.min(2 * pollMs, POLL_MAX_MS)) {
        if (await store.acquire(lease, max)) {
          held.add(lease);
          renewSoon();
          observe(started, 'acquired');
          return slot(lease);
        }
        const left = started + waitMs - clock.now().getTime();
        if (left <= 0 || signal?.aborted) {
          observe(started, signal?.aborted ? 'aborted' : 'timed_out');
          return null;
        }
        const woken = new AbortController();
        const wake = () => woken.abort();
        wakers.add(wake);
        await sleep(clock, Math.min(pollMs, left), signal ? AbortSignal.any([signal, woken.signal]) : woken.signal);
        wakers.delete(wake);
      }
    },
  };
}
