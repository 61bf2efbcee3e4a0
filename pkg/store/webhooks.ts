// Webhook outbox rows: the webhooks controller's claim, outcome, sweep, heartbeat and release
// queries. Only the first pending row of an ordering key has a due time, so only it is claimable, and
// a call's events go out one at a time in the order they were written, however many replicas deliver.
import type { Knex } from 'knex';
import type { Ctx } from '../context.js';
import { CHANNELS, notify, notifyIdColumn } from '../db/notify.js';
import { lockOrderingKey, type Envelope, type WebhookTarget } from '../webhooks/outbox.js';
import type { DeliveryOutcome } from '../webhooks/deliver.js';
import { retryAfterMs, type DeliveryPolicy } from '../webhooks/policy.js';
import { afterTry, transition, type DeliveryStatus } from '../webhooks/state.js';

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
  status: DeliveryStatus;
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

/**
 * Claim up to `max` due deliveries for `owner`: due rows head their keys, so one statement never
 * takes two rows of one key. The try is counted at claim, so a try whose worker died counts too:
 * an event allowed one try is not sent twice because a replica crashed.
 */
export async function claimDueDeliveries(
  ctx: Pick<Ctx, 'db' | 'clock' | 'metrics'>,
  owner: string,
  leaseMs: number,
  max: number,
): Promise<OutboxRow[]> {
  const now = ctx.clock.now();
  const until = new Date(now.getTime() + leaseMs);
  const { rows } = await ctx.db.raw(
    `with candidate as (
       select o.id, o.due_at from webhook_outbox o
       where o.status = 'pending' and o.due_at <= ? and o.attempts < o.max_attempts
       order by o.due_at, o.seq
       limit ?
       for update skip locked
     )
     update webhook_outbox o set attempts = o.attempts + 1, lease_owner = ?, lease_until = ?, due_at = ?
     from candidate where o.id = candidate.id
     returning o.*, candidate.due_at as was_due`,
    [now, max, owner, until, until],
  );
  return (rows as (OutboxRow & { was_due: Date })[])
    .sort((a, b) => a.was_due.getTime() - b.was_due.getTime() || a.seq - b.seq)
    .map(({ was_due: due, ...row }) => {
      ctx.metrics.queueLag.observe({ reconciler: 'webhooks' }, Math.max(0, now.getTime() - due.getTime()) / 1000);
      return row;
    });
}

type AttemptResult = ReturnType<typeof afterTry>;

/** What settling a row writes: its new status and when it is next due (null once out of pending). */
interface Settlement {
  status: DeliveryStatus | null;
  delivered_at: Date | null;
  last_error: string | null;
  due_at: Date | null;
}

/**
 * Settles the pending row `id` of `key` where `condition` still holds; one that leaves pending makes
 * the next row of its key due. Under the key's lock, so an event written meanwhile is either seen
 * here or sees this row settled (and is due at once). Announces the row; false when `condition` failed.
 */
async function settle(ctx: Pick<Ctx, 'db' | 'clock'>, id: string, key: string, condition: (q: Knex.QueryBuilder) => void, settlement: Settlement): Promise<boolean> {
  return ctx.db.transaction(async (trx) => {
    await lockOrderingKey(trx, key);
    const settled = trx('webhook_outbox')
      .where({ id, status: 'pending' })
      .andWhere(condition)
      .update({ ...settlement, lease_owner: null, lease_until: null })
      .returning(['ordering_key', 'seq', 'status', notifyIdColumn(trx, CHANNELS.webhooks)]);
    const next = trx('webhook_outbox')
      .whereIn(
        'id',
        trx('webhook_outbox as e')
          .join('settled as s', 'e.ordering_key', 's.ordering_key')
          .where('e.status', 'pending')
          .andWhereNot('s.status', 'pending')
          .andWhereRaw('e.seq > s.seq')
          .orderBy('e.seq')
          .limit(1)
          .select('e.id'),
      )
      .update({ due_at: ctx.clock.now() });
    const rows = await trx.with('settled', settled).with('next', next).select('seq').from('settled');
    return rows.length > 0;
  });
}

/**
 * Record a try's outcome if `owner` still holds the lease, as the state table says: delivered, due
 * again after the policy's wait while tries are left, else failed. Returns null when the lease was
 * lost meanwhile.
 */
export async function recordAttempt(
  ctx: Pick<Ctx, 'db' | 'clock'>,
  row: OutboxRow,
  owner: string,
  outcome: DeliveryOutcome,
  policy: DeliveryPolicy,
): Promise<AttemptResult | null> {
  const now = ctx.clock.now();
  const event = afterTry(outcome.delivered, row.attempts < row.max_attempts);
  const settled = await settle(ctx, row.id, row.ordering_key, (q) => q.where({ lease_owner: owner }), {
    status: transition('pending', event),
    delivered_at: event === 'delivered' ? now : null,
    last_error: outcome.error,
    due_at: event === 'retry' ? new Date(now.getTime() + retryAfterMs(policy, row.attempts)) : null,
  });
  return settled ? event : null;
}

/** Rows whose last try's worker died with no tries left: failed, so the rest of their key can go. */
export async function sweepDeliveries(ctx: Pick<Ctx, 'db' | 'clock' | 'metrics'>): Promise<void> {
  const now = ctx.clock.now();
  const lost: { id: string; ordering_key: string }[] = await ctx.db('webhook_outbox')
    .where({ status: 'pending' })
    .andWhere('lease_until', '<=', now)
    .andWhereRaw('attempts >= max_attempts')
    .select('id', 'ordering_key');
  for (const { id, ordering_key: key } of lost) {
    const failed = await settle(ctx, id, key, (q) => q.where('lease_until', '<=', now).andWhereRaw('attempts >= max_attempts'), {
      status: transition('pending', 'interrupted'),
      delivered_at: null,
      last_error: 'interrupted: the controller delivering it stopped before the receiver answered',
      due_at: null,
    });
    if (failed) ctx.metrics.webhookDeliveries.inc({ result: 'failed' });
  }
}

export async function heartbeatDeliveries(ctx: Pick<Ctx, 'db' | 'clock'>, ids: string[], owner: string, leaseMs: number): Promise<void> {
  if (!ids.length) return;
  const until = new Date(ctx.clock.now().getTime() + leaseMs);
  await ctx.db('webhook_outbox').whereIn('id', ids).andWhere({ status: 'pending', lease_owner: owner }).update({ lease_until: until, due_at: until });
}

/** Give up `owner`'s leases at once; the outcome of a try still going is then refused. */
export async function releaseDeliveries(ctx: Pick<Ctx, 'db' | 'clock'>, ids: string[], owner: string): Promise<void> {
  if (!ids.length) return;
  const now = ctx.clock.now();
  const rows: { id: string }[] = await ctx.db('webhook_outbox')
    .whereIn('id', ids)
    .andWhere({ status: 'pending', lease_owner: owner })
    .update({ lease_owner: null, lease_until: now, due_at: now })
    .returning('id');
  for (const { id } of rows) await notify(ctx.db, CHANNELS.webhooks, id);
}

/** The earliest due time of a pending row: only heads of keys have one (the others wait, and each settling is announced). */
export async function nextDeliveryDue(ctx: Pick<Ctx, 'db'>): Promise<Date | null> {
  const row = await ctx.db('webhook_outbox').where({ status: 'pending' }).whereNotNull('due_at').min({ at: 'due_at' }).first();
  return row?.at ?? null;
}
