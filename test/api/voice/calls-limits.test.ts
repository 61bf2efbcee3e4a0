import { expect } from 'chai';
import { callStatus, finalResult, NUMBERS, outboxOf, startCallsApp, type CallsApp } from '../../support/calls.js';
import { eventually } from '../../support/eventually.js';
import { startProcess, type SwitchboardProcess } from '../../support/processes.js';
import { reachableRedis, unreachableRedisUrl } from '../../support/redis.js';

const redisUrl = await reachableRedis();
const EVENTS_URL = 'https://127.0.0.1:9/events';

describe('Call slots and durations', () => {
  let app: CallsApp;
  before(async () => {
    // Leases far longer than any clock move here: only the call's own deadline passes.
    app = await startCallsApp({ controllers: true, manualClock: true, env: { SWITCHBOARD_LEASE_SEC: '600' } });
  });
  after(async () => {
    await app?.close();
  });

  it('gives the slot back the moment a call ends, whatever its outcome', async () => {
    const { client } = await app.voiceCompany({ maxConcurrentCalls: 1 });
    // Each call ends within milliseconds of ringing: the next one is accepted only if its slot came back.
    for (const to of [NUMBERS.busy, NUMBERS.fail, NUMBERS.noAnswer]) {
      const placed = await client.post('/v1/calls', { to });
      expect(placed.status, JSON.stringify(placed.body)).to.equal(201);
      await finalResult(client, placed.body.id);
    }
    const ringing = await client.post('/v1/calls', { to: NUMBERS.longRing });
    await callStatus(client, ringing.body.id, 'ringing');
    expect((await client.post('/v1/calls', { to: NUMBERS.answer })).body.error.code).to.equal('tenant_busy');
    await client.post(`/v1/calls/${ringing.body.id}/hangup`);
    expect((await client.post('/v1/calls', { to: NUMBERS.busy })).status).to.equal(201);
  });

  it('hangs up a call on the line when max_duration_sec runs out', async () => {
    const { client } = await app.voiceCompany({ maxConcurrentCalls: 1, eventsUrl: EVENTS_URL });
    const placed = await client.post('/v1/calls', { to: NUMBERS.stays, task: 'Chat a while', max_duration_sec: 30 });
    await callStatus(client, placed.body.id, 'in-progress');
    app.advance(29_000);
    expect((await client.get(`/v1/calls/${placed.body.id}`)).body.status).to.equal('in-progress');
    app.advance(2_000);
    const ended = await callStatus(client, placed.body.id, 'completed');
    expect(ended).to.include({ hangup_cause: 'max_duration', duration_sec: 30 });
    const result = await finalResult(client, placed.body.id);
    expect(result).to.include({ status: 'completed', duration_sec: 30 });
    expect((await outboxOf(app, placed.body.id)).map((e) => e.type)).to.deep.equal([
      'call.initiated',
      'call.answered',
      'call.updated',
      'call.ended',
      'ai.summary',
    ]);
    expect((await client.post('/v1/calls', { to: NUMBERS.busy })).status).to.equal(201);
  });
});

describe('Call limits while Redis is unavailable', () => {
  let app: CallsApp;
  before(async () => {
    app = await startCallsApp({ controllers: true, env: { REDIS_URL: await unreachableRedisUrl() } });
  });
  after(async () => {
    await app?.close();
  });

  it('places calls with per-replica slots, still answers tenant_busy, and says so in a metric and one log line', async () => {
    const { client } = await app.voiceCompany({ maxConcurrentCalls: 1 });
    const ringing = await client.post('/v1/calls', { to: NUMBERS.longRing });
    expect(ringing.status, JSON.stringify(ringing.body)).to.equal(201);
    await callStatus(client, ringing.body.id, 'ringing');
    expect((await client.post('/v1/calls', { to: NUMBERS.answer })).body.error.code).to.equal('tenant_busy');
    await client.post(`/v1/calls/${ringing.body.id}/hangup`);
    const next = await client.post('/v1/calls', { to: NUMBERS.busy });
    expect(next.status, JSON.stringify(next.body)).to.equal(201);

    const metrics = await (await fetch(`${app.metricsUrl}/metrics`)).text();
    const fallbacks = (scope: string) =>
      Number(metrics.match(new RegExp(`^switchboard_rate_limiter_fallback_total\\{scope="${scope}"\\} (\\d+)$`, 'm'))?.[1] ?? 0);
    // Three slot checks and two placements counted in memory, at least (the call refused as busy was not placed).
    expect(fallbacks('call_slots')).to.be.at.least(3);
    expect(fallbacks('calls')).to.be.at.least(2);
    expect(app.logs.filter((line) => line.includes('rate limits fall back to per-replica in-memory counting'))).to.have.length(1);
  });
});

