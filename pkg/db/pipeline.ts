// Statements sent together on a pipelined connection (pg's `pipeline` mode, PipelinedPool below):
// they go out without waiting for each other's answers, so they cost one round trip, and each
// still runs on its own, in order, seeing everything before it. Each is a named prepared statement.
import pg from 'pg';
import type { Knex } from 'knex';
import type { Logger } from '../log.js';
import { asPrepared, isStalePlan, nameOf, renameStatement } from './prepared.js';
import { shapedQuery } from './result-shapes.js';

/** A query built with knex, or its SQL already compiled (compiledOnce), sent with its values as parameters. */
export type Statement = Knex.QueryBuilder | Knex.Raw | Knex.SqlNative;

/** A statement's SQL with `$n` parameters. */
export const nativeOf = (statement: Statement): Knex.SqlNative => ('toSQL' in statement ? statement.toSQL().toNative() : statement);

export const send = (client: pg.PoolClient, statement: Statement): Promise<pg.QueryResult> => sendSql(client, nativeOf(statement));

const query = (client: pg.PoolClient, { sql, bindings }: Knex.SqlNative, name: string): Promise<pg.QueryResult> =>
  shapedQuery(client, name, sql, bindings as unknown[]);

/** SQL with `$n` parameters, sent on a pipelined connection as a named prepared statement, outside a transaction. */
export const sendSql = (client: pg.PoolClient, statement: Knex.SqlNative): Promise<pg.QueryResult> =>
  asPrepared(statement.sql, (name) => query(client, statement, name));

/**
 * Runs `send` with the connection's socket corked: the statements it sends, which pg writes one by
 * one, leave in one write, one system call (on loopback most of a statement's cost).
 */
export function inOneWrite<T>(client: pg.PoolClient, send: () => T): T {
  const socket = client.connection.stream;
  socket.cork();
  try {
    return send();
  } finally {
    socket.uncork();
  }
}

/**
 * Runs `statements` in one transaction: BEGIN, the statements and COMMIT go out together and are
 * awaited together, one round trip. None may need a value another returns (use a CTE or an id made
 * here). When one fails, those after it fail too and Postgres turns the COMMIT into a rollback:
 * the first error is thrown, and every answer has been awaited, so none is left unhandled.
 * Returns each statement's result, in order.
 */
export async function sendTransaction(client: pg.PoolClient, statements: Statement[]): Promise<pg.QueryResult[]> {
  // Compiled before BEGIN goes out: a statement that fails to compile must not leave a transaction open.
  const compiled = statements.map(nativeOf);
  try {
    return await sendTransactionOnce(client, compiled);
  } catch (err) {
    if (!isStalePlan(err)) throw err;
    // A statement a migration changed under it: the whole transaction again, its statements prepared anew.
    for (const c of compiled) renameStatement(c.sql);
    return sendTransactionOnce(client, compiled);
  }
}

async function sendTransactionOnce(client: pg.PoolClient, compiled: Knex.SqlNative[]): Promise<pg.QueryResult[]> {
  const answers = await Promise.allSettled(
    inOneWrite(client, () => [client.query('begin'), ...compiled.map((c) => query(client, c, nameOf(c.sql))), client.query('commit')]),
  );
  const failed = answers.find((a): a is PromiseRejectedResult => a.status === 'rejected');
  if (failed) throw failed.reason;
  return answers.slice(1, -1).map((a) => (a as PromiseFulfilledResult<pg.QueryResult>).value);
}

/**
 * The process's pipelined connections: what turn locks (pkg/db/locks.ts) and turns' writes are sent
 * on, and the statements every request or job runs (the key lookup; a job's insert, read and claim),
 * compiled by knex once and sent as named prepared statements, without knex's runner. Outside any
 * transaction: a statement sent here does not see one's writes (a store function reads in a given one,
 * pkg/db/statements.ts).
 */
export class PipelinedPool {
  private readonly pool: pg.Pool;

  /** A statement waits `acquireTimeoutMs` at most for a connection of the `max` (then an error the APIs answer 503). */
  constructor(url: string, max: number, acquireTimeoutMs: number, log: Logger) {
    this.pool = new pg.Pool({
      connectionString: url,
      max,
      connectionTimeoutMillis: acquireTimeoutMs,
      application_name: 'switchboard-pipelined',
      pipeline: true,
    });
    // A connection the server ends (a restart, a failover, an operator) errors its statements and
    // leaves the pool; its error event, unheard, would end the process, whether it was idle or held.
    this.pool.on('connect', (client) => client.on('error', (err) => log.warn({ err: err.message }, 'pipelined connection lost')));
    // The client's own listener has logged it.
    this.pool.on('error', () => {});
  }

  /** Runs `fn` on a connection of the pool; a connection lost meanwhile is dropped from it. */
  async connected<T>(fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    let broken = false;
    try {
      return await fn(client);
    } catch (err) {
      // A statement's error leaves the connection usable; a lost connection's does not.
      broken = !(err instanceof pg.DatabaseError);
      throw err;
    } finally {
      client.release(broken);
    }
  }

  /** One statement on its own. */
  send(statement: Statement): Promise<pg.QueryResult> {
    return this.connected((client) => send(client, statement));
  }

  /** `statements` as one transaction in one round trip (sendTransaction); returns each one's result. */
  transaction(statements: Statement[]): Promise<pg.QueryResult[]> {
    return this.connected((client) => sendTransaction(client, statements));
  }

  close(): Promise<void> {
    return this.pool.end();
  }
}
