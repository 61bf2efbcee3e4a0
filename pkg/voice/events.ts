// A call's state change and its webhooks commit together (the outbox), so no event is lost or invented.
import type { Knex } from 'knex';
import type { Ctx } from '../context.js';
import { enqueueEvent } from '../webhooks/outbox.js';
import { getTenant } from '../store/tenants.js';
import type { CallPatch, CallRow } from '../store/calls/row.js';
import { transitionCall } from '../store/calls/transition.js';
import { isEnded, moveOf, type CallEvent } from './state.js';
import { callRecord } from './views.js';

/** The call record plus `extra` (`ai` extras merge into its `ai`) to the tenant's events address, if any. */
export async function enqueueCallEvent(
  ctx: Pick<Ctx, 'db' | 'clock' | 'config'>,
  row: CallRow,
  type: string,
  extra: { ai?: Record<string, unknown>; [field: string]: unknown } = {},
): Promise<void> {
  const { eventsUrl } = await getTenant(ctx, row.tenant_id);
  if (!eventsUrl) return;
  const record = callRecord(row);
  await enqueueEvent(ctx, ctx.db, {
    tenantId: row.tenant_id,
    type,
    target: 'events',
    url: eventsUrl,
    orderingKey: row.id,
    data: { ...record, ...extra, ...(extra.ai ? { ai: { ...record.ai, ...extra.ai } } : {}) },
  });
}

/** The webhooks each transition causes, in the order they happened. */
const TRANSITION_WEBHOOKS: Record<CallEvent, string[]> = {
  ring: ['call.initiated'],
  answer: ['call.answered', 'call.updated'],
  busy: ['call.ended'],
  no_answer: ['call.ended'],
  fail: ['call.ended'],
  cancel: ['call.ended'],
  hang_up: ['call.ended'],
  interrupted: ['call.ended'],
};

/** Whole seconds on the line until `at`; 0 for a call never answered. */
const secondsOnLine = (row: Pick<CallRow, 'answered_at'>, at: Date): number =>
  row.answered_at ? Math.max(0, Math.floor((at.getTime() - row.answered_at.getTime()) / 1000)) : 0;

/** Patch of a call that ends now: ended_at, the final duration and why. */
export function ending(row: Pick<CallRow, 'answered_at'>, now: Date, cause: string) {
  return { ended_at: now, duration_sec: secondsOnLine(row, now), hangup_cause: cause };
}

/** null when the call had moved on; the slot is given back the moment the call ends, whoever ended it. */
export async function applyCallEvent(ctx: Ctx, id: string, event: CallEvent, patch: CallPatch, owner?: string): Promise<CallRow | null> {
  const row = await ctx.db.transaction(async (trx: Knex.Transaction) => {
    const tx = { ...ctx, db: trx };
    const changed = await transitionCall(tx, id, moveOf(event), patch, owner);
    if (changed) await enqueueTransitionWebhooks(tx, changed, event);
    return changed;
  });
  if (row && isEnded(row.status)) await ctx.callLimits.releaseSlot(row);
  return row;
}

/** Writes to the outbox the webhooks that `event` causes for the call it moved to `row`. */
export async function enqueueTransitionWebhooks(ctx: Pick<Ctx, 'db' | 'clock' | 'config'>, row: CallRow, event: CallEvent): Promise<void> {
  for (const type of TRANSITION_WEBHOOKS[event]) await enqueueCallEvent(ctx, row, type);
}
