// Inserting a job, on an existing conversation or with the new one it runs on (one statement), announced to the controllers.
// Whether the conversation's agent may be used is the domain's to check first (pkg/triggers/create.ts).
import type { Knex } from 'knex';
import { CHANNELS, notifyIdColumn, withoutAnnounced } from '../../db/notify.js';
import { compiledQuery, type Sends } from '../../db/statements.js';
import type { TriggerRow } from './row.js';

/** A row's columns as one statement's values: each a parameter (pkg/db/compiled.ts), JSON as text. */
const insertColumns = (r: Record<string, unknown>) => ({
  sql: `(${Object.keys(r)
    .map(() => '??')
    .join(', ')}) select ${Object.keys(r)
    .map(() => '?')
    .join(', ')}`,
  bindings: [...Object.keys(r), ...Object.values(r)] as Knex.Value[],
});

/** The job alone; or with its new conversation, both in one statement. */
const insertQuery = compiledQuery(
  (db, { trigger, conversation }: { trigger: Record<string, unknown>; conversation?: Record<string, unknown> }) => {
    if (!conversation)
      return db('triggers')
        .insert(trigger)
        .returning(['*', notifyIdColumn(db, CHANNELS.triggers)]);
    const [c, t] = [insertColumns(conversation), insertColumns(trigger)];
    return db.raw(
      `with conversation as (insert into conversations ${c.sql} returning 1)
     insert into triggers ${t.sql} from conversation
     returning *, pg_notify(?, id::text) as announced`,
      [...c.bindings, ...t.bindings, CHANNELS.triggers],
    );
  },
);

/** Insert a job; with `conversation` (newConversationRow), the new conversation it runs on too, in the same statement. */
export async function insertTrigger(ctx: Sends, row: Partial<TriggerRow>, conversation?: Record<string, unknown>): Promise<TriggerRow> {
  const trigger = { ...row, business_keys: JSON.stringify(row.business_keys ?? {}), metadata: JSON.stringify(row.metadata ?? {}) };
  const [inserted] = await insertQuery(ctx, { trigger, conversation });
  return withoutAnnounced(inserted as TriggerRow);
}
