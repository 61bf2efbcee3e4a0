// A customer's webhook receiver on loopback HTTPS that checks what the spec tells receivers to
// check, written from the spec alone (not with the product's signing code): both signatures over
// the raw body, a timestamp within 5 minutes, else 401. Accepted events are kept in arrival order,
// each checked against the schema its document gives it.
// Beside it, the outbox as the delivery tests drive it: events written directly, rows read back.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { enqueueEvent, type OutboxEvent } from '../../pkg/webhooks/outbox.js';
import type { Envelope } from '../../pkg/store/webhooks.js';
import { webhookSecret } from '../../pkg/webhooks/secret.js';
import type { TestApp } from './app.js';
import { checkDocumentedWebhook } from './document-schemas.js';
import { eventually } from './eventually.js';
import { startHttpsServer, type HttpsServerOptions, type RecordedRequest } from './https.js';
import { startJobsApp } from './triggers.js';

export interface Receiver {
  url: string;
  /** The secret the receiver checks with; tests change it after a rotation. */
  secret: string;
  /** Every request, as it arrived. */
  requests: RecordedRequest[];
  /** Envelopes whose signatures checked out, in arrival order. */
  events: any[];
  /** Why requests were answered 401. */
  rejected: string[];
  /** Statuses answered to the next accepted requests, one each (then 200); a 3xx sends `Location: <url>?moved`. */
  answers: number[];
  /** Largest number of requests of one ordering key (the envelope's `data.key`) open at once. */
  maxOpenPerKey: number;
  close(): Promise<void>;
}

const same = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
const one = (h: IncomingHttpHeaders, name: string) => String(h[name] ?? '');

/** Why the request fails the spec's checks, or null when it passes. */
export function signatureProblem(secret: string, headers: IncomingHttpHeaders, rawBody: string, nowMs = Date.now()): string | null {
  const ts = one(headers, 'x-voice-timestamp');
  if (!/^\d+$/.test(ts) || Math.abs(nowMs / 1000 - Number(ts)) > 300) return `stale or missing timestamp ${ts}`;
  const voice = `sha256=${createHmac('sha256', Buffer.from(secret, 'utf8')).update(`${ts}.${rawBody}`).digest('hex')}`;
  if (!same(one(headers, 'x-voice-signature'), voice)) return 'X-Voice-Signature does not match';
  const id = one(headers, 'webhook-id');
  if (one(headers, 'webhook-timestamp') !== ts) return 'webhook-timestamp differs from X-Voice-Timestamp';
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  const standard = `v1,${createHmac('sha256', key).update(`${id}.${ts}.${rawBody}`).digest('base64')}`;
  if (
    !one(headers, 'webhook-signature')
      .split(' ')
      .some((s) => same(s, standard))
  )
    return 'webhook-signature does not match';
  return null;
}

export async function startReceiver(secret: string, opts: HttpsServerOptions & { delayMs?: number } = {}): Promise<Receiver> {
  const open = new Map<string, number>();
  const receiver: Omit<Receiver, 'url' | 'requests' | 'close'> = { secret, events: [], rejected: [], answers: [], maxOpenPerKey: 0 };
  const server = await startHttpsServer((req, res) => {
    // The handler runs right after its request was recorded: it is the last one.
    const raw = server.requests.at(-1)!.body;
    const problem = signatureProblem(receiver.secret, req.headers, raw);
    if (problem) {
      receiver.rejected.push(problem);
      res.writeHead(401).end();
      return;
    }
    const event = JSON.parse(raw);
    checkDocumentedWebhook(event);
    receiver.events.push(event);
    const key = String(event.data?.key ?? event.id);
    open.set(key, (open.get(key) ?? 0) + 1);
    receiver.maxOpenPerKey = Math.max(receiver.maxOpenPerKey, open.get(key)!);
    setTimeout(() => {
      open.set(key, open.get(key)! - 1);
      const status = receiver.answers.shift() ?? 200;
      res.writeHead(status, status >= 300 && status < 400 ? { Location: `${server.url}/hooks?moved` } : {}).end('ok');
    }, opts.delayMs ?? 0);
  }, opts);
  return Object.assign(receiver, { url: `${server.url}/hooks`, requests: server.requests, close: server.close });
}

export interface Deliveries {
  app: TestApp;
  tenantId: string;
  /** Checks the signatures of `tenantId`'s secret. */
  receiver: Receiver;
  close(): Promise<void>;
}

/** The webhooks controller on a manual clock, a company, and a receiver for its events. */
export async function startDeliveries(): Promise<Deliveries> {
  const app = await startJobsApp({ controllers: true, manualClock: true });
  const { tenantId } = await app.company();
  const receiver = await startReceiver(await webhookSecret(app.runtime.ctx, tenantId));
  return {
    app,
    tenantId,
    receiver,
    async close() {
      await receiver.close();
      await app.close();
    },
  };
}

/** Writes `event` to the outbox in a transaction of its own: the parts that cause events write them with their change, tests drive the mechanism directly. */
export function enqueueDirectly(app: TestApp, event: OutboxEvent): Promise<Envelope> {
  const { ctx } = app.runtime;
  return ctx.db.transaction((trx) => enqueueEvent(ctx, trx, event));
}

/** The outbox row of event `id` (undefined when there is none). */
export const outboxRow = (app: TestApp, id: string) => app.runtime.ctx.db('webhook_outbox').where({ id }).first();

/** The outbox row of event `id` once its delivery has settled, delivered or failed. */
export async function settledRow(app: TestApp, id: string) {
  await eventually(`event ${id} to settle`, async () => (await outboxRow(app, id))?.status !== 'pending');
  return outboxRow(app, id);
}
