import { expect } from 'chai';
import type { ModelReply } from '../../../pkg/agent/openai-server.js';
import { MODEL_MAX_TRIES } from '../../../pkg/agent/model-call.js';
import { openConversation, startTestApp, type Client, type TestApp } from '../../support/app.js';
import { finalResult, NUMBERS, startCallsApp, type CallsApp } from '../../support/calls.js';
import { eventually } from '../../support/eventually.js';
import { startScriptedModel, type ScriptedModel } from '../../support/model.js';
import { reachableRedis, unreachableRedisUrl } from '../../support/redis.js';
import { heldReply, manualClock, startJobsApp, waitForStatus } from '../../support/triggers.js';

const redisUrl = await reachableRedis();

const refused = (status: number, headers: Record<string, string> = {}): ModelReply => ({
  fail: { status, message: status === 429 ? 'Rate limit reached for requests' : 'The server is overloaded', headers },
});

/** The value of one series of the app's /metrics (0 when absent), e.g. `switchboard_model_retries_total{status="429"}`. */
async function metric(app: TestApp, series: string): Promise<number> {
  const text = await (await fetch(`${app.metricsUrl}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

/** How many turns of `apps` have asked for a model slot so far. */
function slotAsks(apps: TestApp[]): () => number {
  let asks = 0;
  for (const { runtime } of apps) {
    const slots = runtime.ctx.modelSlots;
    const acquire = slots.acquire;
    slots.acquire = (signal) => {
      asks++;
      return acquire.call(slots, signal);
    };
  }
  return () => asks;
}

/** A model reply that counts the calls in flight, each held until a second one is, or all `turns` of `apps` have asked for a slot. */
function countingConcurrency(model: ScriptedModel, apps: TestApp[], turns: number): { most(): number } {
  const asks = slotAsks(apps);
  let inFlight = 0;
  let most = 0;
  model.setDefault(async () => {
    most = Math.max(most, ++inFlight);
    await eventually('a second model call, or every turn asking for a slot', () => inFlight >= 2 || asks() === turns);
    // Held on a little: a call let through past the cap meanwhile (which nothing can await) would be counted.
    await new Promise((resolve) => setTimeout(resolve, 100));
    inFlight--;
    return { content: 'answered' };
  });
  return { most: () => most };
}

/** Retries the app has scheduled so far (each is logged as it starts waiting). */
const retriesOf = (app: TestApp) => app.logs.filter((line) => line.includes('the model answered with an error; retrying')).length;

/** Moves the app's clock a second at a time until the model has been asked `count` times. */
const advanceUntilAsked = (app: TestApp, count: number) =>
  eventually(
    `the model asked ${count} times`,
    () => {
      if (app.model.requests.length >= count) return true;
      app.advance(1000);
      return false;
    },
    { everyMs: 100 },
  );

describe('A model answering 429 or 5xx to a chat turn', () => {
  let app: TestApp;
  let client: Client;
  let agentId: string;
  before(async () => {
    app = await startTestApp({ manualClock: true });
    ({ client, agentId } = await app.company());
  });
  after(async () => app.close());
  beforeEach(() => app.model.reset());

  /** A reply that notes the app's clock time at which the model was asked. */
  const timed = (times: number[], reply: ModelReply) => () => {
    times.push(app.clock.now().getTime());
    return reply;
  };

  it('retries a 429 once its Retry-After seconds have passed, not before', async () => {
    const times: number[] = [];
    app.model.reply(timed(times, refused(429, { 'retry-after': '7' })), timed(times, { content: 'Back with you.' }));
    const id = await openConversation(client, agentId);
    const scheduled = retriesOf(app);

    const pending = client.post(`/api/v1/conversations/${id}/messages`, { message: 'Are you there?' });
    await eventually('the retry to be scheduled', () => retriesOf(app) > scheduled);
    app.advance(6_999);
    // A retry sent too soon would reach the model stand-in within this (no event marks one not sent).
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(times).to.have.length(1);
    app.advance(1);
    const reply = await pending;

    expect(reply.status, JSON.stringify(reply.body)).to.equal(200);
    expect(reply.body.message.content).to.equal('Back with you.');
    expect(times[1]! - times[0]!).to.be.at.least(7_000);
  });

  it('retries a 429 whose Retry-After is an HTTP date at that date', async () => {
    const times: number[] = [];
    const retryAt = Date.parse(new Date(app.clock.now().getTime() + 30_000).toUTCString());
    app.model.reply(timed(times, refused(429, { 'retry-after': new Date(retryAt).toUTCString() })), timed(times, { content: 'Here now.' }));
    const id = await openConversation(client, agentId);
    const scheduled = retriesOf(app);

    const pending = client.post(`/api/v1/conversations/${id}/messages`, { message: 'Hello?' });
    await eventually('the retry to be scheduled', () => retriesOf(app) > scheduled);
    manualClock(app).set(new Date(retryAt - 1));
    // A retry sent too soon would reach the model stand-in within this (no event marks one not sent).
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(times).to.have.length(1);
    manualClock(app).set(new Date(retryAt));
    const reply = await pending;

    expect(reply.status, JSON.stringify(reply.body)).to.equal(200);
    expect(reply.body.message.content).to.equal('Here now.');
    expect(times[1]).to.be.at.least(retryAt);
  });

  it('retries a 5xx of a streamed turn before its first token, after its retry-after-ms, and streams the answer once', async () => {
    const times: number[] = [];
    app.model.reply(timed(times, refused(503, { 'retry-after-ms': '2500' })), timed(times, { content: 'Streamed after all.' }));
    const id = await openConversation(client, agentId);

    const streamed = client.stream(`/api/v1/conversations/${id}/messages`, { message: 'Stream it', stream: true });
    await advanceUntilAsked(app, 2);
    const { status, events } = await streamed;

    expect(times[1]! - times[0]!).to.be.at.least(2_500);
    expect(status).to.equal(200);
    const content = events
      .filter((e) => e.type === 'content')
      .map((e) => e.content)
      .join('');
    expect(content).to.equal('Streamed after all.');
    expect(events.filter((e) => e.type === 'error')).to.deep.equal([]);
  });

  it(`fails the turn with the model's error after ${MODEL_MAX_TRIES} tries, keeping the user message`, async () => {
    app.model.setDefault(refused(429, { 'retry-after': '1' }));
    const id = await openConversation(client, agentId);
    const retried = await metric(app, 'switchboard_model_retries_total{status="429"}');

    const pending = client.post(`/api/v1/conversations/${id}/messages`, { message: 'Anyone?' });
    await advanceUntilAsked(app, MODEL_MAX_TRIES);
    const reply = await pending;

    expect(reply.status).to.equal(500);
    expect(reply.body.error).to.contain('Rate limit reached for requests').and.contain(`after ${MODEL_MAX_TRIES} tries`);
    expect(app.model.requests).to.have.length(MODEL_MAX_TRIES);
    expect(await metric(app, 'switchboard_model_retries_total{status="429"}')).to.equal(retried + MODEL_MAX_TRIES - 1);
    const { messages } = (await client.get(`/api/v1/conversations/${id}`)).body;
    expect(messages.map((m: any) => [m.role, m.content])).to.deep.equal([['user', 'Anyone?']]);
  });

  it('fails the turn at once when Retry-After asks for longer than the retries may wait', async () => {
    app.model.reply(refused(429, { 'retry-after': '3600' }), { content: 'never asked' });
    const id = await openConversation(client, agentId);

    const reply = await client.post(`/api/v1/conversations/${id}/messages`, { message: 'Now?' });

    expect(reply.status).to.equal(500);
    expect(reply.body.error).to.contain('Rate limit reached for requests');
    expect(app.model.requests).to.have.length(1);
  });
});

