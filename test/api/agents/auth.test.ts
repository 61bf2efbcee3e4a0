import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { request } from 'node:http';
import { startTestApp, type HttpResult, type TestApp } from '../../support/app.js';
import { createKey, revokeKey } from '../../../pkg/store/keys.js';
import { updateTenant } from '../../../pkg/tenants/settings.js';
import { reachableRedis } from '../../support/redis.js';
import { startJobsApp } from '../../support/triggers.js';

const redisUrl = await reachableRedis();
const redisEnv = (): Record<string, string> => (redisUrl ? { REDIS_URL: redisUrl } : {});

function expectErrorOnly(res: HttpResult, status: number): void {
  expect(res.status).to.equal(status);
  expect(res.body).to.have.all.keys('error');
  expect(res.body.error).to.be.a('string').and.not.equal('');
}

describe('Authentication', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp({ env: redisEnv() });
  });
  after(async () => app.close());

  const unknownConversation = () => `/api/v1/conversations/${randomUUID()}`;

  it('answers 401 {error} when the Authorization header is missing', async () => {
    expectErrorOnly(await app.client().get(unknownConversation()), 401);
    expectErrorOnly(await app.client().post('/api/v1/conversations', { agentId: randomUUID() }), 401);
  });

  it('answers 401 when the Authorization header is malformed', async () => {
    const { apiKey } = await app.company();
    for (const authorization of ['Basic x', 'Bearer', 'Bearer ', 'garbage', `Token ${apiKey}`, `Bearer ${apiKey} extra`]) {
      const res = await app.client().request('GET', unknownConversation(), undefined, { authorization });
      expect(res.status, authorization).to.equal(401);
      expect(res.body).to.have.all.keys('error');
    }
  });

  it('answers 401 for an unknown key', async () => {
    expectErrorOnly(await app.client(`sb_${randomUUID().replaceAll('-', '')}`).get(unknownConversation()), 401);
  });

  it('answers 401 for a revoked key from the very next request', async () => {
    const { client, agentId, keyId, tenantId } = await app.company();
    expect((await client.post('/api/v1/conversations', { agentId })).status).to.equal(201);
    await revokeKey(app.runtime.ctx, keyId, tenantId);
    expectErrorOnly(await client.post('/api/v1/conversations', { agentId }), 401);
    expectErrorOnly(await client.get(unknownConversation()), 401);
  });

  it('answers 401, not 400, to an unauthenticated request whose body is not JSON', async () => {
    expectErrorOnly(await app.client().post('/api/v1/conversations', '{"agentId": '), 401);
    expectErrorOnly(await app.client('sb_nosuchkeyatall').post('/api/v1/conversations', '{"agentId": '), 401);
  });

  it('refuses a turn at once to a key without the right to its conversation, even while a turn runs there', async () => {
    const owner = await app.company();
    const other = await app.company();
    const revoked = await createKey(app.runtime.ctx, owner.tenantId, 'soon revoked');
    await revokeKey(app.runtime.ctx, revoked.key.id, owner.tenantId);
    const { conversationId } = (await owner.client.post('/api/v1/conversations', { agentId: owner.agentId })).body;
    const path = `/api/v1/conversations/${conversationId}/messages`;
    let asked!: () => void;
    let finish!: () => void;
    const modelAsked = new Promise<void>((resolve) => (asked = resolve));
    const finished = new Promise<void>((resolve) => (finish = resolve));
    app.model.reply(async () => {
      asked();
      await finished;
      return { content: 'Done at last.' };
    });
    // The owner's turn holds the conversation's lock until the model answers.
    const running = owner.client.post(path, { message: 'Take your time.' });
    await modelAsked;

    // The key is checked before the turn, and the lock is taken only for a conversation of the key's
    // company: these are answered while the turn still runs.
    expectErrorOnly(await app.client(`sb_${randomUUID().replaceAll('-', '')}`).post(path, { message: 'Hi' }), 401);
    expectErrorOnly(await app.client(revoked.apiKey).post(path, { message: 'Hi' }), 401);
    expectErrorOnly(await app.client().post(path, '{"message": '), 401);
    expectErrorOnly(await other.client.post(path, { message: 'Hi' }), 403);
    expectErrorOnly(await other.client.post(`/api/v1/conversations/not-a-uuid/messages`, { message: 'Hi' }), 404);
    expectErrorOnly(await app.client('sb_nosuchkeyatall').post(`/api/v1/conversations/not-a-uuid/messages`, { message: 'Hi' }), 401);

    finish();
    const done = await running;
    expect(done.status).to.equal(200);
    expect(done.body.message.content).to.equal('Done at last.');
    const history = (await owner.client.get(`/api/v1/conversations/${conversationId}?include=all`)).body.messages;
    expect(history.map((m: { content: string }) => m.content)).to.deep.equal(['Take your time.', 'Done at last.']);
  });

  it('answers 401 to a turn whose body arrives after its key was refused, leaving no rejection unhandled', async () => {
    // An unhandled rejection ends a server process (Node's default), so none may be left behind.
    const unhandled: unknown[] = [];
    const note = (reason: unknown) => unhandled.push(reason);
    const { client, agentId } = await app.company();
    const { conversationId } = (await client.post('/api/v1/conversations', { agentId })).body;
    const body = JSON.stringify({ message: 'Hi' });
    const req = request(`${app.url}/api/v1/conversations/${conversationId}/messages`, {
      method: 'POST',
      headers: { authorization: 'Bearer sb_nosuchkeyatall', 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
    });
    process.on('unhandledRejection', note);
    const answered = new Promise<{ status: number; text: string }>((resolve, reject) => {
      req.on('response', (res) => {
        let text = '';
        res.on('data', (part: Buffer) => (text += part));
        res.on('end', () => resolve({ status: res.statusCode!, text }));
      });
      req.on('error', reject);
    });
    const refused = new Promise((resolve) => req.once('response', resolve));
    req.flushHeaders();
    // The key is refused before the body is read: the answer comes while the body is still on its way.
    await refused;
    req.end(body);
    const res = await answered.finally(() => process.off('unhandledRejection', note));
    expect(res.status).to.equal(401);
    expect(JSON.parse(res.text)).to.have.all.keys('error');
    expect(unhandled).to.deep.equal([]);
  });

  it('identifies the company by the key alone: another company sees 403 on a conversation it does not own', async () => {
    const owner = await app.company();
    const other = await app.company();
    const created = await owner.client.post('/api/v1/conversations', { agentId: owner.agentId });
    expectErrorOnly(await other.client.get(`/api/v1/conversations/${created.body.conversationId}`), 403);
  });
});

