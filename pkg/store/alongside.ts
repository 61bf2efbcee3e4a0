// Writes that go out inside another statement as its WITH parts, so a turn's closing changes (its
// last message, the credits it used, the job's transition) cost one round trip and one commit.
import type { Knex } from 'knex';

export interface Alongside {
  /** Named WITH parts; names are unique across everything one statement carries. */
  parts: [name: string, query: Knex.QueryBuilder | Knex.Raw][];
  /** Runs once the statement carrying the parts has succeeded (metrics). */
  after(): void;
}

export function carry<Q extends Knex.QueryBuilder>(query: Q, alongside: Alongside[]): Q {
  for (const { parts } of alongside) for (const [name, part] of parts) query.with(name, part);
  return query;
}

export function carried(alongside: Alongside[]): void {
  for (const a of alongside) a.after();
}
