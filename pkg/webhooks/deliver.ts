// One delivery try: the body signed with the tenant's current secret, POSTed through the
// outbound guard (https, public addresses), answered within its delivery policy's window.
import type { Ctx } from '../context.js';
import { DomainError } from '../errors.js';
import { OutboundError } from '../outbound/client.js';
import type { Envelope } from '../store/webhooks.js';
import { deliveryPolicy } from './policy.js';
import { openWebhookSecret, webhookSecret } from './secret.js';
import { signatureHeaders } from './sign.js';

export interface DeliveryOutcome {
  /** The receiver answered 2xx. */
  delivered: boolean;
  /** The receiver's HTTP status; null when there was no answer. */
  status: number | null;
  /** Why it was not delivered; never carries a header or the secret. */
  error: string | null;
}

type SendCtx = Pick<Ctx, 'db' | 'clock' | 'config' | 'secrets' | 'log' | 'outbound'>;

/** One request to send: its id and type name it (webhook-id, the delivery policy); `body` is posted as JSON. */
export interface Outgoing {
  id: string;
  type: string;
  tenantId: string;
  body: unknown;
  /** Headers sent besides the signature headers (a campaign connection's sign-in header). */
  headers?: () => Promise<Record<string, string>>;
  /** The tenant's webhook_secret column as read with the outbox row (sealed; null before its first use); unset: read now. */
  storedSecret?: string | null;
}

/** A webhook event: the envelope is the body. */
export const envelopeOutgoing = (envelope: Envelope): Outgoing => ({
  id: envelope.id,
  type: envelope.type,
  tenantId: envelope.tenant_id,
  body: envelope,
});

export async function sendEvent(ctx: SendCtx, url: string, outgoing: Outgoing): Promise<DeliveryOutcome> {
  const { answer: _answer, ...outcome } = await askReceiver(ctx, url, outgoing);
  return outcome;
}

/** One try, keeping what the receiver answered (a routing webhook's answer is the next step). */
export async function askReceiver(ctx: SendCtx, url: string, outgoing: Outgoing): Promise<DeliveryOutcome & { answer: string | null }> {
  const body = JSON.stringify(outgoing.body);
  try {
    const secret =
      outgoing.storedSecret === undefined
        ? await webhookSecret(ctx, outgoing.tenantId)
        : await openWebhookSecret(ctx, outgoing.tenantId, outgoing.storedSecret);
    const timestamp = Math.floor(ctx.clock.now().getTime() / 1000);
    const res = await ctx.outbound.request({
      method: 'POST',
      url,
      headers: { ...(await outgoing.headers?.()), ...signatureHeaders(secret, { id: outgoing.id, timestamp, body }) },
      body,
      timeoutMs: deliveryPolicy(ctx.config, outgoing.type).answerWindowMs,
      // Any answer but a 2xx is a failure (the spec); a redirect would also turn the POST into a GET
      // and, to another origin, drop its signature.
      followRedirects: false,
    });
    const delivered = res.status >= 200 && res.status < 300;
    return { delivered, status: res.status, error: delivered ? null : `the receiver answered HTTP ${res.status}`, answer: res.body };
  } catch (err) {
    if (err instanceof OutboundError || err instanceof DomainError)
      return { delivered: false, status: null, error: err.message, answer: null };
    throw err;
  }
}
