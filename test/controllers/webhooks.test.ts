import { expect } from 'chai';
import { prefixedId } from '../../pkg/ids.js';
import { enqueueEvent, type OutboxEvent } from '../../pkg/webhooks/outbox.js';
import type { Envelope } from '../../pkg/store/webhooks.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { adminOn, expectSuccess } from '../support/cli.js';
import { manualClock, startJobsApp } from '../support/triggers.js';
import { eventually } from '../support/eventually.js';
import { enqueueDirectly, outboxRow, settledRow, signatureProblem, startReceiver, type Receiver } from '../support/webhooks.js';
import { startHttpsServer } from '../support/https.js';

const MINUTE = 60_000;

const secretOf = async (app: TestApp, tenantId: string): Promise<string> =>
  expectSuccess(await adminOn(app)('tenant', 'show', '--tenant', tenantId)).webhookSecret;

const enqueue = (app: TestApp, event: Partial<OutboxEvent> & Pick<OutboxEvent, 'tenantId' | 'url' | 'orderingKey'>): Promise<Envelope> =>
  enqueueDirectly(app, { type: 'call.updated', target: 'events', data: { key: event.orderingKey }, ...event });

async function settled(app: TestApp, id: string, status: 'delivered' | 'failed') {
  const row = await settledRow(app, id);
  expect(row.status, row.last_error).to.equal(status);
  return row;
}

/** Sum of switchboard_webhook_deliveries_total by result over the given processes. */
async function deliveryCounts(...apps: TestApp[]): Promise<Record<string, number>> {
  const counts: Record<string, number> = { delivered: 0, retry: 0, failed: 0 };
  for (const app of apps) {
    const text = await (await fetch(`${app.metricsUrl}/metrics`)).text();
    for (const m of text.matchAll(/^switchboard_webhook_deliveries_total\{result="(\w+)"\} (\d+)$/gm)) counts[m[1]!]! += Number(m[2]);
  }
  return counts;
}

