// Inserting a job, on an existing conversation or with the new one it runs on (one statement), announced to the controllers.
import type { Knex } from 'knex';
import { CHANNELS, notifyIdColumn, withoutAnnounced } from '../../db/notify.js';
import { compiledQuery, type Sends } from '../../db/statements.js';
import { isUuid } from '../../ids.js';
import { usableAgentOf } from '../agents.js';
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

/** The job alone; or with its new conversation, both only if the conversation's agent is usable by its company (usableAgentOf). */
const insertQuery = compiledQuery(
  (db, { trigger, conversation }: { trigger: Record<string, unknown>; conversation?: Record<string, unknown> }) => {
    if (!conversation)
      return db('triggers')
        .insert(trigger)
        .returning(['*', notifyIdColumn(db, CHANNELS.triggers)]);
    const [c, t] = [insertColumns(conversation), insertColumns(trigger)];
    const agent = usableAgentOf(db, conversation.tenant_id as string, conversation.agent_id as string).select(db.raw('1'));
    return db.raw(
      `with agent as (?),
     conversation as (insert into conversations ${c.sql} from agent returning 1)
     insert into triggers ${t.sql} from conversation
     returning *, pg_notify(?, id::text) as announced`,
      [agent, ...c.bindings, ...t.bindings, CHANNELS.triggers],
    );
  },
);

/**
 * Insert a job; with `conversation` (newConversationRow), the new conversation it runs on too, in
 * the same statement. Returns undefined when that conversation's agent is not usable by its company.
 */
export async function insertTrigger(
  ctx: Sends,
  row: Partial<TriggerRow>,
  conversation?: Record<string, unknown>,
): Promise<TriggerRow | undefined> {
  if (conversation && !isUuid(conversation.agent_id as string)) return undefined;
  const trigger = { ...row, business_keys: JSON.stringify(row.business_keys ?? {}), metadata: JSON.stringify(row.metadata ?? {}) };
  const [inserted] = await insertQuery(ctx, { trigger, conversation });
  return inserted && withoutAnnounced(inserted as TriggerRow);
}
