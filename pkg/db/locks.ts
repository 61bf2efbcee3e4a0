// Per-conversation turn locks: Postgres advisory locks on a pool of their own, so a turn waiting
// for its lock never holds a connection the running turn needs. A crashed process's locks go with
// its connections.
import pg from 'pg';
import type { Logger } from '../log.js';
import { literal, withValues, type Runner } from './statements.js';

/** What follows a closing statement in its round trip (LockRunners.closeThenLock). */
export interface NextLock {
  /** Statements run first, in the closing statement's transaction (a claim that decides what to lock). */
  before: string[];
  /** SQL giving the key of the lock to take if it is free, never waiting for it; null: none. The same every time (prepared). */
  key: string;
  /** Statements run once it is held, as withLock's reads. The same every time (prepared). */
  reads: string[];
}

/** A lock taken at the end of another's closing round trip, with its reads' results. */
export interface HandedLock {
  readonly key: string;
  readonly results: pg.QueryResult[];
  /** Give it up unused. */
  release(): void;
}

/** Where a statement runs on a turn lock's connection (TurnLocks.withLock). */
export interface LockRunners {
  /** Sends a statement at once. */
  run: Runner;
  /** Ends with a statement, committed and the lock released in the same round trip. */
  close: Runner;
  /**
   * `close`, and in the same round trip `next`: its statements, then its lock if free, then its
   * reads. The lock, when taken, is handed over with the connection (TurnLocks.withHandedLock).
   */
  closeThenLock(statement: Parameters<Runner>[0], next: NextLock): Promise<{ rows: Record<string, any>[]; before: pg.QueryResult[]; lock: HandedLock | null }>;
}

// Statements prepared on each lock connection, by their text ($1… for values): a job run's closing
// round trip sends the same few every time, and planning them cost Postgres more than running
// them. Postgres plans one again by itself when a table it reads changes; what they read back is
// named column by column (pkg/store/columns.ts), since a prepared `*` would fail once a migration
// adds a column. A connection whose round trip fails is closed (releaseAfter), so what is noted
// here as prepared always is.
const preparedOn = new WeakMap<pg.PoolClient, Map<string, string>>();
// Beyond this many on a connection, statements go unprepared: the closing statement's text varies
// with the number of messages a run stores.
const MAX_PREPARED = 64;

/** SQL running `text` prepared on `client` (PREPARE first, the first time there), and whether each statement's result counts. */
function prepared(client: pg.PoolClient, text: string, values: readonly unknown[] = []): [sql: string, counted: boolean][] {
  let names = preparedOn.get(client);
  if (!names) preparedOn.set(client, (names = new Map()));
  let name = names.get(text);
  const preparing: [string, boolean][] = [];
  if (!name) {
    if (names.size >= MAX_PREPARED) return [[withValues(text, values), true]];
    name = `switchboard_${names.size}`;
    names.set(text, name);
    preparing.push([`prepare ${name} as ${text}`, false]);
  }
  return [...preparing, [values.length ? `execute ${name}(${values.map(literal).join(', ')})` : `execute ${name}`, true]];
}

const keyOf = (key: string) => `hashtext(${pg.escapeLiteral(key)})`;
const unlockOf = (key: string) => `select pg_advisory_unlock(${keyOf(key)})`;

/** After this process's round trip ends, give the connection back (closed if that failed, which frees its locks). */
function releaseAfter(client: pg.PoolClient, last: Promise<unknown>): void {
  last.then(
    () => client.release(),
    () => client.release(true),
  );
}

class Handed implements HandedLock {
  constructor(
    readonly client: pg.PoolClient,
    readonly key: string,
    readonly results: pg.QueryResult[],
  ) {}

