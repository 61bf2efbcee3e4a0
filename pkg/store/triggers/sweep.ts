// The controllers' sweep: ends the jobs whose lease or deadline passed, as pkg/triggers/sweeps.ts says.
import type { Ctx } from '../../context.js';
import { CHANNELS } from '../../db/notify.js';
import type { TriggerRow, TriggerStatus } from './row.js';

/** A row of the state table the sweep applies: a job in `from` whose `passed` time has passed moves to `to`, with `message`. */
export interface TriggerSweep {
  from: TriggerStatus;
  event: string;
  to: TriggerStatus;
  /** The time that must have passed: a running job's lease, or the job's deadline. */
  passed: 'lease_until' | 'expires_at';
  message: string;
}

/** End every job (or only job `only`) one of `sweeps` applies to now; returns them as they ended. */
export async function sweepTriggers(
  ctx: Pick<Ctx, 'db' | 'clock' | 'metrics'>,
  sweeps: readonly TriggerSweep[],
  only?: string,
): Promise<TriggerRow[]> {
  const now = ctx.clock.now();
  const { rows } = await ctx.db.raw(
    `with sweep (status, event, target, passed, message) as (values ${sweeps.map(() => '(?, ?, ?, ?, ?)').join(', ')}),
     due as (
       select t.id, sweep.event, sweep.target, sweep.message from triggers t join sweep on sweep.status = t.status
       where ${only ? 't.id = ? and ' : ''}t.due_at <= ?
         and (case sweep.passed when 'lease_until' then t.lease_until else t.expires_at end) <= ?
       for update of t skip locked
     )
     update triggers t set status = due.target, error_message = due.message,
       completed_at = ?, updated_at = ?, due_at = null, next_run_at = null, waiting_reason = null,
       lease_owner = null, lease_until = null
     from due where t.id = due.id
     returning t.*, due.event as swept_by, pg_notify(?, t.id::text) as announced`,
    [
      ...sweeps.flatMap((s) => [s.from, s.event, s.to, s.passed, s.message]),
      ...(only ? [only] : []),
      now,
      now,
      now,
      now,
      CHANNELS.triggers,
    ],
  );
  return rows.map(({ swept_by: event, announced: _, ...row }: TriggerRow & { swept_by: string; announced: unknown }) => {
    ctx.metrics.triggerTransitions.inc({ event, status: row.status });
    return row as TriggerRow;
  });
}
