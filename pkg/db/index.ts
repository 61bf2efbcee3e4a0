// The Postgres connection (knex over pg). Postgres is the source of truth for everything.
import knexFactory, { type Knex } from 'knex';
import pg from 'pg';
import { migrationSource, latestMigration } from './migrations.js';

// bigint columns (contact ids, counts) fit in JS numbers here; numeric stays a string.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));

export type Db = Knex;

export function createDb(url: string, poolMax: number): Db {
  return knexFactory({
    client: 'pg',
    connection: { connectionString: url, application_name: 'switchboard' },
    pool: { min: 0, max: poolMax },
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
