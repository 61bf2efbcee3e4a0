// Indexes built by a migration while the tables keep taking writes: concurrently, so outside a
// transaction (the migration's `config = { transaction: false }`).
import type { Knex } from 'knex';

/** Builds each index (name: `table (columns) [where …]`), first dropping what a build cut short left behind. */
export async function createIndexesConcurrently(db: Knex, indexes: Record<string, string>): Promise<void> {
  for (const [name, on] of Object.entries(indexes)) {
    await db.raw(`drop index concurrently if exists ${name}`);
    await db.raw(`create index concurrently ${name} on ${on}`);
  }
}

export async function dropIndexesConcurrently(db: Knex, indexes: Record<string, string>): Promise<void> {
  for (const name of Object.keys(indexes)) await db.raw(`drop index concurrently if exists ${name}`);
}
