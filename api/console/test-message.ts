// The console's answer to "send a test message" (the account's message webhook or an agent's own):
// how the receiver answered, when, and how long it took; the sending is recorded in the audit log.
import type { Ctx } from '../../pkg/context.js';
import { audit, type Actor } from '../../pkg/console/audit.js';
import type { sendTestMessage } from '../../pkg/webhooks/test-message.js';

type Sent = Awaited<ReturnType<typeof sendTestMessage>>;

/** Sends with `send`, audits `action` on `target`, and answers what the page shows. */
export async function testMessageAnswer(ctx: Ctx, me: Actor, action: string, target: string, send: () => Promise<Sent>) {
  const sentAt = ctx.clock.now();
  const started = performance.now();
  const { eventId, url, ...outcome } = await send();
  const took = Math.round(performance.now() - started);
  await audit(ctx, me, action, target, { event_id: eventId, delivered: outcome.delivered });
  return { event_id: eventId, url, ...outcome, sent_at: sentAt.toISOString(), duration_ms: took };
}
