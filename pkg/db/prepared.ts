// Named prepared statements (pg's own): Postgres parses and plans a statement's text once per
// connection rather than on every request. For the statements that every request or turn runs.
/** Each statement text's name (pg prepares a name on a connection the first time it is sent there). */
const names = new Map<string, string>();
let named = 0;

export function nameOf(sql: string): string {
  let name = names.get(sql);
  if (!name) {
    name = `switchboard_${++named}`;
    names.set(sql, name);
  }
  return name;
}

/** Gives statement `sql` a new name, which every connection prepares anew. */
export const renameStatement = (sql: string): void => void names.delete(sql);

/** Postgres refuses a prepared statement whose result columns changed under it (a migration added a column to a `*`). */
export const isStalePlan = (err: unknown): boolean =>
  (err as { code?: string }).code === '0A000' && String((err as Error).message).includes('cached plan must not change result type');

/**
 * Runs `send` with the name of statement `sql`, outside a transaction. A statement a migration
 * changed under it is sent once more under a new name.
 */
export async function asPrepared<T>(sql: string, send: (name: string) => Promise<T>): Promise<T> {
  try {
    return await send(nameOf(sql));
  } catch (err) {
    if (!isStalePlan(err)) throw err;
    renameStatement(sql);
    return send(nameOf(sql));
  }
}
