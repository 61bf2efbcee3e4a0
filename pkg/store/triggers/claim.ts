// The controllers' claim: due jobs start a run, leased to one replica, each on its own conversation.
import type { Ctx } from '../../context.js';
import { compiledOnce } from '../../db/compiled.js';
import { CHANNELS } from '../../db/notify.js';
import { observeClaimed, TAKE_LEASE, takeLease, type LeaseTaken } from '../../db/leases.js';
import { TRIGGER_LEASES } from './heartbeat.js';
import { nextDueTrigger, statusLiterals } from './next-due.js';
import type { TriggerRow, TriggerStatus } from './row.js';
import type { StatusChange } from './transition.js';

// The claim's plan must not hang on its values, or Postgres plans it anew for each claim (about 1 ms,
// more than running it): statuses are written into the text, so the one plan can use the partial
// indexes on status, and the time and the number of jobs are read through subqueries, which no
// plan looks into, so the plan for the values costs the same as the generic one, which Postgres
// then keeps from the sixth claim on a connection. An account's due jobs are compared as a row,
// (tenant_id, due_at), which only triggers_tenant_claimable can serve: given a plain due_at bound,
// the planner may walk an index in due order alone through every other account's backlog.
const NOW = '(select :now::timestamptz)';
const MAX = '(select :max::int)';

/** Postgres' unique_violation: the one-running-job-per-conversation or the account-slot index refused a claim. */
const UNIQUE_VIOLATION = '23505';

/** The claim's statement (triggerClaim), from the statuses in `claimable` into `claimed`. */
const claimStatement = (claimable: readonly TriggerStatus[], claimed: TriggerStatus) => {
  const CLAIMABLE_LIST = statusLiterals(claimable);
  const CLAIMED_LITERAL = statusLiterals([claimed]);
  return compiledOnce((db, values: LeaseTaken & { max: number; channel: string }) =>
    db.raw(
      `with recursive live as (
       -- Each account with live jobs, one index probe apiece (a loose index scan).
       (select t.tenant_id from triggers t where t.due_at is not null order by t.tenant_id limit 1)
       union all
       select (select t.tenant_id from triggers t where t.due_at is not null and t.tenant_id > live.tenant_id order by t.tenant_id limit 1)
       from live where live.tenant_id is not null
     ), accounts as (
       -- Accounts with due jobs and room under their cap, least recently served first.
       select live.tenant_id, served.at as served_at, head.due_at as head_due, room.jobs as room, room.free
       from live
       cross join lateral (
         select t.due_at from triggers t
         where t.tenant_id = live.tenant_id and t.status in (${CLAIMABLE_LIST}) and (t.tenant_id, t.due_at) <= (live.tenant_id, ${NOW})
         order by t.due_at limit 1
       ) head
       join tenants n on n.id = live.tenant_id
       cross join lateral (
         select case when n.max_concurrent_jobs is null then ${MAX}
           else least(${MAX}, n.max_concurrent_jobs - (select count(*)::int from triggers t
             where t.tenant_id = live.tenant_id and t.status = ${CLAIMED_LITERAL} and t.due_at is not null)) end as jobs,
           -- The places under the cap that no running job holds.
           case when n.max_concurrent_jobs is not null then array(
             select p from generate_series(1, n.max_concurrent_jobs) p
             except select t.tenant_slot from triggers t
               where t.tenant_id = live.tenant_id and t.status = ${CLAIMED_LITERAL} and t.due_at is not null
             order by 1) end as free
       ) room
       cross join lateral (
         select coalesce(max(t.last_run_at), '-infinity') as at from triggers t
         where t.tenant_id = live.tenant_id and t.last_run_at is not null
       ) served
       where room.jobs > 0
       order by served.at, head.due_at
       limit ${MAX}
     ), locked as (
       select t.*, a.served_at, a.head_due, a.room, a.free from accounts a
       cross join lateral (
         select t.id, t.tenant_id, t.conversation_id, t.status, t.due_at from triggers t
         where t.tenant_id = a.tenant_id and t.status in (${CLAIMABLE_LIST}) and (t.tenant_id, t.due_at) <= (a.tenant_id, ${NOW})
           and not exists (select 1 from triggers r where r.conversation_id = t.conversation_id and r.status = ${CLAIMED_LITERAL})
         order by t.due_at
         limit a.room
         for update skip locked
       ) t
     ), candidate as (
       select distinct on (conversation_id) * from locked order by conversation_id, due_at
     ), taken as (
       -- Round-robin: every account's first job, then every account's second, and so on.
       select * from (
         select c.*, row_number() over (partition by c.tenant_id order by c.due_at) as turn from candidate c
       ) c
       where c.turn <= c.room
       order by c.turn, c.served_at, c.head_due
       limit ${MAX}
     )
     update triggers t set status = ${CLAIMED_LITERAL}, attempt_count = t.attempt_count + 1,
       started_at = coalesce(t.started_at, :now), last_run_at = :now, next_run_at = null,
       ${TAKE_LEASE}, updated_at = :now, tenant_slot = taken.free[taken.turn]
     from taken where t.id = taken.id
     returning t.*, taken.status as was_status, taken.due_at as was_due, pg_notify(:channel, t.id::text) as announced`,
      values,
    ),
  );
};