describe('A model answering 429 or 5xx to a job', () => {
  let app: TestApp;
  let client: Client;
  let agentId: string;
  before(async () => {
    // A lease longer than every clock move here, so only the model's answers decide the runs.
    app = await startJobsApp({ controllers: true, manualClock: true, env: { SWITCHBOARD_LEASE_SEC: '3600' } });
    ({ client, agentId } = await app.company());
  });
  after(async () => app.close());
  beforeEach(() => app.model.reset());

  const createJob = async (): Promise<string> => {
    const res = await client.post('/api/v1/triggers', { agentId, task: 'Settle the refund for order A-17' });
    expect(res.status, JSON.stringify(res.body)).to.equal(202);
    return res.body.triggerId;
  };

  it('retries within the run: the job succeeds on its first attempt', async () => {
    app.model.reply(refused(502), refused(429, { 'retry-after': '2' }), { content: 'Refund settled' });
    const triggerId = await createJob();

    await advanceUntilAsked(app, 3);
    const job = await waitForStatus(client, triggerId, 'succeeded');

    expect(job).to.include({ attemptCount: 1, resultSummary: 'Refund settled' });
  });

  it(`fails the job with the model's error after ${MODEL_MAX_TRIES} tries, its attempts unspent by them`, async () => {
    app.model.setDefault(refused(503, { 'retry-after': '1' }));
    const triggerId = await createJob();

    await advanceUntilAsked(app, MODEL_MAX_TRIES);
    const job = await waitForStatus(client, triggerId, 'failed');

    expect(job.errorMessage).to.contain('The server is overloaded').and.contain(`after ${MODEL_MAX_TRIES} tries`);
    expect(job).to.include({ attemptCount: 1 });
    expect(app.model.requests).to.have.length(MODEL_MAX_TRIES);
  });
});