  release(): void {
    releaseAfter(this.client, this.client.query(unlockOf(this.key)));
  }
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
   * Runs `fn` while holding the lock named by `key`; callers for the same key run one at a time.
   * `reads` (SQL with its values inlined as literals) go out in the same round trip as the lock and
   * run once it is held, each statement seeing everything committed before it (read committed);
   * `fn` gets their results in order, and the lock's connection as runners (LockRunners). With
   * `onlyIf` (a `from … where …` clause), the lock is taken only when that finds a row, so a caller
   * without the right to it never waits on it or holds it; `fn` runs either way (the reads tell it
   * why it may not go on).
   */
  async withLock<T>(key: string, fn: (reads: pg.QueryResult[], lock: LockRunners) => Promise<T>, reads: string[] = [], onlyIf = ''): Promise<T> {
    const client = await this.pool.connect();
    return this.holding(client, key, async () => {
      const answer: pg.QueryResult | pg.QueryResult[] = await client.query([`select pg_advisory_lock(${keyOf(key)}) ${onlyIf}`, ...reads].join(';\n'));
      const [lock, ...results] = Array.isArray(answer) ? answer : [answer];
      return { held: lock!.rows.length > 0, results };
    }, fn);
  }

  /** Runs `fn` holding a lock handed over by a closing round trip, as withLock would. */
  withHandedLock<T>(lock: HandedLock, fn: (reads: pg.QueryResult[], lock: LockRunners) => Promise<T>): Promise<T> {
    const { client, key, results } = lock as Handed;
    return this.holding(client, key, async () => ({ held: true, results }), fn);
  }

  private async holding<T>(
    client: pg.PoolClient,
    key: string,
    take: () => Promise<{ held: boolean; results: pg.QueryResult[] }>,
    fn: (reads: pg.QueryResult[], lock: LockRunners) => Promise<T>,
  ): Promise<T> {
    const unlock = unlockOf(key);
    // The round trip that ends this lock, once sent; `handed`: the connection went on to the next lock.
    let closed: Promise<unknown> | null = null;
    let handed = false;
    const closingStatement = (statement: Parameters<Runner>[0]) => {
      const { sql, bindings } = statement.toSQL().toNative();
      return prepared(client, sql, bindings);
    };
    const asIs = (sql: string): [string, boolean] => [sql, true];
    // Begin and commit are explicit: in one implicit transaction the unlock would come before the commit.
    // The results of the statements that count, in order (a PREPARE's does not).
    const closing = (statements: [string, boolean][], after: [string, boolean][]) => {
      const all = [asIs('begin'), ...statements, asIs('commit'), asIs(unlock), ...after];
      const answer = client.query(all.map(([sql]) => sql).join(';\n')) as unknown as Promise<pg.QueryResult[]>;
      closed = answer;
      return answer.then((results) => results.filter((_, i) => all[i]![1]));
    };
    const runners: LockRunners = {
      run: async (statement) => statement.connection(client),
      close: async (statement) => (await closing(closingStatement(statement), []))[1]!.rows,
      closeThenLock: async (statement, next) => {
        const take = `select k as key, pg_try_advisory_lock(hashtext(k)) as locked from (select ${next.key} as k) n where k is not null`;
        const results = await closing(
          [...closingStatement(statement), ...next.before.map(asIs)],
          [take, ...next.reads].flatMap((sql) => prepared(client, sql)),
        );
        // begin, the statement, next.before, commit, unlock, take, next.reads
        const taken = 4 + next.before.length;
        const answer = { rows: results[1]!.rows, before: results.slice(2, 2 + next.before.length) };
        if (!results[taken]!.rows[0]?.locked) return { ...answer, lock: null };
        handed = true;
        return { ...answer, lock: new Handed(client, results[taken]!.rows[0].key, results.slice(taken + 1)) };
      },
    };
    // The simple protocol runs several statements from one message; a statement that fails after
    // the lock may have been taken leaves it held, so until the results say otherwise it is.
    let held = true;
    try {
      const taken = await take();
      held = taken.held;
      return await fn(taken.results, runners);
    } finally {
      // The caller goes on without waiting for the unlock: Postgres hands the lock to the next
      // waiter when it arrives, and the connection returns to the pool only after it (or, if the
      // unlock or the closing statement failed, is closed, which frees the lock and ends its
      // transaction). A connection handed on to the next lock goes with it.
      if (!handed) {
        if (!held && !closed) client.release();
        else releaseAfter(client, closed ?? client.query(unlock));
      }
    }
  }

  close(): Promise<void> {
    return this.pool.end();
  }
}
