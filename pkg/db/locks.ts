// Per-conversation turn locks (and per-run campaign step locks): rows of turn_locks (migration
// 021), so a turn holds no connection while it waits seconds on its model, and a replica carries as
// many turns as its work needs. A row names its holder's listen connection; another process takes
// it only once that connection is gone, so a crashed process's locks go at once. The statements go
// on pipelined connections (pkg/db/pipeline.ts): a turn's lock and reads cost one round trip, and
// so does its closing transaction, which gives the lock up.
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import pg from 'pg';
import { Unavailable } from '../errors.js';
import type { Logger } from '../log.js';
import { CHANNELS, PRESENCE_LOCK_CLASS, type Notifier } from './notify.js';
import { inOneWrite, nativeOf, send, sendSql, type PipelinedPool, type Statement } from './pipeline.js';
import type { DbRow } from './index.js';

/** The lock held: the rows of withLock's `reads`, and the lock's statements. */
export interface HeldLock {
  /** The rows of each of withLock's `reads`, in order. */
  reads: DbRow[][];
  /** One statement on its own, on a pipelined connection. */
  send(statement: Statement): Promise<pg.QueryResult>;
  /** The closing transaction: `statements` with the lock given up, one round trip; returns their results. */
  close(statements: Statement[]): Promise<pg.QueryResult[]>;
}

/** The closing transaction found its lock taken by another process: this one's listen connection was lost meanwhile. */
class LockLost extends Unavailable {
  constructor() {
    super('Another server took over this conversation while the turn ran (its database connection was lost); try again', 'unavailable', 1);
  }
}

/** switchboard_release_turn_lock's error when the lock is no longer the caller's. */
const LOST = 'SBL01';

/** While another process holds a lock, a waiter looks again this often besides on its release (the holder may have crashed). */
const RECHECK_MS = 1_000;

// Taken when free, or when the holder's listen connection no longer holds its presence lock.
const take = (condition: string, first: number) => `
  with allowed as (select ${condition} as ok),
  taken as (
    insert into turn_locks as l (key, token, holder_pid)
    select $${first}, $${first + 1}, $${first + 2} from allowed where ok
    on conflict (key) do update set token = excluded.token, holder_pid = excluded.holder_pid
    where not exists (
      select 1 from pg_locks p
      where p.locktype = 'advisory' and p.granted and p.pid = l.holder_pid
        and p.classid = $${first + 3}::oid and p.objid = l.holder_pid::oid and p.objsubid = 2)
    returning 1)
  select (select ok from allowed) as allowed, exists (select 1 from taken) as held`;

export class TurnLocks {
  /** Per holder and key, the last caller in this process: the ones after it wait here. */
  private readonly queues = new Map<string, Promise<void>>();
  /** Per key, the wakers of callers here waiting for another process to give it up. */
  private readonly released = new Map<string, Set<() => void>>();
  private listening: Promise<unknown> | null = null;
  /** Callers waiting in this process for a lock another caller holds. */
  waiting = 0;

  constructor(
    private readonly pool: PipelinedPool,
    private readonly notifier: Notifier,
    private readonly log: Logger,
  ) {}

  /**
   * Runs `fn` while holding the lock named by `key`; callers for the same key run one at a time,
   * and each sees everything the one before it committed. `reads` go out with the lock, in the
   * same round trip, and run once it is held. With `onlyIf` (a query), the lock is taken only when
   * that finds a row, so a caller without the right to it never waits on it or holds it; `fn`
   * runs either way (the reads tell it why it may not go on). Callers of one `holder` (the tenant)
   * for one key queue in this process first; another holder's never queue behind them. `first`
   * runs when the caller's turn in that queue comes, before the lock is asked for (a model slot).
   */
  async withLock<T>(
    key: string,
    fn: (lock: HeldLock) => Promise<T>,
    { reads = [], onlyIf, holder, first }: { reads?: Statement[]; onlyIf?: Statement; holder: string; first?: () => Promise<void> },
  ): Promise<T> {
    const queue = JSON.stringify([holder, key]);
    const before = this.queues.get(queue);
    let done!: () => void;
    const mine = new Promise<void>((resolve) => (done = resolve));
    this.queues.set(queue, mine);
    try {
      if (before) {
        this.waiting++;
        await before.finally(() => this.waiting--);
      }
      await first?.();
      return await this.locked(key, fn, reads, onlyIf);
    } finally {
      done();
      if (this.queues.get(queue) === mine) this.queues.delete(queue);
    }
  }

