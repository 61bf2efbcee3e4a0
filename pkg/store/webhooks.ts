// Webhook outbox rows: the webhooks controller's claim, outcome, sweep, heartbeat and release
// queries. Only the first pending row of an ordering key has a due time, so only it is claimable, and
// a call's events go out one at a time in the order they were written, however many replicas deliver.
import type { Knex } from 'knex';
import type { Ctx } from '../context.js';
import { CHANNELS } from '../db/notify.js';
import { observeClaimed, releaseLeases, renewLeases, TAKE_LEASE, takeLease, type Leased } from '../db/leases.js';

export type WebhookTarget = 'events' | 'callback' | 'message' | 'campaign';

/** The envelope of the spec; its id is the same on every try. */
export interface Envelope {
  id: string;
  type: string;
  created_at: string;
  tenant_id: string;
  data: Record<string, unknown>;
}

export interface OutboxRow {
  id: string;
  seq: number;
  tenant_id: string;
  type: string;
  target: WebhookTarget;
  url: string;
  ordering_key: string;
  /** The envelope; for campaign results and summaries (run_id set), the body as posted. */
  payload: Envelope;
  run_id: string | null;
  /** As pkg/webhooks/state.ts names it. */
  status: string;
  attempts: number;
  max_attempts: number;
  last_error: string | null;
  created_at: Date;
  delivered_at: Date | null;
  due_at: Date | null;
  lease_owner: string | null;
  lease_until: Date | null;
}

/** The envelope as sent: the spec's field order (jsonb keeps keys in its own order). */
export const envelopeOf = ({ payload: p }: OutboxRow): Envelope => ({
  id: p.id,
  type: p.type,
  created_at: p.created_at,
  tenant_id: p.tenant_id,
  data: p.data,
});

/** The CTE live: each account with rows that have a due time, one index probe apiece (a loose index scan). */
const LIVE_ACCOUNTS = `live as (
  (select o.tenant_id from webhook_outbox o where o.due_at is not null order by o.tenant_id limit 1)
  union all
  select (select o.tenant_id from webhook_outbox o where o.due_at is not null and o.tenant_id > live.tenant_id order by o.tenant_id limit 1)
  from live where live.tenant_id is not null
)`;

/** A delivery is leased while its try is under way; only a pending row's lease counts. */
const DELIVERY_LEASES: Leased = {
  table: 'webhook_outbox',
  held: { status: 'pending' },
  channel: CHANNELS.webhooks,
  reconciler: 'webhooks',
};

/** A claimed row, with its account's webhook_secret column as stored (sealed; null before its first use). */
export type ClaimedDelivery = OutboxRow & { stored_secret: string | null };

/**
 * Claim up to `max` due deliveries for `owner`: due rows head their keys, so one statement never
 * takes two rows of one key. Fair between accounts: round-robin over the accounts with due rows,
 * the least recently served first, so one account's backlog does not hold up another's deliveries.
 * The try is counted at claim, so a try whose worker died counts too: an event allowed one try is
 * not sent twice because a replica crashed.
 */
export async function claimDueDeliveries(
  ctx: Pick<Ctx, 'db' | 'clock' | 'metrics'>,
  owner: string,
  leaseMs: number,
  max: number,
): Promise<ClaimedDelivery[]> {
  const lease = takeLease(ctx, owner, leaseMs);
  const { rows } = await ctx.db.raw(
    `with recursive ${LIVE_ACCOUNTS}, accounts as (
       -- Accounts with due rows, least recently served first.
       select live.tenant_id, coalesce(served.served_at, '-infinity') as served_at, head.due_at as head_due
       from live
       cross join lateral (
         select o.due_at from webhook_outbox o
         where o.tenant_id = live.tenant_id and o.due_at <= :now
         order by o.due_at, o.seq limit 1
       ) head
       left join webhook_served served on served.tenant_id = live.tenant_id
       order by 2, head.due_at
       limit :max
     ), candidate as (
       select o.id, o.tenant_id, o.due_at, o.seq, a.served_at, a.head_due from accounts a
       cross join lateral (
         select o.id, o.tenant_id, o.due_at, o.seq from webhook_outbox o
         where o.tenant_id = a.tenant_id and o.due_at <= :now and o.status = 'pending' and o.attempts < o.max_attempts
         order by o.due_at, o.seq
         limit :max
         for update skip locked
       ) o
     ), taken as (
       -- Round-robin: every account's first row, then every account's second, and so on.
       select * from (
         select c.*, row_number() over (partition by c.tenant_id order by c.due_at, c.seq) as turn from candidate c
       ) c
       order by c.turn, c.served_at, c.head_due
       limit :max
     ), served as (
       insert into webhook_served (tenant_id, served_at) select distinct tenant_id, :now::timestamptz from taken
       on conflict (tenant_id) do update set served_at = excluded.served_at
     )
     update webhook_outbox o set attempts = o.attempts + 1, ${TAKE_LEASE}
     from taken join tenants n on n.id = taken.tenant_id
     -- By the primary key: a join on a few hundred ids can otherwise be planned as a scan of the table.
     where o.id = any(array(select id from taken)) and o.id = taken.id
     returning o.*, taken.due_at as was_due, taken.turn, n.webhook_secret as stored_secret`,
    { ...lease, max },
  );
  return (rows as (ClaimedDelivery & { was_due: Date; turn: string })[])
    .sort((a, b) => Number(a.turn) - Number(b.turn) || a.was_due.getTime() - b.was_due.getTime() || a.seq - b.seq)
    .map(({ was_due: due, turn: _, ...row }) => {
      observeClaimed(ctx, DELIVERY_LEASES, lease.now, due);
      return row;
    });
}

