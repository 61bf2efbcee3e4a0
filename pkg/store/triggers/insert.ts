// Inserting a job, alone or with the new conversation it runs on (one statement), announced to the controllers.
import type { Knex } from 'knex';
import type { Ctx } from '../../context.js';
import { CHANNELS, notifyIdColumn, withoutAnnounced } from '../../db/notify.js';
import { compiledOnce } from '../../db/compiled.js';
import { isUuid } from '../../ids.js';
import { usableAgentOf } from '../agents.js';
import type { TriggerRow } from './row.js';

const triggerColumns = (row: Partial<TriggerRow>): Record<string, unknown> => ({
  ...row,
  business_keys: JSON.stringify(row.business_keys ?? {}),
  metadata: JSON.stringify(row.metadata ?? {}),
});

export async function insertTrigger(db: Knex, row: Partial<TriggerRow>): Promise<TriggerRow> {
  const [inserted] = await db('triggers')
    .insert(triggerColumns(row))
    .returning(['*', notifyIdColumn(db, CHANNELS.triggers)]);
  return withoutAnnounced<TriggerRow>(inserted);
}

/**
 * The statement inserting a job with the new conversation it runs on (newConversationRow), both
 * only if the conversation's agent is usable by its company (usableAgentOf).
 */
const triggerWithConversation = compiledOnce((db, { conversation, trigger }: { conversation: Record<string, unknown>; trigger: Record<string, unknown> }) => {
  const insert = (r: Record<string, unknown>) => ({
    sql: `(${Object.keys(r).map(() => '??').join(', ')}) select ${Object.keys(r).map(() => '?').join(', ')}`,
    bindings: [...Object.keys(r), ...Object.values(r)],
  });
  const [c, t] = [insert(conversation), insert(trigger)];
  const agent = usableAgentOf(db, conversation.tenant_id as string, conversation.agent_id as string).select(db.raw('1'));
  return db.raw(
    `with agent as (?),
     conversation as (insert into conversations ${c.sql} from agent returning 1)
     insert into triggers ${t.sql} from conversation
     returning *, pg_notify(?, id::text) as announced`,
    [
      agent,
      ...c.bindings,
      ...t.bindings,
      CHANNELS.triggers,
    ] as Knex.Value[],
  );
});

/** Insert a job with the new conversation it runs on (triggerWithConversation). Returns undefined when its agent is not usable. */
export async function insertTriggerWithConversation(
  ctx: Pick<Ctx, 'db' | 'pipelined'>,
  conversation: Record<string, unknown>,
  row: Partial<TriggerRow>,
): Promise<TriggerRow | undefined> {
  if (!isUuid(conversation.agent_id as string)) return undefined;
  const statement = triggerWithConversation(ctx.db, { conversation, trigger: triggerColumns(row) });
  const [inserted] = (await ctx.pipelined.send(statement)).rows as (TriggerRow & { announced?: unknown })[];
  return inserted && withoutAnnounced<TriggerRow>(inserted);
}
