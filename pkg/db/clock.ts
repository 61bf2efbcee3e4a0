// The deployment's one time: the database's. A replica takes the database's clock once a minute
// and counts forward from it on its own monotonic clock, so a step of its wall clock (NTP, a VM
// resumed, an operator) never moves its leases or due times, and replicas agree on them.
import type { Knex } from 'knex';
import { systemClock, type Clock } from '../clock.js';
import type { Logger } from '../log.js';

const SYNC_EVERY_MS = 60_000;
/** Readings per sync, the one with the shortest round trip kept. */
const READINGS = 3;
/** A replica's wall clock this far off the database's is logged: it is ignored, but worth fixing. */
const SKEW_WARN_MS = 2_000;

export class DatabaseClock implements Clock {
  /** The database's time at `mono` (performance.now()) on this process's monotonic clock. */
  private wall = Date.now();
  private mono = performance.now();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly db: Knex,
    private readonly log: Logger,
  ) {}

  now(): Date {
    return new Date(this.wall + (performance.now() - this.mono));
  }

  setTimer(ms: number, fn: () => void): () => void {
    return systemClock.setTimer(ms, fn);
  }

  /** Takes the database's time now and once a minute; until the first answer (or while unreachable), the last reading or the wall clock. */
  start(): void {
    void this.sync();
    this.timer = setInterval(() => void this.sync(), SYNC_EVERY_MS).unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  private async sync(): Promise<void> {
    try {
      // The reading with the shortest round trip: the first may include opening a connection,
      // which would put the database's reading far from the round trip's middle.
      let best = { trip: Infinity, wall: 0, mono: 0 };
      for (let i = 0; i < READINGS; i++) {
        const sent = performance.now();
        // Milliseconds with their fraction: a timestamp would come back cut to the millisecond.
        const { rows } = await this.db.raw('select extract(epoch from clock_timestamp())::float8 * 1000 as ms');
        const received = performance.now();
        if (received - sent < best.trip) best = { trip: received - sent, wall: (rows[0].ms as number) + (received - sent) / 2, mono: received };
      }
      this.wall = best.wall;
      this.mono = best.mono;
      const skew = Date.now() - this.now().getTime();
      if (Math.abs(skew) > SKEW_WARN_MS) this.log.warn({ skewMs: Math.round(skew) }, "this replica's clock is off the database's; the database's is kept");
    } catch (err) {
      this.log.warn({ err: (err as Error).message }, "reading the database's clock failed; counting on from the last reading");
    }
  }
}
