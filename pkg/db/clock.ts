// The deployment's one time: the database's. A replica takes the database's clock and counts forward
// from it on its own monotonic clock, so a step of its wall clock (NTP, a VM resumed, an operator)
// never moves its leases or due times, and replicas agree on them: a job one replica makes due now
// is due on the replica that claims it, rather than a timer later.
import type { Knex } from 'knex';
import { systemClock, type Clock } from '../clock.js';
import type { Logger } from '../log.js';

/** How often the reading is taken again, to follow the monotonic clock's drift from the database's. */
const SYNC_EVERY_MS = 60_000;
/** How soon it is taken again while the reading kept is poor (a busy machine, connections being opened), up to RETRIES times in a row. */
const RETRY_MS = 1_000;
const RETRIES = 30;
/** A reading this close to the database's (half its round trip) is good enough for a minute. */
const GOOD_WITHIN_MS = 0.5;
/** How fast a reading grows stale: NTP keeps clocks within a few ppm of each other. */
const DRIFT = 1e-5;
/** Readings per sync, the one with the shortest round trip kept. */
const READINGS = 3;
/** A replica's wall clock this far off the database's is logged: it is ignored, but worth fixing. */
const SKEW_WARN_MS = 2_000;

export class DatabaseClock implements Clock {
  /** The database's time at `mono` (performance.now()) on this process's monotonic clock, and how far off it may be. */
  private wall = Date.now();
  private mono = performance.now();
  private withinMs = Infinity;
  private retried = 0;
  /** The latest time given: a closer reading that puts the clock back holds it there instead. */
  private given = -Infinity;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    private readonly db: Knex,
    private readonly log: Logger,
    /** Tests shorten these. */
    private readonly every = { syncMs: SYNC_EVERY_MS, retryMs: RETRY_MS },
  ) {}

  now(): Date {
    this.given = Math.max(this.given, this.wall + (performance.now() - this.mono));
    return new Date(this.given);
  }

  setTimer(ms: number, fn: () => void): () => void {
    return systemClock.setTimer(ms, fn);
  }

  /** Takes the database's time now and again; until the first answer (or while unreachable), the last reading or the wall clock. */
  start(): void {
    void this.sync();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  /** How far off the reading kept may be by now: half its round trip, and the drift since. */
  private uncertainty(): number {
    return this.withinMs + (performance.now() - this.mono) * DRIFT;
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
        if (received - sent < best.trip)
          best = { trip: received - sent, wall: (rows[0].ms as number) + (received - sent) / 2, mono: received };
      }
      // A poorer reading than the one kept (a slow round trip on a busy machine) would move the clock away from the database's.
      if (best.trip / 2 <= this.uncertainty()) {
        // The wall clock's time, given until the first reading, is no promise: a replica minutes ahead goes back at once.
        if (this.withinMs === Infinity) this.given = -Infinity;
        this.wall = best.wall;
        this.mono = best.mono;
        this.withinMs = best.trip / 2;
      }
      const skew = Date.now() - this.now().getTime();
      if (Math.abs(skew) > SKEW_WARN_MS)
        this.log.warn({ skewMs: Math.round(skew) }, "this replica's clock is off the database's; the database's is kept");
    } catch (err) {
      this.log.warn({ err: (err as Error).message }, "reading the database's clock failed; counting on from the last reading");
    }
    if (this.stopped) return;
    // A database far away is never read that closely: once retried enough, the usual interval.
    const good = this.uncertainty() <= GOOD_WITHIN_MS;
    if (good) this.retried = 0;
    const retry = !good && this.retried++ < RETRIES;
    this.timer = setTimeout(() => void this.sync(), retry ? this.every.retryMs : this.every.syncMs).unref();
  }
}