// The slot of a call whose controller replica dies is freed by its lease running out: that takes
// a Redis shared by the API server and the replica.
if (redisUrl) {
  describe('A controller replica that crashes mid-call', function () {
    this.timeout(120_000);
    let app: CallsApp;
    const replicas: SwitchboardProcess[] = [];
    before(async () => {
      app = await startCallsApp({ env: { REDIS_URL: redisUrl, SWITCHBOARD_LEASE_SEC: '2' } });
    });
    after(async () => {
      for (const r of replicas) await r.kill();
      await app?.close();
    });

    const replica = async () => {
      const { config } = app.runtime.ctx;
      const p = await startProcess(
        'controllers',
        {
          DATABASE_URL: config.DATABASE_URL!,
          OPENAI_BASE_URL: app.model.url,
          REDIS_URL: redisUrl,
          SWITCHBOARD_SIM_SCENARIOS: config.SWITCHBOARD_SIM_SCENARIOS!,
          SWITCHBOARD_LEASE_SEC: '2',
        },
        'controllers started',
      );
      replicas.push(p);
      return p;
    };

    it('holds the slot until its lease runs out, then the call ends failed as interrupted', async () => {
      const { client } = await app.voiceCompany({ maxConcurrentCalls: 1, eventsUrl: EVENTS_URL });
      const first = await replica();
      const placed = await client.post('/v1/calls', { to: NUMBERS.longRing });
      await callStatus(client, placed.body.id, 'ringing');
      await first.kill();
      expect((await client.post('/v1/calls', { to: NUMBERS.busy })).body.error.code).to.equal('tenant_busy');
      // Polled slowly: every refused try counts against the 30 calls a minute.
      let next: { status: number; body: any } = { status: 0, body: {} };
      await eventually(
        'the slot lease running out',
        async () => (next = await client.post('/v1/calls', { to: NUMBERS.busy })).status !== 429,
        { everyMs: 500 },
      );
      expect(next.status, JSON.stringify(next.body)).to.equal(201);

      await replica();
      const result = await finalResult(client, placed.body.id);
      expect(result).to.include({ status: 'failed', outcome: 'failed' });
      expect((await client.get(`/v1/calls/${placed.body.id}`)).body.hangup_cause).to.equal('interrupted');
      expect((await outboxOf(app, placed.body.id)).map((e) => e.type)).to.deep.equal(['call.initiated', 'call.ended']);
    });

    it('ends an inbound call waiting in a queue failed, out of the queue with queue.exited before call.ended, its position free', async () => {
      const number = '+12025552900';
      const { client } = await app.voiceCompany({ eventsUrl: EVENTS_URL, numbers: [number] });
      // Its only member rings for a minute: the caller waits while the replica is killed.
      const queue = (await client.post('/v1/queues', { name: 'Desk', members: [{ id: 'm', name: 'Mo', phone: NUMBERS.longRing }] })).body;
      expect(
        (await client.patch(`/v1/numbers/${encodeURIComponent(number)}`, { routing: { type: 'queue', queue_id: queue.id } })).status,
      ).to.equal(200);
      await replica();
      const call = (await client.post('/v1/sim/calls', { to: number, from: '+12025552901', lines: ['Hello?'] })).body;
      await eventually('the caller in the queue', async () => (await client.get(`/v1/calls/${call.id}`)).body.queue ?? false);
      // The replica holding the call (an earlier test's may be running too) is killed, and another takes over.
      const { lease_owner: owner } = await app.runtime.ctx.db('calls').where({ id: call.id }).first('lease_owner');
      await replicas.find((r) => r.pid === Number(String(owner).split(':').at(-2)))!.kill();
      await replica();
      await callStatus(client, call.id, 'failed');
      expect((await client.get(`/v1/calls/${call.id}`)).body).to.include({ hangup_cause: 'interrupted', queue: null });
      const events = (await outboxOf(app, call.id)).map((e) => e.payload);
      expect(events.map((e) => e.type).slice(-3)).to.deep.equal(['queue.entered', 'queue.exited', 'call.ended']);
      expect(events.at(-2).data.queue).to.deep.include({ id: queue.id, reason: 'hangup' });
      const next = (await client.post('/v1/sim/calls', { to: number, from: '+12025552902', lines: ['Hi'] })).body;
      const entered = await eventually(
        'the next caller in the queue',
        async () => (await client.get(`/v1/calls/${next.id}`)).body.queue ?? false,
      );
      expect(entered.position).to.equal(1);
    });
  });
}
