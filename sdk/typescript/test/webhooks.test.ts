// A webhook the server really delivers, to an HTTPS receiver run here (the server sends only to
// https; the harness's test certificate is in SWITCHBOARD_TLS_DIR), verified under both header
// schemes; a changed body, an old timestamp and another secret are refused. A tool call's or a
// campaign request's signature, made here as the server makes it, is checked by verifySignature.
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { IncomingHttpHeaders } from 'node:http';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { Switchboard, verifySignature, verifyWebhook, WebhookVerificationError } from '@switchboard/sdk';

const secret = process.env.SWITCHBOARD_WEBHOOK_SECRET!;
const accountId = process.env.SWITCHBOARD_ACCOUNT_ID!;
const tls = process.env.SWITCHBOARD_TLS_DIR!;
const sb = new Switchboard({ baseUrl: process.env.SWITCHBOARD_URL, apiKey: process.env.SWITCHBOARD_API_KEY });

interface Delivery {
  headers: IncomingHttpHeaders;
  body: string;
}

const deliveries: Delivery[] = [];
let arrived: () => void = () => {};
const receiver = createServer({ cert: readFileSync(join(tls, 'cert.pem')), key: readFileSync(join(tls, 'key.pem')) }, (req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    deliveries.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
    arrived();
    res.writeHead(200).end();
  });
});

/** The first delivery whose body passes `match`, once it has arrived. */
async function deliveryWhere(match: (body: { type: string; data: { id?: string } }) => boolean): Promise<Delivery> {
  for (;;) {
    const found = deliveries.find((d) => match(JSON.parse(d.body)));
    if (found) return found;
    await new Promise<void>((resolve) => (arrived = resolve));
  }
}

/** The request's headers less one scheme's. */
const without = (headers: IncomingHttpHeaders, scheme: string) =>
  Object.fromEntries(Object.entries(headers).filter(([name]) => !name.startsWith(scheme)));

const settings = (events_url: string) =>
  sb.voice.PATCH('/tenants/{account_id}/settings', { params: { path: { account_id: accountId } }, body: { events_url } });

before(async () => {
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const { response } = await settings(`https://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`);
  assert.equal(response.status, 200);
});

after(async () => {
  await settings('');
  receiver.closeAllConnections();
  await new Promise((resolve) => receiver.close(resolve));
});

test('a delivered call event verifies under both header schemes and is refused when tampered with', async () => {
  const call = await sb.calls.create({ to: '+12025550119', task: 'Say hello' });
  const { headers, body } = await deliveryWhere((e) => e.type === 'call.initiated' && e.data.id === call.id);

  for (const scheme of [headers, without(headers, 'webhook-'), without(headers, 'x-voice-')]) {
    const event = verifyWebhook(scheme, body, secret);
    assert.deepEqual(event, JSON.parse(body));
    // The type narrows the event: a call event's data is the call.
    assert.ok(event.type === 'call.initiated');
    assert.equal(event.data.id, call.id);
    assert.equal(event.data.to, '+12025550119');
  }
  assert.ok(headers['x-voice-signature'] && headers['webhook-signature'], 'the server sent both schemes');

  const tampered = body.replace(call.id, 'cal_someone_else');
  for (const scheme of [without(headers, 'webhook-'), without(headers, 'x-voice-')]) {
    assert.throws(() => verifyWebhook(scheme, tampered, secret), WebhookVerificationError);
    assert.throws(() => verifyWebhook(scheme, body, 'whsec_c29tZW9uZSBlbHNlJ3Mgc2VjcmV0IG9mIDMyIGJ5dGVz'), WebhookVerificationError);
    // Ten minutes later the same request is a replay.
    const later = new Date(Date.now() + 10 * 60_000);
    assert.throws(() => verifyWebhook(scheme, body, secret, { now: later }), WebhookVerificationError);
    assert.deepEqual(verifyWebhook(scheme, body, secret, { now: later, toleranceSec: 3600 }), JSON.parse(body));
  }
  assert.throws(() => verifyWebhook({ 'content-type': 'application/json' }, body, secret), WebhookVerificationError);
});

/** The headers Switchboard signs a request to the account's API with (a tool call, a campaign request), under both schemes. */
function signedHeaders(body: string): Record<string, string> {
  const timestamp = String(Math.floor(Date.now() / 1000));
  const id = 'tc_signed_here';
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  return {
    'x-voice-timestamp': timestamp,
    'x-voice-signature': `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`,
    'webhook-id': id,
    'webhook-timestamp': timestamp,
    'webhook-signature': `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`,
  };
}

test('a tool call with an empty body and a campaign request pass verifySignature; verifyWebhook refuses them', () => {
  const campaign = JSON.stringify({ event: 'campaign.list', campaignId: 'cmp_1', runId: 'run_1' });
  for (const body of ['', campaign]) {
    const headers = signedHeaders(body);
    for (const scheme of [headers, without(headers, 'webhook-'), without(headers, 'x-voice-')]) {
      assert.equal(verifySignature(scheme, body, secret), undefined);
      assert.throws(() => verifySignature(scheme, `${body} `, secret), WebhookVerificationError);
      assert.throws(() => verifyWebhook(scheme, body, secret), {
        name: 'WebhookVerificationError',
        message: /not a webhook event; verifySignature/,
      });
    }
  }
  // Refused for its signature before its shape: the message says which.
  assert.throws(() => verifyWebhook(signedHeaders('{}'), campaign, secret), { message: 'X-Voice-Signature does not match' });
});