/** The text whose hash is the advisory lock of the ordering key `key` (SQL on a column or parameter named key). */
const ORDERING_LOCK_SQL = `'webhook-order:' || key`;

/** Holds an ordering key's lock to the end of `db`'s transaction: writing an event of the key and settling one take it. */
export async function lockOrderingKey(db: Knex, key: string): Promise<void> {
  await db.raw(`select pg_advisory_xact_lock(hashtext(${ORDERING_LOCK_SQL})) from (select ?::text as key) k`, [key]);
}

/** What settling a row writes: its new status and when it is next due (null once out of pending). */
export interface Settlement {
  id: string;
  ordering_key: string;
  status: string;
  delivered_at: Date | null;
  last_error: string | null;
  due_at: Date | null;
}

/**
 * Settles the pending rows of `settlements` where `condition` (SQL on `o`, the row) still holds;
 * a row that leaves pending makes the next row of its key due. Under the keys' locks, so an event
 * written meanwhile is either seen here or sees its key's row settled (and is due at once). With
 * `wait` unset a key whose lock is held (an event of it being written) is left out, so this never
 * waits holding another key's lock (a writer may take several keys in any order). Announces each
 * row settled; returns the ids settled and those left out.
 */
async function settleRows(
  ctx: Pick<Ctx, 'db' | 'clock'>,
  settlements: Settlement[],
  condition: Knex.Raw,
  wait: boolean,
): Promise<{ settled: Set<string>; busy: Settlement[] }> {
  return ctx.db.transaction(async (trx) => {
    const keys = [...new Set(settlements.map((s) => s.ordering_key))];
    let rows = settlements;
    let busy: Settlement[] = [];
    if (wait) for (const key of keys) await lockOrderingKey(trx, key);
    else {
      const locked = new Set(await tryLockOrderingKeys(trx, keys));
      rows = settlements.filter((s) => locked.has(s.ordering_key));
      busy = settlements.filter((s) => !locked.has(s.ordering_key));
    }
    if (!rows.length) return { settled: new Set<string>(), busy };
    const column = <K extends keyof Settlement>(k: K): Knex.Value => rows.map((r) => r[k]) as Knex.Value;
    const { rows: done } = await trx.raw(
      `with v as (
         select ?::text[] as ids, ?::text[] as statuses, ?::timestamptz[] as delivered, ?::text[] as errors, ?::timestamptz[] as due
       ), settled as (
         -- Each row's values by its place in the arrays: a join on the unnested arrays can be planned
         -- as one scan of them for every row.
         update webhook_outbox o set status = v.statuses[array_position(v.ids, o.id)], delivered_at = v.delivered[array_position(v.ids, o.id)],
           last_error = v.errors[array_position(v.ids, o.id)], due_at = v.due[array_position(v.ids, o.id)], lease_owner = null, lease_until = null
         from v where o.id = any(v.ids) and o.status = 'pending' and ?
         returning o.id, o.ordering_key, o.seq, o.status, pg_notify(?, o.id::text) as announced
       ), next as (
         update webhook_outbox o set due_at = ?
         from settled s cross join lateral (
           select e.id from webhook_outbox e
           where e.ordering_key = s.ordering_key and e.status = 'pending' and e.seq > s.seq
           order by e.seq limit 1
         ) e
         where s.status <> 'pending' and o.id = e.id
       )
       select id from settled`,
      [
        column('id'),
        column('status'),
        column('delivered_at'),
        column('last_error'),
        column('due_at'),
        condition,
        CHANNELS.webhooks,
        ctx.clock.now(),
      ],
    );
    return { settled: new Set((done as { id: string }[]).map((r) => r.id)), busy };
  });
}

/**
 * Settles `settlements`, resolving once those whose keys could be locked at once are settled, to
 * each row's own promise of being settled: a row whose key is being written waits for it in a
 * transaction of its own, holding up no other row.
 */
