// What clients do to a job: cancel it, or answer the human input it waits for.
import type { Ctx } from '../context.js';
import { Conflict } from '../errors.js';
import { appendMessage } from '../store/messages.js';
import type { Tenant } from '../store/tenants.js';
import { getTrigger } from '../store/triggers/get.js';
import type { TriggerRow } from '../store/triggers/row.js';
import { sweepTriggers } from '../store/triggers/sweep.js';
import { applyTransition } from '../store/triggers/transition.js';
import { canTransition, isTerminal, statusChange } from './state.js';
import { SWEEPS } from './sweeps.js';

/** Why a job in `status` cannot be cancelled (the 409's message, and the mirror's condition). */
export const notCancellable = (status: string): string => `Trigger cannot be cancelled while ${status}`;

/**
 * The company's job `id`, ended first if its deadline has passed, as the controllers' sweep would
 * end it a moment later: a cancel or reply then meets the ended job.
 */
async function currentTrigger(ctx: Ctx, tenant: Tenant, id: string): Promise<TriggerRow> {
  const row = await getTrigger(ctx, tenant.id, id);
  if (isTerminal(row.status) || row.expires_at.getTime() > ctx.clock.now().getTime()) return row;
  return (await sweepTriggers(ctx, SWEEPS, id))[0] ?? row;
}

export async function cancelTrigger(ctx: Ctx, tenant: Tenant, id: string, reason?: string): Promise<TriggerRow> {
  const current = await currentTrigger(ctx, tenant, id);
  const now = ctx.clock.now();
  const row = canTransition(current.status, 'cancel')
    ? await applyTransition(ctx, id, statusChange('cancel'), {
        error_message: reason ?? null,
        completed_at: now,
        due_at: null,
        next_run_at: null,
        waiting_reason: null,
        lease_owner: null,
        lease_until: null,
      })
    : null;
  if (!row) {
    const status = (await getTrigger(ctx, tenant.id, id)).status;
    throw new Conflict(notCancellable(status));
  }
  return row;
}

export type Decision = 'approved' | 'rejected' | 'provided';

/**
 * waiting_for_reply → queued. The reply reaches the agent as a system message in the
 * conversation, written in the same transaction as the transition.
 */
export async function replyToTrigger(ctx: Ctx, tenant: Tenant, id: string, decision: Decision, reason?: string): Promise<TriggerRow> {
  await currentTrigger(ctx, tenant, id);
  const row = await ctx.db.transaction(async (trx) => {
    const tx = { ...ctx, db: trx };
    const now = ctx.clock.now();
    const moved = await applyTransition(tx, id, statusChange('reply'), {
      human_reply: { decision, reason: reason ?? null, at: now.toISOString() },
      waiting_reason: null,
      waiting_since: null,
      due_at: now,
    });
    if (moved) await appendMessage(tx, moved.conversation_id, 'system', `HUMAN REPLY (${decision}): ${reason ?? ''}`.trimEnd());
    return moved;
  });
  if (!row) {
    const status = (await getTrigger(ctx, tenant.id, id)).status;
    throw new Conflict(`Trigger is not waiting for a reply (status ${status})`);
  }
  return row;
}
