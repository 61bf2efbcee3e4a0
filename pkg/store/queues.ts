// The account's call queues: members (people with phones) rung longest-idle first, how long a caller
// waits at most, and what the caller hears meanwhile.
import type { Ctx, DbClock } from '../context.js';
import { CHANNELS, notify } from '../db/notify.js';
import { NotFound } from '../errors.js';
import { prefixedId } from '../ids.js';
import type { CallStatus } from './calls/row.js';
import { type DbRow, placeholders } from '../db/index.js';

export interface QueueMember {
  id: string;
  name: string;
  phone: string;
  available: boolean;
}

/** A member as the account gives it: without an id, one is made. */
export type QueueMemberInput = Omit<QueueMember, 'id'> & { id?: string };

export interface Queue {
  id: string;
  tenantId: string;
  name: string;
  members: QueueMember[];
  maxWaitSec: number;
  holdMessage: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface QueueInput {
  name?: string;
  members?: QueueMember[];
  max_wait_sec?: number;
  hold_message?: string | null;
}

const toQueue = (r: DbRow): Queue => ({
  id: r.id,
  tenantId: r.tenant_id,
  name: r.name,
  members: r.members,
  maxWaitSec: r.max_wait_sec,
  holdMessage: r.hold_message,
  createdAt: r.created_at.toISOString(),
  updatedAt: r.updated_at.toISOString(),
});

const columns = (input: QueueInput) => ({
  ...(input.name !== undefined ? { name: input.name } : {}),
  ...(input.members !== undefined ? { members: JSON.stringify(input.members) } : {}),
  ...(input.max_wait_sec !== undefined ? { max_wait_sec: input.max_wait_sec } : {}),
  ...(input.hold_message !== undefined ? { hold_message: input.hold_message } : {}),
});

export async function createQueue(ctx: DbClock, tenantId: string, input: QueueInput & { name: string }): Promise<Queue> {
  const now = ctx.clock.now();
  const [row] = await ctx
    .db('queues')
    .insert({ id: prefixedId('que'), tenant_id: tenantId, ...columns(input), created_at: now, updated_at: now })
    .returning('*');
  return toQueue(row);
}

export async function listQueues(ctx: Pick<Ctx, 'db'>, tenantId: string): Promise<Queue[]> {
  return (await ctx.db('queues').where({ tenant_id: tenantId }).orderBy(['created_at', 'id'])).map(toQueue);
}

/** The tenant's queue, or NotFound (another tenant's answers the same). */
export async function getQueue(ctx: Pick<Ctx, 'db'>, tenantId: string, id: string): Promise<Queue> {
  const row = await ctx.db('queues').where({ tenant_id: tenantId, id }).first();
  if (!row) throw new NotFound(`No queue ${id} on this account`);
  return toQueue(row);
}

/** Changes the queue; changed members make the callers waiting in it look again. */
export async function updateQueue(ctx: DbClock, tenantId: string, id: string, input: QueueInput): Promise<Queue> {
  const [row] = await ctx
    .db('queues')
    .where({ tenant_id: tenantId, id })
    .update({ ...columns(input), updated_at: ctx.clock.now() })
    .returning('*');
  if (!row) throw new NotFound(`No queue ${id} on this account`);
  if (input.members) await notify(ctx.db, CHANNELS.queues, id);
  return toQueue(row);
}

/**
 * Sets one member's availability in a single conditional UPDATE: the members array is rebuilt from
 * the row as it is when written, so a concurrent change of another member is kept; made available,
 * callers waiting in the queue look again. NotFound for no such queue on the account or member in it.
 */
export async function setMemberAvailable(ctx: DbClock, tenantId: string, id: string, memberId: string, available: boolean): Promise<Queue> {
  const changed = await ctx.db.raw(
    `update queues set updated_at = ?, members = (
       select jsonb_agg(case when m->>'id' = ? then jsonb_set(m, '{available}', to_jsonb(?::boolean)) else m end order by i)
       from jsonb_array_elements(members) with ordinality as e(m, i))
     where tenant_id = ? and id = ? and members @> jsonb_build_array(jsonb_build_object('id', ?::text))
     returning *`,
    [ctx.clock.now(), memberId, available, tenantId, id, memberId],
  );
  if (changed.rows[0]) {
    // A member back at work may take a caller who waits for a busy one.
    if (available) await notify(ctx.db, CHANNELS.queues, id);
    return toQueue(changed.rows[0]);
  }
  const queue = await getQueue(ctx, tenantId, id);
  throw new NotFound(`Queue ${queue.id} has no member ${memberId}`);
}

export async function deleteQueue(ctx: Pick<Ctx, 'db'>, tenantId: string, id: string): Promise<Queue> {
  const [row] = await ctx.db('queues').where({ tenant_id: tenantId, id }).del().returning('*');
  if (!row) throw new NotFound(`No queue ${id} on this account`);
  return toQueue(row);
}

/** The available members, longest idle first (never finished a call from the queue first, then in the queue's order). */
export async function membersToRing(ctx: Pick<Ctx, 'db'>, queue: Queue): Promise<QueueMember[]> {
  const idle = new Map<string, number>(
    (await ctx.db('queue_member_idle').where({ queue_id: queue.id }).whereNotNull('idle_since')).map((r: DbRow) => [
      r.member_id,
      r.idle_since.getTime(),
    ]),
  );
  return queue.members
    .map((member, order) => ({ member, order, since: idle.get(member.id) ?? -Infinity }))
    .filter(({ member }) => member.available)
    .sort((a, b) => a.since - b.since || a.order - b.order)
    .map(({ member }) => member);
}

/** SQL: the member's call from the queue is in one of `live` statuses (as many parameters). */
const onLiveCall = (live: readonly CallStatus[]): string =>
  `exists (select 1 from calls where calls.id = queue_member_idle.busy_call_id and calls.status in (${placeholders(live)}))`;

/** Takes the member for `callId`; false while they are on another call from the queue in one of the `live` statuses (one that ended frees them). */
export async function takeMember(
  ctx: Pick<Ctx, 'db'>,
  queueId: string,
  memberId: string,
  callId: string,
  live: readonly CallStatus[],
): Promise<boolean> {
  const taken = await ctx.db.raw(
    `insert into queue_member_idle (queue_id, member_id, busy_call_id) values (?, ?, ?)
     on conflict (queue_id, member_id) do update set busy_call_id = excluded.busy_call_id
     where queue_member_idle.busy_call_id is null or queue_member_idle.busy_call_id = excluded.busy_call_id or not ${onLiveCall(live)}
     returning member_id`,
    [queueId, memberId, callId, ...live],
  );
  return taken.rows.length > 0;
}

/** Members of the queue on a call from it in one of the `live` statuses, each with that call's id. */
export async function membersOnCalls(ctx: Pick<Ctx, 'db'>, queueId: string, live: readonly CallStatus[]): Promise<Map<string, string>> {
  const rows = await ctx
    .db('queue_member_idle')
    .where({ queue_id: queueId })
    .whereRaw(onLiveCall(live), [...live])
    .select('member_id', 'busy_call_id');
  return new Map(rows.map((r: DbRow) => [r.member_id, r.busy_call_id]));
}

/** The member is off `callId` (announced to callers waiting for one); `talked`: they took the caller, so they are idle from now. */
export async function releaseMember(
  ctx: DbClock,
  queueId: string,
  memberId: string,
  callId: string,
  { talked }: { talked: boolean },
): Promise<void> {
  await ctx
    .db('queue_member_idle')
    .where({ queue_id: queueId, member_id: memberId, busy_call_id: callId })
    .update({ busy_call_id: null, ...(talked ? { idle_since: ctx.clock.now() } : {}) });
  await notify(ctx.db, CHANNELS.queues, queueId);
}
