// Where a store function's statement goes, so that each operation is written once: into the
// caller's transaction when ctx.db is one; else compiled once (compiled.ts) and sent on a pipelined
// connection as a named prepared statement; or, inside inOneTransaction, gathered with the other
// writes of a closing transaction and sent with them in one round trip.
import type { Knex } from 'knex';
import type pg from 'pg';
import { compiledOnce } from './compiled.js';
import type { PipelinedPool, Statement } from './pipeline.js';
import type { DbRow } from './index.js';

/** What a store function needs to send its statement: the knex instance (or transaction), and where statements outside one go. */
export interface Sends {
  db: Knex;
  pipelined: Pick<PipelinedPool, 'send'>;
}

/**
 * `build`'s statement as a function of ctx and its values, answering its rows. `build` follows
 * compiledOnce's rule: it places the values it is given and never looks at them.
 */
export function compiledQuery<V extends object>(
  build: (db: Knex, values: V) => Knex.QueryBuilder | Knex.Raw,
): (ctx: Sends, values: V) => Promise<DbRow[]> {
  const compiled = compiledOnce(build);
  return async (ctx, values) => {
    if (ctx.db.isTransaction) {
      const result: DbRow[] | pg.QueryResult = await build(ctx.db, values);
      return Array.isArray(result) ? result : result.rows;
    }
    return (await ctx.pipelined.send(compiled(ctx.db, values))).rows;
  };
}

/** Statements gathered in place of a pool's: each is answered once they have all gone together. */
class Gathered {
  private readonly statements: { statement: Statement; resolve: (result: pg.QueryResult) => void; reject: (err: unknown) => void }[] = [];
  private gone = false;

  send(statement: Statement): Promise<pg.QueryResult> {
    // A store function that awaited something before its statement would miss the transaction.
    if (this.gone) return Promise.reject(new Error('A statement came after its transaction had been sent'));
    return new Promise((resolve, reject) => this.statements.push({ statement, resolve, reject }));
  }

  async sendBy(send: (statements: Statement[]) => Promise<pg.QueryResult[]>): Promise<void> {
    this.gone = true;
    try {
      const results = await send(this.statements.map((s) => s.statement));
      for (const [i, s] of this.statements.entries()) s.resolve(results[i]!);
    } catch (err) {
      for (const s of this.statements) s.reject(err);
      throw err;
    }
  }
}

/**
 * Runs `writes`, store functions given `tx`, as one transaction sent by `send` in one round trip
 * (a turn lock's closing transaction, pkg/db/locks.ts): each must send its statement before it
 * awaits anything. Returns what `writes` returns, once the transaction has committed.
 */
export async function inOneTransaction<C extends { db: Knex }, T>(
  ctx: C,
  send: (statements: Statement[]) => Promise<pg.QueryResult[]>,
  writes: (tx: Omit<C, 'pipelined'> & Sends) => Promise<T>,
): Promise<T> {
  const gathered = new Gathered();
  const [written] = await Promise.all([writes({ ...ctx, pipelined: gathered }), gathered.sendBy(send)]);
  return written;
}
