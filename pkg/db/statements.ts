// Where a statement built with knex runs: knex's pool, or a connection the caller holds (a turn's
// lock), which takes it in the simple protocol, values inlined as literals, beside other statements.
import type { Knex } from 'knex';
import pg from 'pg';

/** Runs a statement and gives its rows. */
export type Runner = (statement: Knex.QueryBuilder) => Promise<Record<string, any>[]>;

export const onPool: Runner = async (statement) => statement;

// The text pg would send for each value as a parameter, so a literal means what the parameter did.
const { prepareValue } = (pg as unknown as { utils: { prepareValue(value: unknown): string | Buffer | null } }).utils;

/** `value` as an SQL literal meaning what it would as a parameter. */
export function literal(value: unknown): string {
  const text = prepareValue(value);
  if (text === null) return 'null';
  if (Buffer.isBuffer(text)) throw new TypeError('binary values cannot be inlined');
  return pg.escapeLiteral(text);
}

/** `sql` with `values` inlined for its parameters $1… */
export const withValues = (sql: string, values: readonly unknown[]): string => sql.replace(/\$(\d+)/g, (_, n: string) => literal(values[Number(n) - 1]));

/** `statement`'s SQL with its values inlined (knex passes every value as a parameter, $1…). */
export function inlined(statement: Knex.QueryBuilder | Knex.Raw): string {
  const { sql, bindings } = statement.toSQL().toNative();
  return withValues(sql, bindings);
}
