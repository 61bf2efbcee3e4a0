// The controller manager: runs reconcilers. Each claims due rows under a lease (SKIP LOCKED in its
// SQL), runs them with bounded concurrency, heartbeats their leases, and sleeps until a NOTIFY or
// the earliest due time — never a busy poll. SIGTERM: stop claiming, drain, release the rest.
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import { setImmediate } from 'node:timers/promises';
import { sleep } from '../pkg/clock.js';
import type { Ctx } from '../pkg/context.js';

export interface Claimed {
  id: string;
  /**
   * Runs the row. A run may call `closing` once all that is left of it is its last write, which
   * announces the row: its slot then goes to the next due row while that write is under way (the row
   * stays heartbeated, and a drain waits for it, until the run ends), and the announcement, not the
   * run's end, wakes the loop.
   */
  run(closing: () => void): Promise<void>;
}

/** What one claim took, and how to learn when anything it left is next due. */
interface Claims {
  claimed: Claimed[];
  /**
   * The earliest due time of everything else, work for the sweep included; null when there is none.
   * Asked only when the claim left slots free, once its rows have started.
   */
  nextDue(): Promise<Date | null>;
}

export interface Reconciler {
  name: string;
  /** NOTIFY channel on which changes to this reconciler's rows are announced, each with the row's id (Claimed.id). */
  channel: string;
  /** Runs at once on one replica, for work that waits on I/O far longer than the rest; unset: the manager's concurrency. */
  concurrency?: number;
  /**
   * Set when a row being run changes only in ways that make nothing else due before its run ends
   * (which wakes the loop anyway): announcements about this replica's running rows are then ignored.
   */
  quietWhileRunning?: boolean;
  /**
   * Set when the sweep acts only on rows whose due time has passed: it then runs only once a due
   * time `claim` reported has passed, rather than on every wake.
   */
  sweepsDueRowsOnly?: boolean;
  /** Transitions that need no work (deadlines, lost leases). */
  sweep(ctx: Ctx): Promise<void>;
  /** Claim up to `max` due rows for `owner`. */
  claim(ctx: Ctx, owner: string, leaseMs: number, max: number): Promise<Claims>;
  heartbeat(ctx: Ctx, ids: string[], owner: string, leaseMs: number): Promise<void>;
  /** Give up leases on shutdown: declared lost at once rather than at expiry, their outcomes refused. */
  release(ctx: Ctx, ids: string[], owner: string): Promise<void>;
  /** Register this reconciler's gauges (exported by controller processes only, so never twice). */
  registerMetrics?(ctx: Ctx): void;
}

/** A reconciler's claim made of a one-row claim, repeated while slots are free, and a next-due query. */
export function claimOneByOne(
  claimOne: (ctx: Ctx, owner: string, leaseMs: number) => Promise<Claimed | null>,
  nextDue: (ctx: Ctx) => Promise<Date | null>,
): Reconciler['claim'] {
  return async (ctx, owner, leaseMs, max) => {
    const claimed: Claimed[] = [];
    while (claimed.length < max) {
      const one = await claimOne(ctx, owner, leaseMs);
      if (!one) break;
      claimed.push(one);
    }
    return { claimed, nextDue: () => nextDue(ctx) };
  };
}

// When a claim does not ask when the sweep next has work (it filled the slots, or the loop was woken
// meanwhile and looks again at once), the sweep looks again this often.
const FULL_SWEEP_MS = 1_000;

// Runs started before the loop lets other work in: 1,000 claimed at once, started in one stretch,
// held the event loop for tens of ms.
const RUNS_STARTED_AT_ONCE = 100;

interface ManagerOptions {
  /** Runs at once per reconciler, unless the reconciler sets its own. */
  concurrency: number;
  leaseMs: number;
  graceMs: number;
  /** Longest sleep without a wake-up; only a guard against a lost notification. */
  maxIdleMs?: number;
}

const WOKEN_FIRST = Symbol('woken first');

class Loop {
  private readonly running = new Map<string, Promise<void>>();
  /** Slots taken: running rows not yet closing. */
  private working = 0;
  /** Ends the current sleep (a plain callback: an AbortController's abort makes a DOMException each time). */
  private wakeUp: (() => void) | null = null;
  private pendingWake = false;
  private stopping = false;
  private done: Promise<string[]> | null = null;
  /** When the earliest due time the last claim reported passes, in ms (the sweep may have work then). */
  private dueAt = -Infinity;
  /** While a claim is in flight: rows announced meanwhile, which may be the ones it is claiming. */
  private heardWhileClaiming: Set<string> | null = null;
  /** Running rows whose closing write is under way: its announcement, not yet heard, wakes the loop. */
  private readonly closing = new Set<string>();

