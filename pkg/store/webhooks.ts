// Webhook outbox rows: the webhooks controller's claim, outcome, sweep, heartbeat and release
// queries. Only the first pending row of an ordering key is ever claimable, so a call's events go
// out one at a time in the order they were written, however many replicas deliver.
import type { Ctx } from '../context.js';
import { CHANNELS, notify } from '../db/notify.js';
import type { Envelope, WebhookTarget } from '../webhooks/outbox.js';
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

// The row is the first pending one of its key; a leased head keeps the rest of its key waiting.
const HEAD_OF_KEY = `not exists (select 1 from webhook_outbox e
  where e.ordering_key = o.ordering_key and e.status = 'pending' and e.seq < o.seq)`;

/**
 * Claim up to `max` due deliveries for `owner`, each the head of its key, so one statement never
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
       where o.status = 'pending' and o.due_at <= ? and o.attempts < o.max_attempts and ${HEAD_OF_KEY}
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
  const [updated] = await ctx.db('webhook_outbox')
    .where({ id: row.id, status: 'pending', lease_owner: owner })
    .update({
      status: transition('pending', event),
      delivered_at: event === 'delivered' ? now : null,
      last_error: outcome.error,
      due_at: event === 'retry' ? new Date(now.getTime() + retryAfterMs(policy, row.attempts)) : null,
      lease_owner: null,
      lease_until: null,
    })
    .returning('id');
  if (!updated) return null;
  // The next row of the key may now go, on any replica.
  await notify(ctx.db, CHANNELS.webhooks, row.id);
  return event;
}

/** Rows whose last try's worker died with no tries left: failed, so the rest of their key can go. */
export async function sweepDeliveries(ctx: Pick<Ctx, 'db' | 'clock' | 'metrics'>): Promise<void> {
  const now = ctx.clock.now();
  const { rows } = await ctx.db.raw(
    `with lost as (
       select id from webhook_outbox
       where status = 'pending' and lease_until <= ? and attempts >= max_attempts
       for update skip locked
     )
     update webhook_outbox o set status = ?, due_at = null, lease_owner = null, lease_until = null,
       last_error = 'interrupted: the controller delivering it stopped before the receiver answered'
     from lost where o.id = lost.id
     returning o.id`,
    [now, transition('pending', 'interrupted')],
  );
  for (const { id } of rows as { id: string }[]) {
    ctx.metrics.webhookDeliveries.inc({ result: 'failed' });
    await notify(ctx.db, CHANNELS.webhooks, id);
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

/** The earliest due time of a row that heads its key (the others wait for it, and its end is announced). */
export async function nextDeliveryDue(ctx: Pick<Ctx, 'db'>): Promise<Date | null> {
  const { rows } = await ctx.db.raw(`select min(o.due_at) as at from webhook_outbox o where o.status = 'pending' and ${HEAD_OF_KEY}`);
  return rows[0]?.at ?? null;
}
