// Statements sent together on a pipelined connection (pg's `pipeline` mode, the turn locks' pool):
// they go out without waiting for each other's answers, so they cost one round trip, and each
// still runs on its own, in order, seeing everything before it.
import type pg from 'pg';
import type { Knex } from 'knex';

/** A query built with knex, sent on a pipelined connection with its values as parameters. */
export type Statement = Knex.QueryBuilder | Knex.Raw;

export const send = (client: pg.PoolClient, statement: Statement): Promise<pg.QueryResult> => {
  const { sql, bindings } = statement.toSQL().toNative();
  return client.query(sql, bindings as unknown[]);
};

/**
 * Runs `statements` in one transaction: BEGIN, the statements and COMMIT go out together and are
 * awaited together, one round trip. None may need a value another returns (use a CTE or an id made
 * here). When one fails, those after it fail too and Postgres turns the COMMIT into a rollback:
 * the first error is thrown, and every answer has been awaited, so none is left unhandled.
 * Returns each statement's result, in order.
 */
export async function sendTransaction(client: pg.PoolClient, statements: Statement[]): Promise<pg.QueryResult[]> {
  const answers = await Promise.allSettled([client.query('begin'), ...statements.map((s) => send(client, s)), client.query('commit')]);
  const failed = answers.find((a): a is PromiseRejectedResult => a.status === 'rejected');
  if (failed) throw failed.reason;
  return answers.slice(1, -1).map((a) => (a as PromiseFulfilledResult<pg.QueryResult>).value);
}