async function settle(
  ctx: Pick<Ctx, 'db' | 'clock'>,
  settlements: Settlement[],
  condition: Knex.Raw,
): Promise<Map<string, Promise<boolean>>> {
  const { settled, busy } = await settleRows(ctx, settlements, condition, false);
  const each = new Map(settlements.map((s) => [s.id, Promise.resolve(settled.has(s.id))]));
  for (const one of busy)
    each.set(
      one.id,
      settleRows(ctx, [one], condition, true).then((r) => r.settled.has(one.id)),
    );
  return each;
}

/** Those of `keys` whose locks could be taken at once, taken; never waits. */
async function tryLockOrderingKeys(trx: Knex, keys: string[]): Promise<string[]> {
  const { rows } = await trx.raw(`select key from unnest(?::text[]) key where pg_try_advisory_xact_lock(hashtext(${ORDERING_LOCK_SQL}))`, [
    keys,
  ]);
  return (rows as { key: string }[]).map((r) => r.key);
}

/** An outcome waiting to be recorded. */
interface Recording {
  settlement: Settlement;
  done: (settled: boolean) => void;
  failed: (err: unknown) => void;
}

/**
 * Records tries' outcomes for `owner` if it still holds their leases, each as the domain settled it
 * (pkg/webhooks/outcomes.ts). The outcomes that come in while one write is under way go in the
 * next, all in one transaction.
 */
export class AttemptRecorder {
  private waiting: Recording[] = [];
  private writing = false;

  constructor(
    private readonly ctx: Pick<Ctx, 'db' | 'clock'>,
    private readonly owner: string,
  ) {}

  /** Resolves to false when the lease was lost meanwhile: nothing was written. */
  record(settlement: Settlement): Promise<boolean> {
    return new Promise((done, failed) => {
      this.waiting.push({ settlement, done, failed });
      if (!this.writing) void this.write();
    });
  }

  private async write(): Promise<void> {
    this.writing = true;
    // Outcomes of the same turn of the event loop go together.
    await new Promise((resolve) => setImmediate(resolve));
    while (this.waiting.length) {
      const batch = this.waiting.splice(0, RECORD_BATCH);
      try {
        const each = await settle(
          this.ctx,
          batch.map((r) => r.settlement),
          this.ctx.db.raw('o.lease_owner = ?', [this.owner]),
        );
        for (const r of batch) each.get(r.settlement.id)!.then(r.done, r.failed);
      } catch (err) {
        for (const r of batch) r.failed(err);
      }
    }
    this.writing = false;
  }
}

/** Outcomes recorded in one transaction at most. */
const RECORD_BATCH = 500;

/**
 * Rows whose last try's worker died with no tries left, settled to `status` with `lastError`, so
 * the rest of their key can go. Returns how many.
 */
export async function settleLostDeliveries(ctx: Pick<Ctx, 'db' | 'clock'>, status: string, lastError: string): Promise<number> {
  const now = ctx.clock.now();
  const lost: { id: string; ordering_key: string }[] = await ctx
    .db('webhook_outbox')
    .where({ status: 'pending' })
    .andWhere('lease_until', '<=', now)
    .andWhereRaw('attempts >= max_attempts')
    .select('id', 'ordering_key');
  if (!lost.length) return 0;
  const each = await settle(
    ctx,
    lost.map(({ id, ordering_key }) => ({ id, ordering_key, status, delivered_at: null, last_error: lastError, due_at: null })),
    ctx.db.raw('o.lease_until <= ? and o.attempts >= o.max_attempts', [now]),
  );
  return (await Promise.all(each.values())).filter(Boolean).length;
}

export async function heartbeatDeliveries(ctx: Pick<Ctx, 'db' | 'clock'>, ids: string[], owner: string, leaseMs: number): Promise<void> {
  await renewLeases(ctx, DELIVERY_LEASES, ids, owner, leaseMs);
}

/** Give up `owner`'s leases at once; the outcome of a try still going is then refused. */
export async function releaseDeliveries(ctx: Pick<Ctx, 'db' | 'clock'>, ids: string[], owner: string): Promise<void> {
  await releaseLeases(ctx, DELIVERY_LEASES, ids, owner);
}

/** The earliest due time of a pending row: only heads of keys have one (the others wait, and each settling is announced). */
export async function nextDeliveryDue(ctx: Pick<Ctx, 'db'>): Promise<Date | null> {
  const { rows } = await ctx.db.raw(
    `with recursive ${LIVE_ACCOUNTS}
     select min(head.due_at) as at from live
     cross join lateral (select o.due_at from webhook_outbox o where o.tenant_id = live.tenant_id and o.due_at is not null order by o.due_at, o.seq limit 1) head`,
  );
  return rows[0]?.at ?? null;
}
