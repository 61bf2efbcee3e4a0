// Per-conversation turn locks: Postgres advisory locks on a pool of their own, so a turn waiting
// for its lock never holds a connection the running turn needs. A crashed process's locks go with
// its connections.
import pg from 'pg';

export class TurnLocks {
  private readonly pool: pg.Pool;
  constructor(url: string, max: number) {
    this.pool = new pg.Pool({ connectionString: url, max, application_name: 'switchboard-locks' });
  }

  /** Runs `fn` while holding the lock named by `key`; callers for the same key run one at a time. */
  async withLock<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    let broken = false;
    try {
      await client.query('select pg_advisory_lock(hashtext($1))', [key]);
      try {
        return await fn();
      } finally {
        await client.query('select pg_advisory_unlock(hashtext($1))', [key]).catch(() => {
          broken = true;
        });
      }
    } finally {
      client.release(broken);
    }
  }

  close(): Promise<void> {
    return this.pool.end();
  }
}
