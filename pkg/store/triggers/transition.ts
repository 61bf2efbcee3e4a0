// A job's move along the state table, made only from a status the table allows the event from.
import type { Knex } from 'knex';
import type { Ctx } from '../../context.js';
import { compiledOnce } from '../../db/compiled.js';
import { CHANNELS, notifyIdColumn, withoutAnnounced } from '../../db/notify.js';
import { sourcesOf, transition, type TriggerEvent } from '../../triggers/state.js';
import type { TriggerRow } from './row.js';

export type TriggerPatch = Partial<Omit<TriggerRow, 'status' | 'metadata' | 'wait_payload' | 'human_reply'>> & {
  metadata?: Record<string, unknown>;
  wait_payload?: Record<string, unknown> | null;
  human_reply?: TriggerRow['human_reply'];
};

/**
 * Apply `event` to the trigger if it is still in a status the state table allows it from
 * (and, for running work, still held by `leaseOwner`); the new status is the table's. Returns the
 * new row, or null when the trigger had moved on: the caller lost a race and must not act on it.
 */
export async function applyTransition(
  ctx: Pick<Ctx, 'db' | 'clock' | 'metrics'>,
  id: string,
  event: TriggerEvent,
  patch: TriggerPatch,
  leaseOwner?: string,
): Promise<TriggerRow | null> {
  const [row] = await transitionQuery(ctx.db, event, transitionValues(ctx, id, event, patch, leaseOwner));
  return transitioned(ctx, event, row);
}

/** The status `event` leads to: every row of one event leads to one status (the state test checks it). */
const targetOf = (event: TriggerEvent) => transition(sourcesOf(event)[0]!, event)!;

interface TransitionValues {
  id: string;
  leaseOwner?: string;
  columns: Record<string, unknown>;
}

function transitionValues(ctx: Pick<Ctx, 'clock'>, id: string, event: TriggerEvent, patch: TriggerPatch, leaseOwner?: string): TransitionValues {
  const columns: Record<string, unknown> = { ...patch, status: targetOf(event), updated_at: ctx.clock.now() };
  for (const key of ['metadata', 'wait_payload', 'human_reply'] as const) {
    if (patch[key] !== undefined) columns[key] = patch[key] === null ? null : JSON.stringify(patch[key]);
  }
  return { id, leaseOwner, columns };
}

function transitionQuery(db: Knex, event: TriggerEvent, { id, leaseOwner, columns }: TransitionValues): Knex.QueryBuilder {
  const query = db('triggers').where({ id }).whereIn('status', sourcesOf(event));
  if (leaseOwner) query.andWhere({ lease_owner: leaseOwner });
  return query.update(columns).returning(['*', notifyIdColumn(db, CHANNELS.triggers)]);
}

/** Each event's statement, its source statuses written into its text. */
const compiledTransitions = new Map<TriggerEvent, (db: Knex, values: TransitionValues) => Knex.SqlNative>();

/** applyTransition's statement, unsent (a job run's closing transaction sends it with the others). */
export function transitionStatement(
  ctx: Pick<Ctx, 'db' | 'clock'>,
  id: string,
  event: TriggerEvent,
  patch: TriggerPatch,
  leaseOwner?: string,
): Knex.SqlNative {
  let compiled = compiledTransitions.get(event);
  if (!compiled) compiledTransitions.set(event, (compiled = compiledOnce((db, values: TransitionValues) => transitionQuery(db, event, values))));
  return compiled(ctx.db, transitionValues(ctx, id, event, patch, leaseOwner));
}

/** What transitionStatement's row (none when the trigger had moved on) makes of the trigger, counted in the metrics. */
export function transitioned(ctx: Pick<Ctx, 'metrics'>, event: TriggerEvent, row: Record<string, any> | undefined): TriggerRow | null {
  if (!row) return null;
  ctx.metrics.triggerTransitions.inc({ event, status: targetOf(event) });
  return withoutAnnounced(row as TriggerRow);
}
