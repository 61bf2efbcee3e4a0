// The jobs' claim as a function: its plan is cached (a claim runs for every job, and planning it cost
// more than running it), and a claim that loses a race to another replica claims nothing instead of
// failing, so it can share a round trip with other statements (a finishing run's closing ones)
// whose results must not be lost to its error.
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  // Only the jobs a claim may take: the claim reads a few index entries, however many finished jobs
  // the table holds (over triggers_due, which keeps every live row, the planner chose to scan the
  // table, whose finished rows then cost every claim more as they grew), and its cached plan is good
  // whatever the values.
  await db.raw(`create index triggers_claimable on triggers (due_at) where status in ('queued', 'waiting')`);
  await createClaimFunction(db);
}

/** The function alone (024 dropped it; its down brings it back). */
export async function createClaimFunction(db: Knex): Promise<void> {
  await db.raw(`
    create function switchboard_claim_triggers(p_owner text, p_now timestamptz, p_until timestamptz, p_max int, p_channel text, p_next boolean)
    returns table (claimed triggers, was_status text, was_due timestamptz, next_due timestamptz)
    language plpgsql as $$
    declare
      v_claimed triggers[] := '{}';
      v_status text[] := '{}';
      v_due timestamptz[] := '{}';
      v_next timestamptz;
    begin
      begin
        with locked as (
          select t.id, t.conversation_id, t.status, t.due_at from triggers t
          where t.due_at <= p_now and t.status in ('queued', 'waiting')
            and not exists (select 1 from triggers r where r.conversation_id = t.conversation_id and r.status = 'running')
          order by t.due_at
          limit p_max
          for update skip locked
        ), candidate as (
          select distinct on (conversation_id) * from locked order by conversation_id, due_at
        ), updated as (
          update triggers t set status = 'running', attempt_count = t.attempt_count + 1,
            started_at = coalesce(t.started_at, p_now), last_run_at = p_now, next_run_at = null,
            lease_owner = p_owner, lease_until = p_until, due_at = p_until, updated_at = p_now
          from candidate where t.id = candidate.id
          returning t as row, candidate.status as was, candidate.due_at as due, pg_notify(p_channel, t.id::text)
        )
        select coalesce(array_agg(u.row order by u.due), '{}'), coalesce(array_agg(u.was order by u.due), '{}'),
          coalesce(array_agg(u.due order by u.due), '{}')
        into v_claimed, v_status, v_due from updated u;
      exception when unique_violation then
        -- Another replica claimed a job of one of these conversations meanwhile (the one-running
        -- index): nothing is claimed this time, and the caller looks again.
        v_claimed := '{}';
      end;
      -- For statements later in the same round trip: the first job claimed's company, conversation
      -- and agent, '' when none (settings cost less to plan around than a subquery).
      perform set_config('switchboard.claimed_tenant', coalesce((v_claimed[1]).tenant_id, ''), false),
        set_config('switchboard.claimed_conversation', coalesce((v_claimed[1]).conversation_id::text, ''), false),
        set_config('switchboard.claimed_agent', coalesce((v_claimed[1]).agent_id::text, ''), false);
      if p_next then
        -- When anything else is next due (for the controller's sleep); jobs behind a running job
        -- on their conversation are left out: they cannot be claimed, and that job's end is announced.
        select min(t.due_at) into v_next from triggers t
        where t.due_at is not null and t.id <> all (select (c).id from unnest(v_claimed) c)
          and not (t.status in ('queued', 'waiting')
            and exists (select 1 from triggers r where r.conversation_id = t.conversation_id and r.status = 'running'));
      end if;
      if cardinality(v_claimed) = 0 then
        return query select null::triggers, null::text, null::timestamptz, v_next;
      else
        return query select v_claimed[i], v_status[i], v_due[i], v_next from generate_subscripts(v_claimed, 1) i;
      end if;
    end $$`);
}

export async function down(db: Knex): Promise<void> {
  await dropClaimFunction(db);
  await db.raw('drop index triggers_claimable');
}

export async function dropClaimFunction(db: Knex): Promise<void> {
  await db.raw('drop function switchboard_claim_triggers(text, timestamptz, timestamptz, int, text, boolean)');
}
