// The console's "test the message webhook": a sample `message.test` sent at once with the same
// signing as every webhook, one try (its delivery policy), reporting how the receiver answered
// (nothing is queued).
import type { Ctx } from '../context.js';
import { Conflict } from '../errors.js';
import { prefixedId } from '../ids.js';
import { getTenant } from '../store/tenants.js';
import { envelopeOutgoing, sendEvent, type DeliveryOutcome } from './deliver.js';
import { newEnvelope } from './outbox.js';

/** Sample data shaped like message.created's (`data.message`, `data.call`), with fictional numbers. */
function sampleMessage(now: Date): Record<string, unknown> {
  const at = now.toISOString();
  const call = { id: prefixedId('cal'), from: '+12025550123', to: '+12025550100', created_at: at };
  return {
    message: {
      id: prefixedId('msg'),
      kind: 'ai_message',
      caller: call.from,
      summary: 'This is a test message from Switchboard.',
      details: { name: 'Test Caller', reason: 'Testing the message webhook' },
      status: 'new',
      created_at: at,
    },
    call,
  };
}

export async function sendTestMessage(
  ctx: Pick<Ctx, 'db' | 'clock' | 'config' | 'secrets' | 'log' | 'outbound'>,
  tenantId: string,
): Promise<DeliveryOutcome & { eventId: string; url: string }> {
  const { messageWebhookUrl: url } = await getTenant(ctx, tenantId);
  if (!url) throw new Conflict(`Tenant ${tenantId} has no message webhook (admin tenant update --message-webhook-url URL)`);
  const now = ctx.clock.now();
  const envelope = newEnvelope(now, tenantId, 'message.test', sampleMessage(now));
  return { eventId: envelope.id, url, ...(await sendEvent(ctx, url, envelopeOutgoing(envelope))) };
}