  constructor(
    private readonly ctx: Ctx,
    private readonly reconciler: Reconciler,
    private readonly owner: string,
    private readonly opts: Required<ManagerOptions>,
  ) {}

  wake(): void {
    this.pendingWake = true;
    this.wakeUp?.();
  }

  /** A change to row `id` was announced. */
  notified(id: string): void {
    // A closing write's announcement wakes the loop: that write is in, and may have made work due.
    const closed = this.closing.delete(id);
    if (this.reconciler.quietWhileRunning && !closed) {
      if (this.running.has(id)) return;
      // A claim's own announcement can arrive before its result: decided once the result is in.
      if (this.heardWhileClaiming && id) return void this.heardWhileClaiming.add(id);
    }
    this.wake();
  }

  start(): void {
    this.done = this.loop();
  }

  /** Sleeps until `until` (ms since the epoch, by the clock; the clock may have moved since it was set) or a wake-up. */
  private async sleep(until: number): Promise<void> {
    if (this.pendingWake) return;
    await new Promise<void>((resolve) => {
      const cancel = this.ctx.clock.setTimer(until - this.ctx.clock.now().getTime(), () => this.wakeUp?.());
      this.wakeUp = () => {
        cancel();
        this.wakeUp = null;
        resolve();
      };
    });
  }

  private run(claimed: Claimed): void {
    const { ctx, reconciler } = this;
    this.working++;
    let holding = true;
    const freeSlot = (): void => {
      if (!holding) return;
      holding = false;
      this.working--;
      this.wake();
    };
    const closing = (): void => {
      this.closing.add(claimed.id);
      freeSlot();
    };
    const run = claimed
      .run(closing)
      .catch((err: Error) => {
        ctx.metrics.reconcileErrors.inc({ reconciler: reconciler.name });
        ctx.log.error({ err, reconciler: reconciler.name, id: claimed.id }, 'reconcile failed');
      })
      .then(() => {
        // Once closed, the row may have been claimed again (a follow-up due at once): that run is not this one.
        if (this.running.get(claimed.id) === run) this.running.delete(claimed.id);
        // Its write is in (or failed, changing nothing): what is due may be asked now.
        this.closing.delete(claimed.id);
        freeSlot();
      });
    this.running.set(claimed.id, run);
  }

  /** Returns when to look again (ms since the epoch, by the clock). */
  private async tick(): Promise<number> {
    const { ctx, reconciler } = this;
    const now = ctx.clock.now().getTime();
    if (!reconciler.sweepsDueRowsOnly || now >= this.dueAt) {
      await reconciler.sweep(ctx);
      // What the sweep has next is unknown until a claim asks: within FULL_SWEEP_MS, it looks again.
      if (now >= this.dueAt) this.dueAt = now + FULL_SWEEP_MS;
    }
    const free = (reconciler.concurrency ?? this.opts.concurrency) - this.working;
    // At capacity, a finishing run wakes the loop; nothing else needs claiming before then.
    if (this.stopping || free <= 0) return this.dueByNextSweep();
    const heard = new Set<string>();
    this.heardWhileClaiming = heard;
    let claims: Claims;
    try {
      claims = await reconciler.claim(ctx, this.owner, this.opts.leaseMs, free);
      for (const [i, claimed] of claims.claimed.entries()) {
        if (i > 0 && i % RUNS_STARTED_AT_ONCE === 0) await setImmediate();
        this.run(claimed);
      }
    } finally {
      this.heardWhileClaiming = null;
      // The claimed rows' announcements are their own claims; any other may have made work due.
      for (const id of heard) this.notified(id);
    }
    // Woken while claiming: the look that follows at once asks instead (under load, a look per claim saved).
    // A closing write under way announces its row, which wakes the loop: it asks then, once that write is in.
    if (claims.claimed.length === free || this.pendingWake || this.closing.size) return this.dueByNextSweep();
    // Woken while asking: the look that follows claims at once, not after the answer.
    const due = await this.answerUnlessWokenFirst(claims.nextDue());
    if (due === WOKEN_FIRST) return this.dueByNextSweep();
    this.dueAt = due?.getTime() ?? Infinity;
    return this.dueAt;
  }

