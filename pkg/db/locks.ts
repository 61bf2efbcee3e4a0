// Per-conversation turn locks: Postgres advisory locks on a pool of their own, so a turn waiting
// for its lock never holds a connection the running turn needs. A crashed process's locks go with
// its connections.
import pg from 'pg';
import type { Logger } from '../log.js';

/** A condition as knex gives it (`query.toSQL().toNative()`): SQL with parameters $1… and their values. */
export interface Condition {
  sql: string;
  bindings: readonly unknown[];
}

export class TurnLocks {
  private readonly pool: pg.Pool;
  /** A turn waits `acquireTimeoutMs` at most for a connection of the `max` (then an error the APIs answer 503). */
  constructor(url: string, max: number, acquireTimeoutMs: number, log: Logger) {
    this.pool = new pg.Pool({ connectionString: url, max, connectionTimeoutMillis: acquireTimeoutMs, application_name: 'switchboard-locks' });
    // An idle connection the server ends (a restart, a failover, an operator) leaves the pool; unheard, its error would end the process.
    this.pool.on('error', (err) => log.warn({ err: err.message }, 'idle lock connection lost'));
  }

  /**
   * Runs `fn` while holding the lock named by `key`; callers for the same key run one at a time,
   * and each sees everything the one before it committed. With `onlyIf` (a query), the lock is
   * taken only when that finds a row, so a caller without the right to it never waits on it or
   * holds it; `fn` runs either way (its own reads tell it why it may not go on).
   */
  async withLock<T>(key: string, fn: () => Promise<T>, onlyIf?: Condition): Promise<T> {
    const client = await this.pool.connect();
    // A lock statement that fails may have taken the lock, so until its answer says otherwise it is held.
    let held = true;
    try {
      const { rows } = onlyIf
        ? await client.query(`select pg_advisory_lock(hashtext($${onlyIf.bindings.length + 1})) where exists (${onlyIf.sql})`, [...onlyIf.bindings, key])
        : await client.query('select pg_advisory_lock(hashtext($1))', [key]);
      held = rows.length > 0;
      return await fn();
    } finally {
      // The caller goes on without waiting for the unlock: Postgres hands the lock to the next
      // waiter when it arrives, and the connection returns to the pool only after it (closed if the
      // unlock failed, which frees the lock).
      if (!held) client.release();
      else {
        client.query('select pg_advisory_unlock(hashtext($1))', [key]).then(
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
