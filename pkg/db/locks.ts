// Per-conversation turn locks (and per-run campaign step locks): Postgres advisory locks on a pool
// of their own, so a turn waiting for its lock never holds a connection the running turn needs. A crashed process's locks go with
// its connections. The connections pipeline (pkg/db/pipeline.ts): a turn's lock and reads cost one
// round trip, and so does its closing transaction.
import pg from 'pg';
import type { Logger } from '../log.js';
import { inOneWrite, send, sendSql, type Statement } from './pipeline.js';

/** The lock held, and its connection for the turn's closing transaction (sendTransaction). */
interface HeldLock {
  /** The rows of each of withLock's `reads`, in order. */
  reads: Record<string, any>[][];
  connection: pg.PoolClient;
}

export class TurnLocks {
  private readonly pool: pg.Pool;
  /** Per holder and key, the last caller in this process: the ones after it wait here, holding no connection. */
  private readonly queues = new Map<string, Promise<void>>();
  /** Callers waiting in this process for a lock another caller here holds. */
  waiting = 0;
  /** A turn waits `acquireTimeoutMs` at most for a connection of the `max` (then an error the APIs answer 503). */
  constructor(url: string, max: number, acquireTimeoutMs: number, log: Logger) {
    this.pool = new pg.Pool({ connectionString: url, max, connectionTimeoutMillis: acquireTimeoutMs, application_name: 'switchboard-locks', pipeline: true });
    // A connection the server ends (a restart, a failover, an operator) errors its statements and
    // leaves the pool; its error event, unheard, would end the process, whether it was idle or held.
    this.pool.on('connect', (client) => client.on('error', (err) => log.warn({ err: err.message }, 'lock connection lost')));
    // The client's own listener has logged it.
    this.pool.on('error', () => {});
  }

  /**
   * Runs `fn` while holding the lock named by `key`; callers for the same key run one at a time,
   * and each sees everything the one before it committed. `reads` go out with the lock, in the
   * same round trip, and run once it is held. With `onlyIf` (a query), the lock is taken only when
   * that finds a row, so a caller without the right to it never waits on it or holds it; `fn`
   * runs either way (the reads tell it why it may not go on). Callers of one `holder` (the tenant)
   * for one key queue in this process first, so many requests on one conversation take one
   * connection, not the pool; another holder's never queue behind them. `first` runs when the
   * caller's turn in that queue comes, before a connection is taken: a wait that holds none (a model slot).
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
    const client = await this.pool.connect();
    // A lock statement that fails may have taken the lock, so until its answer says otherwise it is held.
    let held = true;
    try {
      const condition = onlyIf?.toSQL().toNative();
      const lock = condition
        ? { sql: `select pg_advisory_lock(hashtext($${condition.bindings.length + 1})) where exists (${condition.sql})`, bindings: [...condition.bindings, key] }
        : { sql: 'select pg_advisory_lock(hashtext($1))', bindings: [key] };
      const sent = inOneWrite(client, () => [sendSql(client, lock), ...reads.map((read) => send(client, read))]);
      // Every answer is awaited, so none is left unhandled when the lock's fails.
      const [locked, ...answers] = await Promise.allSettled(sent);
      if (locked!.status === 'rejected') throw locked.reason;
      held = locked!.value.rows.length > 0;
      const failed = answers.find((a) => a.status === 'rejected');
      if (failed) throw failed.reason;
      return await fn({ reads: answers.map((a) => (a as PromiseFulfilledResult<pg.QueryResult>).value.rows), connection: client });
    } finally {
      // The caller goes on without waiting for the unlock: Postgres hands the lock to the next
      // waiter when it arrives, and the connection returns to the pool only after it (closed if the
      // unlock failed, which frees the lock).
      if (!held) client.release();
      else {
        sendSql(client, { sql: 'select pg_advisory_unlock(hashtext($1))', bindings: [key] }).then(
          () => client.release(),
          () => client.release(true),
        );
      }
    }
  }

  close(): Promise<void> {
    return this.pool.end();
  }
}
