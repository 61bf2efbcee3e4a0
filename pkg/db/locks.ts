// Per-conversation turn locks: Postgres advisory locks on a pool of their own, so a turn waiting
// for its lock never holds a connection the running turn needs. A crashed process's locks go with
// its connections.
import pg from 'pg';

export class TurnLocks {
  private readonly pool: pg.Pool;
  constructor(url: string, max: number) {
    this.pool = new pg.Pool({ connectionString: url, max, application_name: 'switchboard-locks' });
  }

  /**
   * Runs `fn` while holding the lock named by `key`; callers for the same key run one at a time.
   * `reads` (SQL with its values inlined as literals) go out in the same round trip as the lock and
   * run once it is held, each statement seeing everything committed before it (read committed);
   * `fn` gets their results in order. `fn` may end with `closing(sql)`: one statement (values
   * inlined) committed and the lock released in one round trip; it resolves to the statement's result.
   */
  async withLock<T>(
    key: string,
    fn: (reads: pg.QueryResult[], closing: (sql: string) => Promise<pg.QueryResult>) => Promise<T>,
    reads: string[] = [],
  ): Promise<T> {
    const client = await this.pool.connect();
    const lockKey = `hashtext(${client.escapeLiteral(key)})`;
    const unlock = `select pg_advisory_unlock(${lockKey})`;
    let closed: Promise<unknown> | null = null;
    const closing = async (sql: string): Promise<pg.QueryResult> => {
      // Begin and commit are explicit: in one implicit transaction the unlock would come before the commit.
      closed = client.query(`begin; ${sql}; commit; ${unlock}`);
      return ((await closed) as pg.QueryResult[])[1]!;
    };
    try {
      // The simple protocol runs several statements from one message; a statement that fails
      // after the lock is taken leaves it held, so the unlock below always runs.
      const results = await client.query([`select pg_advisory_lock(${lockKey})`, ...reads].join(';\n'));
      return await fn(Array.isArray(results) ? results.slice(1) : [], closing);
    } finally {
      // The caller goes on without waiting for the unlock: Postgres hands the lock to the next
      // waiter when it arrives, and the connection returns to the pool only after it (or, if the
      // unlock or the closing statement failed, is closed, which frees the lock and ends its transaction).
      (closed ?? client.query(unlock)).then(
        () => client.release(),
        () => client.release(true),
      );
    }
  }

  close(): Promise<void> {
    return this.pool.end();
  }
}
