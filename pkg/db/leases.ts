// What a heartbeat renews: the leased rows no other transaction is changing right now. A row locked
// by a transition (or anything else) is renewed at the next beat, a third of a lease later, rather than
// holding up every other row's renewal, and a connection, until the lock goes.
import type { Knex } from 'knex';

/** The ids of `table`'s rows among `ids` that `where` selects, locked for the heartbeat's statement, skipping those locked already. */
export const heartbeatRows = (db: Knex, table: string, ids: string[], where: Record<string, unknown>): Knex.QueryBuilder =>
  db(table).select('id').whereRaw('id = any(?)', [ids]).andWhere(where).forUpdate().skipLocked();