describe(`Request rate limit (${redisUrl ? 'Redis' : 'in-memory'})`, () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp({ env: redisEnv() });
  });
  after(async () => app.close());

  const conversationCount = async (tenantId: string) =>
    Number((await app.runtime.ctx.db('conversations').where({ tenant_id: tenantId }).count({ n: '*' }).first())!.n);

  it("answers 429 {error} with Retry-After once a key passes its company's requests_per_minute, and changes nothing", async () => {
    const { client, agentId, tenantId } = await app.company();
    await updateTenant(app.runtime.ctx, tenantId, { requestsPerMinute: 3 });
    const created = await client.post('/api/v1/conversations', { agentId });
    expect(created.status).to.equal(201);
    expect((await client.get(`/api/v1/conversations/${created.body.conversationId}`)).status).to.equal(200);
    expect((await client.get(`/api/v1/conversations/${created.body.conversationId}`)).status).to.equal(200);

    const refused = await client.post('/api/v1/conversations', { agentId });
    expectErrorOnly(refused, 429);
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).to.be.within(1, 60);
    expect(Number.isInteger(retryAfter)).to.equal(true);
    expect(await conversationCount(tenantId)).to.equal(1);
    expectErrorOnly(await client.get(`/api/v1/conversations/${created.body.conversationId}`), 429);
  });

  it('counts per key: another key of the same company and a key of another company are unaffected', async () => {
    const limited = await app.company();
    await updateTenant(app.runtime.ctx, limited.tenantId, { requestsPerMinute: 3 });
    for (let i = 0; i < 3; i++)
      expect((await limited.client.post('/api/v1/conversations', { agentId: limited.agentId })).status).to.equal(201);
    expect((await limited.client.post('/api/v1/conversations', { agentId: limited.agentId })).status).to.equal(429);

    const { apiKey } = await createKey(app.runtime.ctx, limited.tenantId, 'second');
    expect((await app.client(apiKey).post('/api/v1/conversations', { agentId: limited.agentId })).status).to.equal(201);
    const other = await app.company();
    expect((await other.client.post('/api/v1/conversations', { agentId: other.agentId })).status).to.equal(201);
  });

  it('does not count requests refused as unauthenticated against a key', async () => {
    const { client, agentId, tenantId, apiKey } = await app.company();
    await updateTenant(app.runtime.ctx, tenantId, { requestsPerMinute: 3 });
    for (let i = 0; i < 5; i++) expect((await app.client(`${apiKey}x`).post('/api/v1/conversations', { agentId })).status).to.equal(401);
    for (let i = 0; i < 3; i++) expect((await client.post('/api/v1/conversations', { agentId })).status).to.equal(201);
  });
});