/**
 * The claim of the state table's `changes` (pkg/triggers/claim.ts), which all lead to one status:
 * claim up to `max` due jobs in a status one of them is from, each on a different conversation
 * that has no job in that status: moved to it, attemptCount + 1, leased to `owner`.
 * Fair between accounts: round-robin over the accounts with due jobs, the least recently served
 * first, so one account's backlog does not hold up another's jobs; an account with
 * max_concurrent_jobs set gets no more than that running, each job in a numbered place under it.
 * SKIP LOCKED lets replicas claim side by side; partial unique indexes settle two claims on one
 * conversation or one account's place (the loser claims nothing and is told to look again at once).
 * Also returns how to learn when anything left is next due, for the controller's sleep (asked once
 * the jobs have started).
 */
export function triggerClaim(changes: readonly StatusChange[]) {
  const claimable = changes.flatMap((change) => change.from);
  const claimedStatus = changes[0]!.to;
  const statement = claimStatement(claimable, claimedStatus);
  /** The change that moved a job out of `was`. */
  const changeFrom = (was: TriggerStatus) => changes.find((change) => change.from.includes(was))!;
  return async (
    ctx: Pick<Ctx, 'db' | 'pipelined' | 'clock' | 'metrics'>,
    owner: string,
    leaseMs: number,
    max: number,
  ): Promise<{ claimed: TriggerRow[]; nextDue: () => Promise<Date | null> }> => {
    const lease = takeLease(ctx, owner, leaseMs);
    const claim = statement(ctx.db, { ...lease, max, channel: CHANNELS.triggers });
    const rows = await ctx.pipelined
      .send(claim)
      .then((result) => result.rows as ClaimedRow[])
      .catch((err) => {
        // Another replica claimed a job of one of these conversations, or one of these places under an
        // account's cap, meanwhile: claim nothing this time.
        if (err.code === UNIQUE_VIOLATION) return [];
        throw err;
      });
    const claimed = rows
      .sort((a, b) => a.was_due.getTime() - b.was_due.getTime())
      .map(({ was_status: was, was_due: due, announced: _, ...row }) => {
        ctx.metrics.triggerTransitions.inc({ event: changeFrom(was).event, status: claimedStatus });
        observeClaimed(ctx, TRIGGER_LEASES, lease.now, due);
        return row as TriggerRow;
      });
    return { claimed, nextDue: () => nextDueTrigger(ctx, claimed, claimable, claimedStatus) };
  };
}

type ClaimedRow = TriggerRow & { was_status: TriggerStatus; was_due: Date; announced: unknown };