describe('A model answering 429 to a call turn', () => {
  let app: CallsApp;
  before(async () => {
    app = await startCallsApp({ controllers: true });
  });
  after(async () => app?.close());

  it('is retried after its Retry-After, and the call goes on as if it had answered at once', async () => {
    const { client } = await app.voiceCompany({ eventsUrl: 'https://127.0.0.1:9/events' });
    const task = 'Ask Ann about her budget, patiently';
    app.script(
      task,
      refused(429, { 'retry-after': '1' }),
      { content: 'Hi Ann, this is Acme. What is your budget?' },
      { toolCalls: [{ name: 'end_call', arguments: { outcome: 'completed', answers: { budget: '500' } } }] },
      { content: 'Thank you, goodbye!' },
    );

    const placed = await client.post('/v1/calls', {
      to: NUMBERS.answer,
      task,
      questions: [{ key: 'budget', question: 'What is your budget?' }],
    });
    expect(placed.status, JSON.stringify(placed.body)).to.equal(201);
    const result = await finalResult(client, placed.body.id);

    expect(result).to.deep.include({ status: 'completed', outcome: 'completed' });
    expect(result.transcript.filter((line: any) => line.speaker === 'agent').map((line: any) => line.text)).to.deep.equal([
      'Hi Ann, this is Acme. What is your budget?',
      'Thank you, goodbye!',
    ]);
  });
});