// The API's rules for a job's creation by a key the server has already seen (and may remember).
describe('Creating a job with a key the server has already seen', () => {
  let app: TestApp;
  before(async () => {
    // A database of its own: the jobs it leaves queued never reach another file's controllers.
    app = await startJobsApp({ env: redisEnv() });
  });
  after(async () => app.close());

  const count = async (table: 'conversations' | 'triggers', tenantId: string) =>
    Number((await app.runtime.ctx.db(table).where({ tenant_id: tenantId }).count({ n: '*' }).first())!.n);
  const seen = async (company: Awaited<ReturnType<TestApp['company']>>) => {
    const first = await company.client.post('/api/v1/triggers', { agentId: company.agentId, task: 'First' });
    expect(first.status, JSON.stringify(first.body)).to.equal(202);
  };

  it('answers 202 with the job, and 401 creating nothing from the request after the key is revoked', async () => {
    const company = await app.company();
    await seen(company);
    const second = await company.client.post('/api/v1/triggers', { agentId: company.agentId, task: 'Second', delayMinutes: 5 });
    expect(second.status, JSON.stringify(second.body)).to.equal(202);
    expect(second.body).to.include({ status: 'waiting' });
    const job = (await company.client.get(`/api/v1/triggers/${second.body.triggerId}`)).body;
    expect(job).to.include({ task: 'Second', conversationId: second.body.conversationId, status: 'waiting' });

    await revokeKey(app.runtime.ctx, company.keyId, company.tenantId);
    expectErrorOnly(await company.client.post('/api/v1/triggers', { agentId: company.agentId, task: 'Third' }), 401);
    expect(await count('triggers', company.tenantId)).to.equal(2);
    expect(await count('conversations', company.tenantId)).to.equal(2);
  });

  it('answers 404 for an agent the company may not use, and creates nothing', async () => {
    const company = await app.company();
    const other = await app.company();
    await seen(company);
    expectErrorOnly(await company.client.post('/api/v1/triggers', { agentId: other.agentId, task: 'Not mine' }), 404);
    expect(await count('conversations', company.tenantId)).to.equal(1);
  });

  it('answers 429 creating nothing past the limit, and 401, not 429, once the key is revoked', async () => {
    const company = await app.company();
    await updateTenant(app.runtime.ctx, company.tenantId, { requestsPerMinute: 2 });
    await seen(company);
    expect((await company.client.post('/api/v1/triggers', { agentId: company.agentId, task: 'Second' })).status).to.equal(202);
    const refused = await company.client.post('/api/v1/triggers', { agentId: company.agentId, task: 'Third' });
    expectErrorOnly(refused, 429);
    expect(Number(refused.headers.get('retry-after'))).to.be.within(1, 60);
    expect(await count('triggers', company.tenantId)).to.equal(2);
    await revokeKey(app.runtime.ctx, company.keyId, company.tenantId);
    expectErrorOnly(await company.client.post('/api/v1/triggers', { agentId: company.agentId, task: 'Fourth' }), 401);
  });

  it("keeps to the company's limit as it is changed", async () => {
    const company = await app.company();
    await seen(company);
    await updateTenant(app.runtime.ctx, company.tenantId, { requestsPerMinute: 3 });
    // The limit is read with the key on every request: the new one holds from the next request on.
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++)
      statuses.push((await company.client.post('/api/v1/triggers', { agentId: company.agentId, task: `Job ${i}` })).status);
    expect(statuses).to.deep.equal([202, 202, 202, 429, 429]);
  });

  it('tells what is wrong with the body only to a live key: 400 to it, 401 once revoked', async () => {
    const company = await app.company();
    await seen(company);
    expect((await company.client.post('/api/v1/triggers', '{"agentId": ')).status).to.equal(400);
    const invalid = await company.client.post('/api/v1/triggers', { agentId: company.agentId });
    expect(invalid.status).to.equal(400);
    expect(JSON.stringify(invalid.body)).to.contain('task');
    await revokeKey(app.runtime.ctx, company.keyId, company.tenantId);
    expectErrorOnly(await company.client.post('/api/v1/triggers', '{"agentId": '), 401);
    expectErrorOnly(await company.client.post('/api/v1/triggers', { agentId: company.agentId }), 401);
  });

  it('makes any other job as before: an idempotent replay and a job on an existing conversation', async () => {
    const company = await app.company();
    await seen(company);
    const body = { agentId: company.agentId, task: 'Once', idempotencyKey: 'only-once' };
    const created = await company.client.post('/api/v1/triggers', body);
    expect(created.status).to.equal(202);
    const replay = await company.client.post('/api/v1/triggers', body);
    expect(replay.status).to.equal(200);
    expect(replay.body).to.include({ triggerId: created.body.triggerId, idempotent: true });
    const onIt = await company.client.post('/api/v1/triggers', { conversationId: created.body.conversationId, task: 'Again' });
    expect(onIt.status, JSON.stringify(onIt.body)).to.equal(202);
    expect(onIt.body.conversationId).to.equal(created.body.conversationId);
  });
});

