// A job's move along the state table, made only from a status the table allows the event from.
import type { Ctx } from '../../context.js';
import { CHANNELS, notifyIdColumn, withoutAnnounced } from '../../db/notify.js';
import { compiledQuery, type Sends } from '../../db/statements.js';
import type { TriggerRow, TriggerStatus } from './row.js';

export type TriggerPatch = Partial<Omit<TriggerRow, 'status' | 'metadata' | 'wait_payload' | 'human_reply'>> & {
  metadata?: Record<string, unknown>;
  wait_payload?: Record<string, unknown> | null;
  human_reply?: TriggerRow['human_reply'];
};

/** An event of the state table (pkg/triggers/state.ts) as written: the statuses it moves a job from, and the one it leads to. */
export interface StatusChange {
  event: string;
  from: readonly TriggerStatus[];
  to: TriggerStatus;
}

interface TransitionValues {
  id: string;
  from: readonly TriggerStatus[];
  leaseOwner?: string;
  columns: Record<string, unknown>;
}

/** The transition's statement, answering `returned` of the moved row (and announcing it). */
const transitionQuery = (returned: string) =>
  compiledQuery((db, { id, from, leaseOwner, columns }: TransitionValues) => {
    const query = db('triggers').where({ id }).whereIn('status', from);
    if (leaseOwner) query.andWhere({ lease_owner: leaseOwner });
    return query.update(columns).returning([returned, notifyIdColumn(db, CHANNELS.triggers)]);
  });

const movedRow = transitionQuery('*');
// A run's closing writes need only know whether the job moved: its 36 columns are not read back.
const movedId = transitionQuery('id');

/** The values of `change` with `patch`: its columns as written (JSON as text), moved only from a status it is from. */
function transitionValues(
  ctx: Pick<Ctx, 'clock'>,
  id: string,
  change: StatusChange,
  patch: TriggerPatch,
  leaseOwner?: string,
): TransitionValues {
  const columns: Record<string, unknown> = { ...patch, status: change.to, updated_at: ctx.clock.now() };
  for (const key of ['metadata', 'wait_payload', 'human_reply'] as const) {
    if (patch[key] !== undefined) columns[key] = patch[key] === null ? null : JSON.stringify(patch[key]);
  }
  return { id, from: change.from, leaseOwner, columns };
}

/**
 * Apply `change` to the trigger if it is still in a status the change is from (and, for running
 * work, still held by `leaseOwner`). Returns the new row, or null when the trigger had moved on:
 * the caller lost a race and must not act on it.
 */
export async function applyTransition(
  ctx: Pick<Ctx, 'clock' | 'metrics'> & Sends,
  id: string,
  change: StatusChange,
  patch: TriggerPatch,
  leaseOwner?: string,
): Promise<TriggerRow | null> {
  const [row] = await movedRow(ctx, transitionValues(ctx, id, change, patch, leaseOwner));
  if (!row) return null;
  ctx.metrics.triggerTransitions.inc({ event: change.event, status: change.to });
  return withoutAnnounced(row as TriggerRow);
}

/** applyTransition for a caller that needs no row back: whether the trigger moved. */
export async function moveTrigger(
  ctx: Pick<Ctx, 'clock' | 'metrics'> & Sends,
  id: string,
  change: StatusChange,
  patch: TriggerPatch,
  leaseOwner?: string,
): Promise<boolean> {
  const [row] = await movedId(ctx, transitionValues(ctx, id, change, patch, leaseOwner));
  if (row) ctx.metrics.triggerTransitions.inc({ event: change.event, status: change.to });
  return Boolean(row);
}
