// After a call: the summary by the model, the result final, then ai.summary, call.result and the
// messages taken on the call (message.created), all in the transaction that makes it final.
import type { Ctx } from '../context.js';
import { publicUrl } from '../config.js';
import { summarize } from '../agent/summary.js';
import { getUsableAgent, ownAgentMessageWebhook } from '../store/agents.js';
import { markFinal } from '../store/calls/finish.js';
import { callById } from '../store/calls/get.js';
import type { CallRow } from '../store/calls/row.js';
import { addDoNotCall } from '../store/do-not-call.js';
import { listMessages } from '../store/messages.js';
import { getTenant } from '../store/tenants.js';
import { messagesOfCall } from '../store/voice-messages.js';
import { messageView, type MessageRow } from '../messages/view.js';
import { enqueueEvent } from '../webhooks/outbox.js';
import { enqueueCallEvent } from './events.js';
import { ENDED, isLive } from './state.js';
import { settleCampaignCall } from '../campaigns/settle.js';
import { callResult, outcomeOf } from './views.js';

const SUMMARY_IF_NOBODY_SPOKE: Record<string, string> = {
  'no-answer': 'Nobody answered the call.',
  busy: 'The line was busy.',
  failed: 'The call could not be connected.',
  canceled: 'The call was hung up before it was answered.',
};

async function summaryOf(ctx: Ctx, call: CallRow): Promise<string> {
  if (!call.conversation_id) return SUMMARY_IF_NOBODY_SPOKE[call.status] ?? 'The call ended before anyone spoke.';
  const agent = await getUsableAgent(ctx, call.tenant_id, call.agent_id!);
  const summary = await summarize(ctx, agent.model ?? ctx.model.defaultModel, await listMessages(ctx, call.conversation_id));
  return summary ?? 'The call ended before anyone spoke.';
}

/** message.created: the message, and the call it was taken on. */
function messageEvent(ctx: Ctx, m: MessageRow, call: CallRow) {
  return {
    message: messageView(m, publicUrl(ctx.config)),
    call: { id: call.id, from: call.from_number, to: call.to_number, created_at: call.created_at.toISOString() },
  };
}

/** Where message.created goes (DECISIONS.md "Per-agent message webhook"): the taking agent's own webhook, else the account's. */
async function receiverOf(ctx: Pick<Ctx, 'db'>, m: MessageRow, accountUrl: string | null): Promise<string | null> {
  const agentUrl = m.kind === 'ai_message' && m.agent_id ? await ownAgentMessageWebhook(ctx, m.tenant_id, m.agent_id) : null;
  return agentUrl ?? accountUrl;
}

/** Make an ended call held by `owner` final. Does nothing for a live or final call, or one held by someone else. */
export async function finalizeCall(ctx: Ctx, id: string, owner: string): Promise<void> {
  const call = await callById(ctx.db, id);
  if (!call || call.final || isLive(call.status) || call.lease_owner !== owner) return;
  const summary = await summaryOf(ctx, call);
  await ctx.db.transaction(async (trx) => {
    const tx = { ...ctx, db: trx };
    const done = await markFinal(tx, id, ENDED, { summary });
    if (!done) return;
    const tenant = await getTenant(tx, done.tenant_id);
    if (done.result?.outcome === 'do_not_call' || done.result?.opt_out)
      await addDoNotCall(tx, done.tenant_id, done.to_number, `Opted out on call ${done.id}`);
    // After the opt-out above: the number is on the do-not-call list before the result goes.
    if (done.campaign) await settleCampaignCall(tx, { ...done, campaign: done.campaign });
    if (done.conversation_id) {
      await trx('conversations')
        .where({ id: done.conversation_id })
        .update({ status: 'ended', ended_at: ctx.clock.now(), updated_at: ctx.clock.now() });
      await enqueueCallEvent(tx, done, 'ai.summary', {
        summary,
        transcript: done.transcript,
        outcome: outcomeOf(done),
        ...(done.result ? { result: done.result } : {}),
      });
    }
    if (done.callback_url) {
      await enqueueEvent(ctx, trx, {
        tenantId: done.tenant_id,
        type: 'call.result',
        target: 'callback',
        url: done.callback_url,
        orderingKey: done.id,
        data: callResult(done),
      });
    }
    for (const m of await messagesOfCall(tx, done.id)) {
      const url = await receiverOf(tx, m, tenant.messageWebhookUrl);
      if (!url) continue;
      await enqueueEvent(ctx, trx, {
        tenantId: done.tenant_id,
        type: 'message.created',
        target: 'message',
        url,
        orderingKey: m.id,
        data: messageEvent(ctx, m, done),
      });
    }
  });
}