describe('Request rate limit across instances', () => {
  it('counts a key separately in each instance when no Redis is configured', async () => {
    const a = await startTestApp();
    const b = await startTestApp();
    try {
      const { tenantId, agentId, apiKey } = await a.company();
      await updateTenant(a.runtime.ctx, tenantId, { requestsPerMinute: 2 });
      for (const app of [a, a, b, b]) expect((await app.client(apiKey).post('/api/v1/conversations', { agentId })).status).to.equal(201);
      for (const app of [a, b]) expect((await app.client(apiKey).post('/api/v1/conversations', { agentId })).status).to.equal(429);
    } finally {
      await a.close();
      await b.close();
    }
  });

  // CI always has a Redis (REDIS_URL or 127.0.0.1:6379); without one only the in-memory case runs.
  if (redisUrl) {
    it('shares one count per key between instances on the same Redis', async () => {
      const a = await startTestApp({ env: { REDIS_URL: redisUrl } });
      const b = await startTestApp({ env: { REDIS_URL: redisUrl } });
      try {
        const { tenantId, agentId, apiKey } = await a.company();
        await updateTenant(a.runtime.ctx, tenantId, { requestsPerMinute: 3 });
        for (const app of [a, b, a]) expect((await app.client(apiKey).post('/api/v1/conversations', { agentId })).status).to.equal(201);
        const refused = await b.client(apiKey).post('/api/v1/conversations', { agentId });
        expectErrorOnly(refused, 429);
        expect(Number(refused.headers.get('retry-after'))).to.be.within(1, 60);
        expect((await a.client(apiKey).post('/api/v1/conversations', { agentId })).status).to.equal(429);
      } finally {
        await a.close();
        await b.close();
      }
    });
  }
});
