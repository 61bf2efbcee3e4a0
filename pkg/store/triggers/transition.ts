// A job's move along the state table, made only from a status the table allows the event from.
import type { Ctx } from '../../context.js';
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
  const from = sourcesOf(event);
  // Every row of one event leads to one status (the state test checks it).
  const to = transition(from[0]!, event)!;
  const columns: Record<string, unknown> = { ...patch, status: to, updated_at: ctx.clock.now() };
  for (const key of ['metadata', 'wait_payload', 'human_reply'] as const) {
    if (patch[key] !== undefined) columns[key] = patch[key] === null ? null : JSON.stringify(patch[key]);
  }
  const query = ctx.db('triggers').where({ id }).whereIn('status', from);
  if (leaseOwner) query.andWhere({ lease_owner: leaseOwner });
  const [row] = await query.update(columns).returning(['*', notifyIdColumn(ctx.db, CHANNELS.triggers)]);
  if (!row) return null;
  ctx.metrics.triggerTransitions.inc({ event, status: to });
  return withoutAnnounced(row as TriggerRow);
}