describe('Webhook delivery (the webhooks controller)', function () {
  this.timeout(120_000);
  let app: TestApp;
  let replica: TestApp;
  let tenantId: string;
  let receiver: Receiver;
  const secrets: string[] = [];
  const cliErrors: string[] = [];

  before(async () => {
    // Two jobs a replica: deliveries are not bounded by it (SWITCHBOARD_WEBHOOK_CONCURRENCY is theirs).
    const env = { SWITCHBOARD_WEBHOOK_RETRY_SEC: '1', SWITCHBOARD_CONTROLLER_CONCURRENCY: '2' };
    app = await startJobsApp({ controllers: true, env });
    // A second controller replica on the same database: both claim webhook deliveries.
    replica = await startTestApp({ databaseUrl: app.runtime.ctx.config.DATABASE_URL, controllers: true, model: app.model, env });
    ({ tenantId } = await app.company());
    secrets.push(await secretOf(app, tenantId));
    receiver = await startReceiver(secrets[0]!, { delayMs: 15 });
  });
  after(async () => {
    await receiver?.close();
    await replica?.close();
    await app?.close();
  });
  afterEach(() => {
    receiver.answers.length = 0;
  });

  it("delivers every event once, signed both ways, and a call's events one at a time in the order written, with two replicas", async () => {
    const keys = Array.from({ length: 5 }, () => prefixedId('cal'));
    const written = new Map<string, string[]>(keys.map((k) => [k, []]));
    await Promise.all(
      keys.map(async (key) => {
        for (let n = 0; n < 6; n++)
          written.get(key)!.push((await enqueue(app, { tenantId, url: receiver.url, orderingKey: key, data: { key, n } })).id);
      }),
    );
    await eventually('30 deliveries', () => receiver.events.length >= 30);

    expect(receiver.rejected).to.deep.equal([]);
    expect(receiver.requests).to.have.length(30);
    expect(receiver.maxOpenPerKey, 'requests of one call open at the same time').to.equal(1);
    for (const key of keys) {
      const arrived = receiver.events.filter((e) => e.data.key === key);
      expect(
        arrived.map((e) => e.id),
        `order of ${key}`,
      ).to.deep.equal(written.get(key));
      expect(arrived.map((e) => e.data.n)).to.deep.equal([0, 1, 2, 3, 4, 5]);
    }
    for (const [i, req] of receiver.requests.entries()) {
      expect(req.method).to.equal('POST');
      expect(req.headers['user-agent']).to.equal('voice-webhooks/1');
      expect(req.headers['content-type']).to.equal('application/json');
      expect(req.headers['webhook-id']).to.equal(receiver.events[i].id);
    }
    const [first] = receiver.events;
    expect(Object.keys(first)).to.deep.equal(['id', 'type', 'created_at', 'tenant_id', 'data']);
    expect(first).to.include({ type: 'call.updated', tenant_id: tenantId });
    expect(first.id).to.match(/^evt_[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(new Date(first.created_at).toISOString()).to.equal(first.created_at);
    await settled(app, first.id, 'delivered');
  });

  it("holds up only a dead receiver's own calls: another call's event goes while every try to it is still open", async () => {
    // More dead calls than the two replicas have job slots between them.
    const DEAD = 6;
    let open = 0;
    const dead = await startHttpsServer((req) => {
      open++;
      req.socket.once('close', () => open--);
    });
    let openWhenLiveArrived: number | null = null;
    const live = await startHttpsServer((_req, res) => {
      openWhenLiveArrived = open;
      res.writeHead(200).end();
    });
    try {
      for (let n = 0; n < DEAD; n++) {
        const key = prefixedId('cal');
        await enqueue(app, { tenantId, url: `${dead.url}/hooks`, orderingKey: key, data: { key } });
      }
      await eventually('every dead call to have a try open', async () => open === DEAD);
      const key = prefixedId('cal');
      const sent = await enqueue(app, { tenantId, url: `${live.url}/hooks`, orderingKey: key, data: { key } });
      await settled(app, sent.id, 'delivered');
      expect(openWhenLiveArrived).to.equal(DEAD);
    } finally {
      await dead.close();
      await live.close();
    }
  });

  it('tries message.created three times, a few seconds apart, with the same event id', async () => {
    // Earlier tests' events may still be going out: the counts below must move for this event only.
    await eventually(
      'the outbox to drain',
      async () => Number((await app.runtime.ctx.db('webhook_outbox').where({ status: 'pending' }).count({ n: '*' }).first())?.n) === 0,
    );
    const before = await deliveryCounts(app, replica);
    receiver.answers.push(500, 503);
    const sent = await enqueue(app, {
      tenantId,
      url: receiver.url,
      orderingKey: prefixedId('msg'),
      type: 'message.created',
      target: 'message',
    });
    const row = await settled(app, sent.id, 'delivered');
    expect(row.attempts).to.equal(3);

    const tries = receiver.requests.filter((r) => r.headers['webhook-id'] === sent.id);
    expect(tries).to.have.length(3);
    expect(new Set(tries.map((r) => JSON.parse(r.body).id))).to.deep.equal(new Set([sent.id]));
    const stamps = tries.map((r) => Number(r.headers['x-voice-timestamp']));
    // SWITCHBOARD_WEBHOOK_RETRY_SEC is 1 here.
    expect(stamps[1]! - stamps[0]!).to.be.at.least(1);
    expect(stamps[2]! - stamps[1]!).to.be.at.least(1);

    const after = await deliveryCounts(app, replica);
    expect({
      delivered: after.delivered! - before.delivered!,
      retry: after.retry! - before.retry!,
      failed: after.failed! - before.failed!,
    }).to.deep.equal({
      delivered: 1,
      retry: 2,
      failed: 0,
    });
  });

  it("sends a call event once: a failed try is not repeated, and the call's later events still go", async () => {
    receiver.answers.push(500);
    const key = prefixedId('cal');
    const sent: Envelope[] = [];
    for (let n = 0; n < 3; n++) sent.push(await enqueue(app, { tenantId, url: receiver.url, orderingKey: key, data: { key, n } }));
    const row = await settled(app, sent[0]!.id, 'failed');
    expect(row).to.include({ attempts: 1, last_error: 'the receiver answered HTTP 500' });
    await settled(app, sent[2]!.id, 'delivered');
    expect(receiver.requests.filter((r) => r.headers['webhook-id'] === sent[0]!.id)).to.have.length(1);
    expect(receiver.events.filter((e) => e.data.key === key).map((e) => e.id)).to.deep.equal(sent.map((e) => e.id));
  });

  it('counts a redirect as a failed try: the receiver must answer 2xx itself, and is not asked again elsewhere', async () => {
    receiver.answers.push(307);
    const key = prefixedId('cal');
    const sent = await enqueue(app, { tenantId, url: receiver.url, orderingKey: key, data: { key } });
    const row = await settled(app, sent.id, 'failed');
    expect(row).to.include({ attempts: 1, last_error: 'the receiver answered HTTP 307' });
    expect(receiver.requests.filter((r) => r.headers['webhook-id'] === sent.id).map((r) => r.url)).to.deep.equal(['/hooks']);
  });

  it('after a replica died mid-try: a call event is given up (not sent twice) and the next of its call goes; a message.created is tried again with its id', async () => {
    const { ctx } = app.runtime;
    const [callKey, messageKey] = [prefixedId('cal'), prefixedId('msg')];
    const past = new Date(Date.now() - MINUTE);
    // A try in flight on a replica that is gone: its lease ran out. No public interface makes one.
    const inFlight = (orderingKey: string, event: Partial<OutboxEvent>) =>
      ctx.db.transaction(async (trx) => {
        const sent = await enqueueEvent(ctx, trx, {
          tenantId,
          url: receiver.url,
          orderingKey,
          type: 'call.updated',
          target: 'events',
          data: { key: orderingKey },
          ...event,
        });
        await trx('webhook_outbox').where({ id: sent.id }).update({ attempts: 1, lease_owner: 'gone', lease_until: past, due_at: past });
        return sent;
      });
    const lost = await inFlight(callKey, {});
    const message = await inFlight(messageKey, { type: 'message.created', target: 'message' });
    const next = await enqueue(app, { tenantId, url: receiver.url, orderingKey: callKey });
    app.controllers!.wake();

    expect((await settled(app, lost.id, 'failed')).last_error).to.match(/^interrupted/);
    expect(await settled(app, message.id, 'delivered')).to.include({ attempts: 2 });
    await settled(app, next.id, 'delivered');
    expect(receiver.events.filter((e) => e.data.key === callKey).map((e) => e.id)).to.deep.equal([next.id]);
    expect(receiver.events.filter((e) => e.data.key === messageKey).map((e) => e.id)).to.deep.equal([message.id]);
  });

  it("keeps a call's order when its events are written while the one before is being settled, on two replicas", async () => {
    const keys = Array.from({ length: 20 }, () => prefixedId('cal'));
    const written = new Map<string, string[]>(keys.map((k) => [k, []]));
    // Each call's next event written as its previous one is delivered: writes race the settling of the key's head.
    await Promise.all(
      keys.map(async (key) => {
        for (let n = 0; n < 5; n++) {
          written.get(key)!.push((await enqueue(app, { tenantId, url: receiver.url, orderingKey: key, data: { key, n } })).id);
          await eventually(`${key} #${n} to arrive`, async () => receiver.events.some((e) => e.id === written.get(key)!.at(-1)), {
            everyMs: 5,
          });
        }
      }),
    );
    for (const key of keys)
      expect(
        receiver.events.filter((e) => e.data.key === key).map((e) => e.id),
        key,
      ).to.deep.equal(written.get(key));
    const pending = () => app.runtime.ctx.db('webhook_outbox').whereIn('ordering_key', keys).andWhere({ status: 'pending' });
    await eventually('every event to be settled', async () => (await pending()).length === 0);
  });

  it("makes an event written behind its call's head due when the head settles while the write is still open", async () => {
    const { ctx } = app.runtime;
    const key = prefixedId('cal');
    let answerHead!: () => void;
    const held = await startHttpsServer((_req, res) => (answerHead = () => res.writeHead(200).end()));
    try {
      const head = await enqueue(app, { tenantId, url: `${held.url}/hooks`, orderingKey: key, data: { key } });
      await eventually('the head to be sent', async () => held.requests.length === 1);
      // The next event is written, behind the pending head (so not yet due), and its transaction held open.
      const trx = await ctx.db.transaction();
      const next = await enqueueEvent(ctx, trx, {
        tenantId,
        url: receiver.url,
        orderingKey: key,
        type: 'call.updated',
        target: 'events',
        data: { key, n: 1 },
      });
      answerHead();
      // Settling the head waits for the key's lock the open write holds, rather than missing the write.
      const waitingForKey = async () =>
        (
          await ctx.db.raw(
            `select 1 from pg_stat_activity where wait_event_type = 'Lock' and wait_event = 'advisory' and datname = current_database()`,
          )
        ).rows.length > 0;
      await eventually('settling the head to wait for the key', waitingForKey);
      await trx.commit();
      await settled(app, head.id, 'delivered');
      await settled(app, next.id, 'delivered');
    } finally {
      await held.close();
    }
  });

  it('refuses a receiver that is not https on the public internet, without sending it anything', async () => {
    const local = await startReceiver(secrets[0]!, { host: '::1' });
    try {
      const notPublic = await enqueue(app, { tenantId, url: local.url, orderingKey: prefixedId('cal') });
      const plainHttp = await enqueue(app, { tenantId, url: receiver.url.replace('https:', 'http:'), orderingKey: prefixedId('cal') });
      expect((await settled(app, notPublic.id, 'failed')).last_error).to.match(/refused: ::1 is not a public address/);
      expect((await settled(app, plainHttp.id, 'failed')).last_error).to.match(/refused: only https/);
      expect(local.requests).to.have.length(0);
      expect(receiver.requests.filter((r) => r.headers['webhook-id'] === plainHttp.id)).to.have.length(0);
    } finally {
      await local.close();
    }
  });

  it('signs the next delivery with the new secret once rotate-webhook-secret replaced it', async () => {
    const rotated = await adminOn(app)('tenant', 'rotate-webhook-secret', '--tenant', tenantId);
    cliErrors.push(rotated.stderr);
    expect(expectSuccess(rotated)).to.deep.equal({ tenantId, rotated: true });
    secrets.push(await secretOf(app, tenantId));
    expect(secrets[1])
      .to.match(/^whsec_/)
      .and.not.equal(secrets[0]);

    receiver.secret = secrets[1]!;
    const sent = await enqueue(app, { tenantId, url: receiver.url, orderingKey: prefixedId('cal') });
    await settled(app, sent.id, 'delivered');
    const req = receiver.requests.find((r) => r.headers['webhook-id'] === sent.id)!;
    expect(signatureProblem(secrets[1]!, req.headers, req.body)).to.equal(null);
    expect(signatureProblem(secrets[0]!, req.headers, req.body)).to.equal('X-Voice-Signature does not match');
  });

  it('keeps the webhook secret encrypted at rest and out of every log', async () => {
    const { webhook_secret: atRest } = await app.runtime.ctx.db('tenants').where({ id: tenantId }).first();
    expect(atRest).to.match(/^v1\./);
    expect(atRest).not.to.include(secrets[1]!.slice('whsec_'.length));
    const logs = [...app.logs, ...replica.logs, ...cliErrors].join('\n');
    expect(logs).to.include('webhook not delivered');
    for (const secret of secrets) expect(logs).not.to.include(secret.slice('whsec_'.length));
  });
});

describe('Webhook timestamps', function () {
  this.timeout(60_000);
  let app: TestApp;
  let receiver: Receiver;
  before(async () => {
    app = await startJobsApp({ controllers: true, manualClock: true });
    receiver = await startReceiver('');
  });
  after(async () => {
    await receiver?.close();
    await app?.close();
  });

  it('are refused with 401 by a receiver whose clock is more than 5 minutes away, and the event is recorded failed', async () => {
    const { tenantId } = await app.company();
    receiver.secret = await secretOf(app, tenantId);
    const clock = manualClock(app);
    const realNow = clock.now();

    clock.set(new Date(realNow.getTime() - 6 * MINUTE));
    const stale = await enqueue(app, { tenantId, url: receiver.url, orderingKey: prefixedId('cal') });
    expect((await settled(app, stale.id, 'failed')).last_error).to.equal('the receiver answered HTTP 401');
    expect(receiver.rejected).to.have.length(1);
    expect(receiver.rejected[0]).to.match(/^stale or missing timestamp/);

    clock.set(realNow);
    const fresh = await enqueue(app, { tenantId, url: receiver.url, orderingKey: prefixedId('cal') });
    await settled(app, fresh.id, 'delivered');
    expect(receiver.events.map((e) => e.id)).to.deep.equal([fresh.id]);
  });
});

describe('The webhook deliveries claim between companies', function () {
  this.timeout(120_000);
  let app: TestApp;
  before(async () => {
    // One delivery at a time: the order the claims take deliveries in is the order they arrive in.
    app = await startJobsApp({ controllers: true, env: { SWITCHBOARD_WEBHOOK_CONCURRENCY: '1' } });
  });
  after(async () => {
    await app?.close();
  });

  it("records another call's outcome while settling a head waits for its key's open write", async () => {
    const { ctx } = app.runtime;
    const { tenantId } = await app.company({ name: 'Waiting Co' });
    const key = prefixedId('cal');
    let answerHead!: () => void;
    const held = await startHttpsServer((_req, res) => (answerHead = () => res.writeHead(200).end()));
    const live = await startHttpsServer((_req, res) => res.writeHead(200).end());
    try {
      const head = await enqueue(app, { tenantId, url: `${held.url}/hooks`, orderingKey: key });
      await eventually('the head to be sent', async () => held.requests.length === 1);
      const trx = await ctx.db.transaction();
      const next = await enqueueEvent(ctx, trx, {
        tenantId,
        url: `${live.url}/hooks`,
        orderingKey: key,
        type: 'call.updated',
        target: 'events',
        data: { key },
      });
      answerHead();
      const waitingForKey = async () =>
        (
          await ctx.db.raw(
            `select 1 from pg_stat_activity where wait_event_type = 'Lock' and wait_event = 'advisory' and datname = current_database()`,
          )
        ).rows.length > 0;
      await eventually('settling the head to wait for the key', waitingForKey);
      // The one replica sends another call's event and records its outcome meanwhile.
      const elsewhere = await enqueue(app, { tenantId, url: `${live.url}/hooks`, orderingKey: prefixedId('cal') });
      await settled(app, elsewhere.id, 'delivered');
      expect((await outboxRow(app, head.id)).status, 'the head while its key is being written').to.equal('pending');
      await trx.commit();
      await settled(app, head.id, 'delivered');
      await settled(app, next.id, 'delivered');
    } finally {
      await held.close();
      await live.close();
    }
  });

  it("sends another company's event next, not after the backlog one company wrote before it", async () => {
    const a = await app.company({ name: 'Backlog Co' });
    const b = await app.company({ name: 'Single Co' });
    let answerFirst!: () => void;
    const arrived: string[] = [];
    const server = await startHttpsServer((_req, res) => {
      const { id } = JSON.parse(server.requests.at(-1)!.body) as Envelope;
      arrived.push(id);
      if (arrived.length === 1) answerFirst = () => res.writeHead(200).end();
      else res.writeHead(200).end();
    });
    try {
      const url = `${server.url}/hooks`;
      const first = await enqueue(app, { tenantId: a.tenantId, url, orderingKey: prefixedId('cal') });
      await eventually('the first event to be sent', async () => arrived.length === 1);
      // Each on a call of its own: all due at once.
      const backlog: string[] = [];
      for (let n = 0; n < 8; n++) backlog.push((await enqueue(app, { tenantId: a.tenantId, url, orderingKey: prefixedId('cal') })).id);
      const single = await enqueue(app, { tenantId: b.tenantId, url, orderingKey: prefixedId('cal') });
      answerFirst();
      await eventually('every event to arrive', async () => arrived.length === 10);
      expect(arrived.indexOf(single.id), 'place of the single event among the arrivals').to.equal(1);
      // The backlog keeps its own order.
      expect(arrived.filter((id) => id !== single.id)).to.deep.equal([first.id, ...backlog]);
    } finally {
      await server.close();
    }
  });
});
