// The Postgres connection (knex over pg). Postgres is the source of truth for everything.
import knexFactory, { type Knex } from 'knex';
import pg from 'pg';
import { migrationSource, latestMigration } from './migrations.js';

// bigint columns (contact ids, counts) fit in JS numbers here; numeric stays a string.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));

export type Db = Knex;

/** A row as the driver returns it; the store function that reads it gives it its type. */
// biome-ignore lint/suspicious/noExplicitAny: the one place an untyped row is admitted.
export type DbRow = Record<string, any>;

/** One `?` per value, comma separated: a list's parameters in raw SQL (`status in (${placeholders(list)})`). */
export const placeholders = (values: readonly unknown[]): string => values.map(() => '?').join(', ');

/**
 * How a process's connections (SWITCHBOARD_DB_POOL_MAX, at least 3) are shared: one listens
 * (pkg/db/notify.ts), the rest are split between queries and pipelined statements (turn locks and
 * turns' writes, pkg/db/pipeline.ts), the odd one to queries.
 */
export function shareConnections(total: number): { queries: number; pipelined: number } {
  const pipelined = Math.floor((total - 1) / 2);
  return { queries: total - 1 - pipelined, pipelined };
}

/** A pool of at most `poolMax` connections; a query waits `acquireTimeoutMs` at most for one (then KnexTimeoutError). */
// knex writes its warnings (a failed connection it retries) with console.log: on stderr instead, so
// stdout stays the JSON log lines of the server and the one JSON object of `admin --json`.
const knexLog = (message: unknown) => void process.stderr.write(`knex: ${String(message)}\n`);

export function createDb(url: string, poolMax: number, acquireTimeoutMs = 60_000): Db {
  return knexFactory({
    log: { warn: knexLog, error: knexLog, deprecate: knexLog, debug: knexLog },
    client: 'pg',
    connection: { connectionString: url, application_name: 'switchboard' },
    pool: { min: 0, max: poolMax },
    acquireConnectionTimeout: acquireTimeoutMs,
    migrations: { migrationSource, tableName: 'switchboard_migrations' },
  });
}

export async function migrate(db: Db): Promise<string[]> {
  // Several replicas may start at once; knex's migration lock makes the winner apply them.
  const [, applied] = (await db.migrate.latest()) as [number, string[]];
  return applied;
}

/** Postgres reachable and the schema at the newest migration (readiness). */
export async function schemaIsCurrent(db: Db): Promise<boolean> {
  const exists = await db.schema.hasTable('switchboard_migrations');
  if (!exists) return false;
  const row = await db('switchboard_migrations').where({ name: latestMigration }).first();
  return row !== undefined;
}
