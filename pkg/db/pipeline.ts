// Statements sent together on a pipelined connection (pg's `pipeline` mode, the turn locks' pool):
// they go out without waiting for each other's answers, so they cost one round trip, and each
// still runs on its own, in order, seeing everything before it.
import type pg from 'pg';
import type { Knex } from 'knex';

/** A query built with knex, sent on a pipelined connection with its values as parameters. */
export type Statement = Knex.QueryBuilder | Knex.Raw;

export const send = (client: pg.PoolClient, statement: Statement): Promise<pg.QueryResult> => sendCompiled(client, statement.toSQL().toNative());

const sendCompiled = (client: pg.PoolClient, { sql, bindings }: Knex.SqlNative): Promise<pg.QueryResult> => client.query(sql, bindings as unknown[]);

/**
 * Runs `statements` in one transaction: BEGIN, the statements and COMMIT go out together and are
 * awaited together, one round trip. None may need a value another returns (use a CTE or an id made
 * here). When one fails, those after it fail too and Postgres turns the COMMIT into a rollback:
 * the first error is thrown, and every answer has been awaited, so none is left unhandled.
 * Returns each statement's result, in order.
 */
export async function sendTransaction(client: pg.PoolClient, statements: Statement[]): Promise<pg.QueryResult[]> {
  // Compiled before BEGIN goes out: a statement that fails to compile must not leave a transaction open.
  const compiled = statements.map((s) => s.toSQL().toNative());
  const answers = await Promise.allSettled([client.query('begin'), ...compiled.map((c) => sendCompiled(client, c)), client.query('commit')]);
  const failed = answers.find((a): a is PromiseRejectedResult => a.status === 'rejected');
  if (failed) throw failed.reason;
  return answers.slice(1, -1).map((a) => (a as PromiseFulfilledResult<pg.QueryResult>).value);
}
