// The controllers' claim: due jobs start a run, leased to one replica, each on its own conversation.
// Migration 005's switchboard_claim_triggers is no longer called; it stays for the previous
// release's replicas during a rolling upgrade and is to be dropped by the next release.
import type { Ctx } from '../../context.js';
import { CHANNELS } from '../../db/notify.js';
import { prepared } from '../../db/prepared.js';
import { sourcesOf, transition, type TriggerEvent, type TriggerStatus } from '../../triggers/state.js';
import { nextDueTrigger } from './next-due.js';
import type { TriggerRow } from './row.js';

/** The state table's events that start a run: a queued job claimed, a waiting job's follow-up due. */
const CLAIM_EVENTS: readonly TriggerEvent[] = ['claim', 'follow_up_due'];
/** The statuses a claim takes jobs from. */
export const CLAIMABLE: readonly TriggerStatus[] = CLAIM_EVENTS.flatMap(sourcesOf);
/** The status a claimed job is in; every claim event leads to it (the state test checks it). */
export const CLAIMED: TriggerStatus = transition(sourcesOf('claim')[0]!, 'claim')!;

/** The claim event that moved a job out of `was`. */
const claimEvent = (was: TriggerStatus): TriggerEvent => CLAIM_EVENTS.find((event) => sourcesOf(event).includes(was))!;

/** Postgres' unique_violation: the one-running-job-per-conversation index refused a claim. */
const UNIQUE_VIOLATION = '23505';

/**
 * Claim up to `max` due jobs (queued, or waiting with their follow-up time reached), each on a
 * different conversation that has no running job: running, attemptCount + 1, leased to `owner`.
 * SKIP LOCKED lets replicas claim side by side; the partial unique index settles two claims on one
 * conversation (the loser claims nothing and is told to look again at once). Also returns how to
 * learn when anything left is next due, for the controller's sleep (asked once the jobs have started).
 */
export async function claimDueTriggers(
  ctx: Pick<Ctx, 'db' | 'clock' | 'metrics'>,
  owner: string,
  leaseMs: number,
  max: number,
): Promise<{ claimed: TriggerRow[]; nextDue: () => Promise<Date | null> }> {
  const now = ctx.clock.now();
  const until = new Date(now.getTime() + leaseMs);
  const rows = await prepared<{ rows: ClaimedRow[] }>(
    ctx.db.raw(
      `with locked as (
         select t.id, t.conversation_id, t.status, t.due_at from triggers t
         where t.due_at <= :now and t.status = any(:claimable)
           and not exists (select 1 from triggers r where r.conversation_id = t.conversation_id and r.status = :claimed)
         order by t.due_at
         limit :max
         for update skip locked
       ), candidate as (
         select distinct on (conversation_id) * from locked order by conversation_id, due_at
       )
       update triggers t set status = :claimed, attempt_count = t.attempt_count + 1,
         started_at = coalesce(t.started_at, :now), last_run_at = :now, next_run_at = null,
         lease_owner = :owner, lease_until = :until, due_at = :until, updated_at = :now
       from candidate where t.id = candidate.id
       returning t.*, candidate.status as was_status, candidate.due_at as was_due, pg_notify(:channel, t.id::text) as announced`,
      { now, claimable: [...CLAIMABLE], claimed: CLAIMED, max, owner, until, channel: CHANNELS.triggers },
    ),
  )
    .then((result) => result.rows)
    .catch((err) => {
      // Another replica claimed a job of one of these conversations meanwhile: claim nothing this time.
      if (err.code === UNIQUE_VIOLATION) return [];
      throw err;
    });
  const claimed = rows
    .sort((a, b) => a.was_due.getTime() - b.was_due.getTime())
    .map(({ was_status: was, was_due: due, announced: _, ...row }) => {
      ctx.metrics.triggerTransitions.inc({ event: claimEvent(was), status: CLAIMED });
      ctx.metrics.queueLag.observe({ reconciler: 'triggers' }, Math.max(0, now.getTime() - due.getTime()) / 1000);
      return row as TriggerRow;
    });
  return { claimed, nextDue: () => nextDueTrigger(ctx, claimed, CLAIMABLE, CLAIMED) };
}

type ClaimedRow = TriggerRow & { was_status: TriggerStatus; was_due: Date; announced: unknown };
