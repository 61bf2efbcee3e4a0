// Per-conversation turn locks: Postgres advisory locks on a pool of their own, so a turn waiting
// for its lock never holds a connection the running turn needs. A crashed process's locks go with
// its connections.
import pg from 'pg';
import { inlined, type Runner } from './statements.js';

/** Where a statement runs on a turn lock's connection (TurnLocks.withLock). */
export interface LockRunners {
  run: Runner;
  close: Runner;
}

export class TurnLocks {
  private readonly pool: pg.Pool;
  constructor(url: string, max: number) {
    this.pool = new pg.Pool({ connectionString: url, max, application_name: 'switchboard-locks' });
  }

  /**
   * Runs `fn` while holding the lock named by `key`; callers for the same key run one at a time.
   * `reads` (SQL with its values inlined as literals) go out in the same round trip as the lock and
   * run once it is held, each statement seeing everything committed before it (read committed);
   * `fn` gets their results in order, and the lock's connection as two runners: `run` sends a
   * statement at once, with no wait for the pool; `close` ends with one, committed and the lock
   * released in the same round trip. With `onlyIf` (a `from … where …` clause), the lock is taken
   * only when that finds a row, so a caller without the right to it never waits on it or holds it;
   * `fn` runs either way (the reads tell it why it may not go on).
   */
  async withLock<T>(key: string, fn: (reads: pg.QueryResult[], lock: LockRunners) => Promise<T>, reads: string[] = [], onlyIf = ''): Promise<T> {
    const client = await this.pool.connect();
    const lockKey = `hashtext(${client.escapeLiteral(key)})`;
    const unlock = `select pg_advisory_unlock(${lockKey})`;
    let closed: Promise<unknown> | null = null;
    const runners: LockRunners = {
      run: async (statement) => statement.connection(client),
      close: async (statement) => {
        // Begin and commit are explicit: in one implicit transaction the unlock would come before the commit.
        const answer = client.query(`begin; ${inlined(statement)}; commit; ${unlock}`);
        closed = answer;
        return ((await answer) as unknown as pg.QueryResult[])[1]!.rows;
      },
    };
    // The simple protocol runs several statements from one message; a statement that fails after
    // the lock may have been taken leaves it held, so until the results say otherwise it is.
    let held = true;
    try {
      const answer: pg.QueryResult | pg.QueryResult[] = await client.query([`select pg_advisory_lock(${lockKey}) ${onlyIf}`, ...reads].join(';\n'));
      const [lock, ...results] = Array.isArray(answer) ? answer : [answer];
      held = lock!.rows.length > 0;
      return await fn(results, runners);
    } finally {
      // The caller goes on without waiting for the unlock: Postgres hands the lock to the next
      // waiter when it arrives, and the connection returns to the pool only after it (or, if the
      // unlock or the closing statement failed, is closed, which frees the lock and ends its transaction).
      if (!held && !closed) client.release();
      else {
        (closed ?? client.query(unlock)).then(
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