  /** The race handles `asked`'s error, dropped when the wake-up came first. */
  private async answerUnlessWokenFirst<T>(asked: Promise<T>): Promise<T | typeof WOKEN_FIRST> {
    const woken = new Promise<typeof WOKEN_FIRST>((resolve) => (this.wakeUp = () => resolve(WOKEN_FIRST)));
    try {
      return await Promise.race([asked, woken]);
    } finally {
      this.wakeUp = null;
    }
  }

  /**
   * The next due time was not asked (every slot is taken, a wake is pending, or a closing write's
   * announcement will come): a slot freed, that wake or that announcement makes the loop claim
   * again, and the sweep is due within FULL_SWEEP_MS.
   */
  private dueByNextSweep(): number {
    // A due time passed while claiming is kept: the look that follows sweeps at once.
    this.dueAt = Math.min(this.dueAt, this.ctx.clock.now().getTime() + FULL_SWEEP_MS);
    return this.dueAt;
  }

  /** Renews the leases of the running rows every third of a lease, by the clock, until `stopped` aborts. */
  private async heartbeats(stopped: AbortSignal): Promise<void> {
    const { ctx, reconciler } = this;
    const every = Math.max(50, Math.floor(this.opts.leaseMs / 3));
    for (;;) {
      await sleep(ctx.clock, every, stopped);
      if (stopped.aborted) return;
      // One at a time: beats that pile up behind a slow database would take every connection of the pool.
      await reconciler
        .heartbeat(ctx, [...this.running.keys()], this.owner, this.opts.leaseMs)
        .catch((err: Error) => ctx.log.warn({ err: err.message, reconciler: reconciler.name }, 'heartbeat failed'));
    }
  }

  private async loop(): Promise<string[]> {
    const { ctx, reconciler } = this;
    const beating = new AbortController();
    void this.heartbeats(beating.signal);
    try {
      while (!this.stopping) {
        this.pendingWake = false;
        const idleUntil = ctx.clock.now().getTime() + this.opts.maxIdleMs;
        let until = idleUntil;
        try {
          until = Math.min(idleUntil, await this.tick());
        } catch (err) {
          ctx.metrics.reconcileErrors.inc({ reconciler: reconciler.name });
          ctx.log.error({ err, reconciler: reconciler.name }, 'controller tick failed; retrying');
          until = Math.min(idleUntil, ctx.clock.now().getTime() + 1000);
        }
        await this.sleep(until);
      }
      return await this.drain();
    } finally {
      beating.abort();
    }
  }

  /** Returns the ids of runs still going when the grace period ended, whose leases were released. */
  private async drain(): Promise<string[]> {
    const { ctx, reconciler } = this;
    // Real time, whatever the clock: the grace period ends before the kubelet's SIGKILL does.
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), this.opts.graceMs);
    });
    // Leases of runs still going are heartbeated until they finish or the grace period ends.
    let inGrace = true;
    while (this.running.size && inGrace) {
      inGrace = await Promise.race([Promise.allSettled(this.running.values()).then(() => true), grace]);
    }
    clearTimeout(timer);
    const left = [...this.running.keys()];
    if (left.length) {
      ctx.log.warn({ reconciler: reconciler.name, ids: left }, 'grace period over; releasing running work');
      await reconciler.release(ctx, left, this.owner);
    }
    return left;
  }

  async stop(): Promise<string[]> {
    this.stopping = true;
    this.wake();
    return (await this.done) ?? [];
  }
}

export class ControllerManager {
  readonly owner = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  private readonly loops: Loop[] = [];
  private readonly unsubscribe: (() => void)[] = [];

  constructor(
    private readonly ctx: Ctx,
    private readonly reconcilers: Reconciler[],
    private readonly opts: ManagerOptions,
  ) {}

  async start(): Promise<void> {
    const opts = { maxIdleMs: 30_000, ...this.opts };
    for (const reconciler of this.reconcilers) {
      reconciler.registerMetrics?.(this.ctx);
      const loop = new Loop(this.ctx, reconciler, this.owner, opts);
      this.loops.push(loop);
      this.unsubscribe.push(await this.ctx.notifier.subscribe(reconciler.channel, (id) => loop.notified(id)));
      loop.start();
    }
    this.ctx.log.info({ owner: this.owner, reconcilers: this.reconcilers.map((r) => r.name), ...this.opts }, 'controllers started');
  }

  /** Look again now (tests call this after moving the clock). */
  wake(): void {
    for (const loop of this.loops) loop.wake();
  }

  /** Stop claiming and drain; returns the ids of runs given up at the end of the grace period. */
  async stop(): Promise<string[]> {
    for (const off of this.unsubscribe) off();
    return (await Promise.all(this.loops.map((l) => l.stop()))).flat();
  }
}
