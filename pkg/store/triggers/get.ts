// Reading one trigger: by id within its company, by its company's idempotency key, or a conversation's latest.
import type { Knex } from 'knex';
import type { Ctx } from '../../context.js';
import { compiledQuery, type Sends } from '../../db/statements.js';
import { isUuid } from '../../ids.js';
import { NotFound } from '../../errors.js';
import type { TriggerRow } from './row.js';

// Every job status read runs it.
const triggerById = compiledQuery((db, { id, tenantId }: { id: string; tenantId: string }) =>
  db('triggers').where({ id, tenant_id: tenantId }).limit(1),
);

/** A tenant's job; in ctx.db's transaction when it is one (which may have changed it). */
export async function getTrigger(ctx: Sends, tenantId: string, id: string): Promise<TriggerRow> {
  if (!isUuid(id)) throw new NotFound(`Unknown trigger ${id}`);
  const [row] = (await triggerById(ctx, { id, tenantId })) as TriggerRow[];
  if (!row) throw new NotFound(`Unknown trigger ${id}`);
  return row;
}

export async function findByIdempotencyKey(db: Knex, tenantId: string, key: string): Promise<TriggerRow | undefined> {
  return db('triggers').where({ tenant_id: tenantId, idempotency_key: key }).first();
}

export async function latestTrigger(ctx: Pick<Ctx, 'db'>, conversationId: string): Promise<TriggerRow | undefined> {
  return ctx.db('triggers').where({ conversation_id: conversationId }).orderBy('seq', 'desc').first();
}
