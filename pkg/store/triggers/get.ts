// Reading one trigger: by id within its company, by its company's idempotency key, or a conversation's latest.
import type { Knex } from 'knex';
import type { Ctx } from '../../context.js';
import { compiledOnce } from '../../db/compiled.js';
import { isUuid } from '../../ids.js';
import { NotFound } from '../../errors.js';
import type { TriggerRow } from './row.js';

const triggerQuery = (db: Knex, { id, tenantId }: { id: string; tenantId: string }) => db('triggers').where({ id, tenant_id: tenantId }).first();
const compiledTrigger = compiledOnce(triggerQuery);

/** A tenant's job: in ctx.db's transaction when it is one (which may have changed it), else as a named prepared statement (every job status read runs it). */
export async function getTrigger(ctx: Pick<Ctx, 'db' | 'pipelined'>, tenantId: string, id: string): Promise<TriggerRow> {
  if (!isUuid(id)) throw new NotFound(`Unknown trigger ${id}`);
  const row: TriggerRow | undefined = ctx.db.isTransaction
    ? await triggerQuery(ctx.db, { id, tenantId })
    : (await ctx.pipelined.send(compiledTrigger(ctx.db, { id, tenantId }))).rows[0];
  if (!row) throw new NotFound(`Unknown trigger ${id}`);
  return row;
}

export async function findByIdempotencyKey(db: Knex, tenantId: string, key: string): Promise<TriggerRow | undefined> {
  return db('triggers').where({ tenant_id: tenantId, idempotency_key: key }).first();
}

export async function latestTrigger(ctx: Pick<Ctx, 'db'>, conversationId: string): Promise<TriggerRow | undefined> {
  return ctx.db('triggers').where({ conversation_id: conversationId }).orderBy('seq', 'desc').first();
}
