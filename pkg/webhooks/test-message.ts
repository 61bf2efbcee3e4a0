// The console's "test the message webhook", the account's or an agent's own: a sample `message.test`
// sent at once with the same signing as every webhook, one try (its delivery policy), reporting how
// the receiver answered (nothing is queued).
import type { Ctx } from '../context.js';
import { Conflict } from '../errors.js';
import { agentRef, prefixedId } from '../ids.js';
import { getAgent } from '../store/agents.js';
import { getTenant } from '../store/tenants.js';
import { envelopeOutgoing, sendEvent, type DeliveryOutcome } from './deliver.js';
import { newEnvelope } from './outbox.js';

/** Sample data shaped like message.created's (`data.message`, `data.call`), with fictional numbers. */
function sampleMessage(now: Date, agentId: string | null): Record<string, unknown> {
  const at = now.toISOString();
  const call = { id: prefixedId('cal'), from: '+12025550123', to: '+12025550100', created_at: at };
  return {
    message: {
      id: prefixedId('msg'),
      kind: 'ai_message',
      caller: call.from,
      summary: 'This is a test message from Switchboard.',
      details: { name: 'Test Caller', reason: 'Testing the message webhook' },
      agent_id: agentId,
      status: 'new',
      created_at: at,
    },
    call,
  };
}

type SendCtx = Pick<Ctx, 'db' | 'clock' | 'config' | 'secrets' | 'log' | 'outbound'>;
type Sent = DeliveryOutcome & { eventId: string; url: string };

/** The sample to `url`, signed with the tenant's secret; `agentId`: the agent it says took it. */
async function sendSample(ctx: SendCtx, tenantId: string, url: string, agentId: string | null): Promise<Sent> {
  const now = ctx.clock.now();
  const envelope = newEnvelope(now, tenantId, 'message.test', sampleMessage(now, agentId));
  return { eventId: envelope.id, url, ...(await sendEvent(ctx, url, envelopeOutgoing(envelope))) };
}

export async function sendTestMessage(ctx: SendCtx, tenantId: string): Promise<Sent> {
  const { messageWebhookUrl: url } = await getTenant(ctx, tenantId);
  if (!url) throw new Conflict(`Tenant ${tenantId} has no message webhook (admin tenant update --message-webhook-url URL)`);
  return sendSample(ctx, tenantId, url, null);
}

/** The agent's own message webhook (DECISIONS.md "Per-agent message webhook"). */
export async function sendAgentTestMessage(ctx: SendCtx, agentId: string): Promise<Sent> {
  const agent = await getAgent(ctx, agentId);
  if (!agent.tenantId || !agent.messageWebhookUrl) {
    throw new Conflict(`Agent ${agentId} has no message webhook of its own (admin agent update --message-webhook-url URL)`);
  }
  return sendSample(ctx, agent.tenantId, agent.messageWebhookUrl, agentRef(agent.id));
}