  private async locked<T>(key: string, fn: (lock: HeldLock) => Promise<T>, reads: Statement[], onlyIf: Statement | undefined): Promise<T> {
    const token = randomUUID();
    const { held, answers } = await this.acquire(key, token, reads, onlyIf);
    let given = !held;
    const lock: HeldLock = {
      reads: answers,
      send: (statement) => this.pool.send(statement),
      close: async (statements) => {
        try {
          const results = await this.pool.transaction([this.release(key, token), ...statements]);
          given = true;
          return results.slice(1);
        } catch (err) {
          if ((err as { code?: string }).code !== LOST) throw err;
          given = true;
          throw new LockLost();
        }
      },
    };
    try {
      return await fn(lock);
    } finally {
      if (!given) await this.giveUp(key, token);
    }
  }

  private release(key: string, token: string): Knex.SqlNative {
    return { sql: 'select switchboard_release_turn_lock($1, $2)', bindings: [key, token] };
  }

  /** Takes the lock, waiting while another process holds it; `held` false when `onlyIf` found nothing. */
  private async acquire(key: string, token: string, reads: Statement[], onlyIf: Statement | undefined) {
    let attempt = await this.attempt(key, token, reads, onlyIf, false);
    if (attempt.held || !attempt.allowed) return attempt;
    this.waiting++;
    let wake = () => {};
    const woken = { now: false };
    const waker = () => {
      woken.now = true;
      wake();
    };
    await this.listen();
    const wakers = this.released.get(key) ?? new Set();
    this.released.set(key, wakers.add(waker));
    try {
      // Listening, and each attempt first tells the holder to announce its release: one after it wakes this.
      for (;;) {
        attempt = await this.attempt(key, token, reads, onlyIf, true);
        if (attempt.held || !attempt.allowed) return attempt;
        if (!woken.now) {
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, RECHECK_MS);
            wake = () => {
              clearTimeout(timer);
              resolve();
            };
          });
        }
        woken.now = false;
      }
    } finally {
      this.waiting--;
      wakers.delete(waker);
      if (!wakers.size) this.released.delete(key);
    }
  }

  /** One try at the lock with the reads; an attempt whose answer was lost may have taken it, so that is given up. */
  private async attempt(key: string, token: string, reads: Statement[], onlyIf: Statement | undefined, wanting: boolean) {
    try {
      return await this.tryOnce(key, token, reads, onlyIf, wanting);
    } catch (err) {
      if (!(err instanceof pg.DatabaseError)) void this.giveUp(key, token);
      throw err;
    }
  }

  private async tryOnce(key: string, token: string, reads: Statement[], onlyIf: Statement | undefined, wanting: boolean) {
    const condition = onlyIf && nativeOf(onlyIf);
    const statement = {
      sql: take(condition ? `exists (${condition.sql})` : 'true', (condition?.bindings.length ?? 0) + 1),
      bindings: [...(condition?.bindings ?? []), key, token, this.notifier.presencePid, PRESENCE_LOCK_CLASS],
    };
    return this.pool.connected(async (client) => {
      const sent = inOneWrite(client, () => [
        ...(wanting
          ? [sendSql(client, { sql: 'update turn_locks set wanted = true where key = $1 and not wanted', bindings: [key] })]
          : []),
        sendSql(client, statement),
        ...reads.map((read) => send(client, read)),
      ]);
      // Every answer is awaited, so none is left unhandled when the lock's fails.
      const [taken, ...answers] = (await Promise.allSettled(sent)).slice(wanting ? 1 : 0);
      if (taken!.status === 'rejected') throw taken.reason;
      const failed = answers.find((a) => a.status === 'rejected');
      if (failed) throw failed.reason;
      const { allowed, held } = taken!.value.rows[0];
      return {
        allowed: allowed as boolean,
        held: held as boolean,
        answers: answers.map((a) => (a as PromiseFulfilledResult<pg.QueryResult>).value.rows),
      };
    });
  }

  /** One announcement listener for every key waited on here; an empty payload (the listener reconnected) wakes them all. */
  private listen(): Promise<unknown> {
    this.listening ??= this.notifier.subscribe(CHANNELS.turnLocks, (key) => {
      const woken = key ? [this.released.get(key) ?? []] : this.released.values();
      for (const wakers of woken) for (const wake of wakers) wake();
    });
    return this.listening;
  }

  /** Gives the lock up outside a closing transaction; tried again until it goes, since a row left behind would hold the key while this process lives. */
  private async giveUp(key: string, token: string): Promise<void> {
    try {
      await this.pool.send(this.release(key, token));
    } catch (err) {
      if ((err as { code?: string }).code === LOST) return;
      this.log.warn({ err: (err as Error).message, key }, 'giving up a turn lock failed; trying again');
      setTimeout(() => void this.giveUp(key, token), RECHECK_MS).unref();
    }
  }
}