if (redisUrl) {
  describe('SWITCHBOARD_MODEL_CONCURRENCY across two replicas sharing Redis', () => {
    let model: ScriptedModel;
    let apps: TestApp[];
    before(async () => {
      model = await startScriptedModel();
      const env = { REDIS_URL: redisUrl, SWITCHBOARD_MODEL_CONCURRENCY: '2', SWITCHBOARD_MODEL_WAIT_SEC: '60' };
      apps = [await startTestApp({ model, env }), await startTestApp({ model, env })];
    });
    after(async () => {
      for (const app of apps ?? []) await app.close();
      await model?.close();
    });
    beforeEach(() => model.reset());

    it('never lets the model see more than 2 calls at once, 6 turns on two replicas all answered', async () => {
      const concurrency = countingConcurrency(model, apps, 6);
      const companies = await Promise.all(apps.map((app) => app.company()));
      const turns = await Promise.all(
        [0, 1, 2, 3, 4, 5].map(async (i) => {
          const { client, agentId } = companies[i % 2]!;
          const id = await openConversation(client, agentId);
          return client.post(`/api/v1/conversations/${id}/messages`, { message: `turn ${i}` });
        }),
      );

      expect(turns.map((t) => t.status)).to.deep.equal([200, 200, 200, 200, 200, 200]);
      expect(model.requests).to.have.length(6);
      expect(concurrency.most()).to.equal(2);
      const waits = await Promise.all(apps.map((app) => metric(app, 'switchboard_model_slot_wait_seconds_count{result="acquired"}')));
      expect(waits[0]! + waits[1]!).to.equal(6);
    });
  });

  describe('Chat turns waiting for a model slot', () => {
    let model: ScriptedModel;
    let holder: TestApp;
    let waiter: TestApp;
    before(async () => {
      model = await startScriptedModel();
      const env = { REDIS_URL: redisUrl, SWITCHBOARD_MODEL_CONCURRENCY: '1' };
      holder = await startTestApp({ model, env });
      // Two lock connections, each waited for a second at most.
      waiter = await startTestApp({ model, env: { ...env, SWITCHBOARD_DB_POOL_MAX: '5', SWITCHBOARD_DB_ACQUIRE_TIMEOUT_MS: '1000' } });
    });
    after(async () => {
      await waiter?.close();
      await holder?.close();
      await model?.close();
    });

    it('hold no connection while they wait: more of them than lock connections are all answered', async () => {
      const held = heldReply({ content: 'first' });
      model.reply(held.reply);
      const owner = await holder.company();
      const first = owner.client.post(`/api/v1/conversations/${await openConversation(owner.client, owner.agentId)}/messages`, {
        message: 'first',
      });
      await eventually('the first turn to reach the model', () => model.requests.length === 1);

      const { client, agentId } = await waiter.company();
      const conversations = await Promise.all([0, 1, 2, 3].map(() => openConversation(client, agentId)));
      const asks = slotAsks([waiter]);
      const waiting = conversations.map((id, i) => client.post(`/api/v1/conversations/${id}/messages`, { message: `waiting ${i}` }));
      // All four at once: a turn holding a lock connection while it waits would keep the others from asking (they fail instead).
      await eventually('the four turns waiting for the model slot', () => asks() === 4);
      expect(model.requests).to.have.length(1);
      held.release();

      expect((await first).status).to.equal(200);
      expect((await Promise.all(waiting)).map((r) => r.status)).to.deep.equal([200, 200, 200, 200]);
      expect(model.requests).to.have.length(5);
    });
  });

  describe('A chat turn that waits for a model slot past SWITCHBOARD_MODEL_WAIT_SEC', () => {
    let app: TestApp;
    before(async () => {
      app = await startTestApp({ env: { REDIS_URL: redisUrl, SWITCHBOARD_MODEL_CONCURRENCY: '1', SWITCHBOARD_MODEL_WAIT_SEC: '1' } });
    });
    after(async () => app?.close());

    it('fails with the model error naming the cap, and the slot is given to the next turn once free', async () => {
      const { client, agentId } = await app.company();
      const held = heldReply({ content: 'slow answer' });
      app.model.reply(held.reply);
      const first = client.post(`/api/v1/conversations/${await openConversation(client, agentId)}/messages`, { message: 'first' });
      await eventually('the first turn to reach the model', () => app.model.requests.length === 1);

      const second = await client.post(`/api/v1/conversations/${await openConversation(client, agentId)}/messages`, { message: 'second' });
      held.release();

      expect(second.status).to.equal(500);
      expect(second.body.error).to.contain('no model slot came free within 1 s (SWITCHBOARD_MODEL_CONCURRENCY is 1)');
      expect(await metric(app, 'switchboard_model_slot_wait_seconds_count{result="timed_out"}')).to.equal(1);
      expect(app.model.requests).to.have.length(1);
      expect((await first).status).to.equal(200);
      const third = await client.post(`/api/v1/conversations/${await openConversation(client, agentId)}/messages`, { message: 'third' });
      expect(third.status).to.equal(200);
    });
  });
}

describe('SWITCHBOARD_MODEL_CONCURRENCY while Redis is unavailable', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp({ env: { REDIS_URL: await unreachableRedisUrl(), SWITCHBOARD_MODEL_CONCURRENCY: '1' } });
  });
  after(async () => app?.close());

  it('holds per replica, and says so in the fallback metric', async () => {
    const concurrency = countingConcurrency(app.model, [app], 3);
    const { client, agentId } = await app.company();
    const turns = await Promise.all(
      [0, 1, 2].map(async (i) =>
        client.post(`/api/v1/conversations/${await openConversation(client, agentId)}/messages`, { message: `turn ${i}` }),
      ),
    );

    expect(turns.map((t) => t.status)).to.deep.equal([200, 200, 200]);
    expect(concurrency.most()).to.equal(1);
    expect(await metric(app, 'switchboard_rate_limiter_fallback_total{scope="model_slots"}')).to.be.at.least(3);
  });
});
