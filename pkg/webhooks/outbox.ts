// The transactional outbox: an event is written in the same transaction as the change it
// announces; the webhooks controller delivers it (signing, retries, per-call order), as many
// times as its delivery policy allows.
import type { Knex } from 'knex';
import type { Ctx } from '../context.js';
import { prefixedId } from '../ids.js';
import { CHANNELS, notify } from '../db/notify.js';
import { lockOrderingKey, type Envelope, type WebhookTarget } from '../store/webhooks.js';
import { deliveryPolicy } from './policy.js';
import { transition } from './state.js';

export interface OutboxEvent {
  tenantId: string;
  type: string;
  target: WebhookTarget;
  url: string;
  /** Events sharing this key are delivered one at a time in the order written (a call's id). */
  orderingKey: string;
  data: Record<string, unknown>;
  /** Campaign results and summaries: a stable id (a second write of it is ignored), the run, and `data` posted as it is. */
  campaign?: { id: string; runId: string };
}

/** A new event's envelope, fields in the spec's order. */
export function newEnvelope(now: Date, tenantId: string, type: string, data: Record<string, unknown>): Envelope {
  return { id: prefixedId('evt'), type, created_at: now.toISOString(), tenant_id: tenantId, data };
}

/** Write an event to the outbox inside `db` (the caller's transaction). Returns the envelope. */
export async function enqueueEvent(ctx: Pick<Ctx, 'clock' | 'config'>, db: Knex, event: OutboxEvent): Promise<Envelope> {
  const { tries } = deliveryPolicy(ctx.config, event.type);
  const now = ctx.clock.now();
  const envelope = newEnvelope(now, event.tenantId, event.type, event.data);
  if (event.campaign) envelope.id = event.campaign.id;
  // Held to commit, so events of one key take their seq in commit order: the order they are delivered.
  await lockOrderingKey(db, event.orderingKey);
  const [written] = await db('webhook_outbox')
    .insert({
      id: envelope.id,
      tenant_id: event.tenantId,
      type: event.type,
      target: event.target,
      url: event.url,
      ordering_key: event.orderingKey,
      payload: JSON.stringify(event.campaign ? event.data : envelope),
      run_id: event.campaign?.runId ?? null,
      status: transition(null, 'enqueue'),
      max_attempts: tries,
      created_at: now,
      // Due now only at the head of its key; behind a pending event it waits, undue, to be made due when that one settles.
      due_at: db.raw(
        `case when exists (select 1 from webhook_outbox where ordering_key = ? and status = 'pending') then null else ?::timestamptz end`,
        [event.orderingKey, now],
      ),
    })
    .onConflict('id')
    .ignore()
    .returning('id');
  if (written) await notify(db, CHANNELS.webhooks, envelope.id);
  return envelope;
}

/** The webhooks written about a call (its events, call.result, ai events), in the order written. */
export async function eventsOfCall(
  ctx: Pick<Ctx, 'db'>,
  tenantId: string,
  callId: string,
): Promise<{ type: string; status: string; created_at: Date }[]> {
  return ctx
    .db('webhook_outbox')
    .where({ tenant_id: tenantId, ordering_key: callId })
    .orderBy('seq')
    .select('type', 'status', 'created_at');
}
