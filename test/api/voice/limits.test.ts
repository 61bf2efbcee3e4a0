import { expect } from 'chai';
import { startTestApp, type Client, type HttpResult, type TestApp } from '../../support/app.js';
import { reachableRedis, unreachableRedisUrl } from '../../support/redis.js';
import { updateTenant } from '../../../pkg/tenants/settings.js';

const redisUrl = await reachableRedis();

function expectRateLimited(res: HttpResult): void {
  expect(res.status, JSON.stringify(res.body)).to.equal(429);
  expect(res.body).to.deep.equal({ error: { code: 'rate_limited', message: res.body.error.message } });
  const retryAfter = Number(res.headers.get('retry-after'));
  expect(Number.isInteger(retryAfter)).to.equal(true);
  expect(retryAfter).to.be.within(1, 60);
}

/** A GET any key may make, with the connected app named (or not). */
const ask = (client: Client, tenantId: string, app?: string) =>
  client.request('GET', `/v1/tenants/${tenantId}/api-keys`, undefined, app === undefined ? {} : { 'Switchboard-App': app });

/** A new key of the account, made through the API with `client` (one request of that key). */
async function secondKey(client: Client, tenantId: string): Promise<string> {
  const made = await client.post(`/v1/tenants/${tenantId}/api-keys`, { name: 'second' });
  expect(made.status).to.equal(201);
  return made.body.key;
}

describe(`API request limits (${redisUrl ? 'Redis' : 'in-memory'})`, () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp({ env: redisUrl ? { REDIS_URL: redisUrl } : {} });
  });
  after(async () => app.close());

  it('allows 300 requests a minute per key by default, then answers 429 rate_limited with Retry-After', async () => {
    const { client, tenantId } = await app.company();
    // In waves, so a busy machine is not flooded with 300 sockets at once.
    for (let wave = 0; wave < 10; wave++) {
      const answers = await Promise.all(Array.from({ length: 30 }, () => ask(client, tenantId)));
      expect(answers.map((r) => r.status)).to.deep.equal(Array(30).fill(200));
    }
    expectRateLimited(await ask(client, tenantId));
    expectRateLimited(await client.post('/v1/calls', { to: '+12025550110' }));
  });

  it('counts per connected app (Switchboard-App) separately from per key, within the account', async () => {
    const company = await app.company();
    const other = app.client(await secondKey(company.client, company.tenantId));
    await updateTenant(app.runtime.ctx, company.tenantId, { requestsPerMinute: 3 });
    for (let i = 0; i < 3; i++) expect((await ask(company.client, company.tenantId, 'Dialer')).status).to.equal(200);

    // The app is over its limit from any key, the fresh one too.
    expectRateLimited(await ask(other, company.tenantId, 'Dialer'));
    // The first key is over its own limit whatever app it names, or none.
    expectRateLimited(await ask(company.client, company.tenantId));
    expectRateLimited(await ask(company.client, company.tenantId, 'Reports'));
    // The second key (one request counted) with another app still gets through.
    expect((await ask(other, company.tenantId, 'Reports')).status).to.equal(200);
    // Another account's app of the same name has its own count.
    const neighbour = await app.company();
    expect((await ask(neighbour.client, neighbour.tenantId, 'Dialer')).status).to.equal(200);
  });

  it('counts each refused request as a request over the limit in the usage report', async () => {
    const company = await app.company();
    const reader = app.client(await secondKey(company.client, company.tenantId));
    await updateTenant(app.runtime.ctx, company.tenantId, { requestsPerMinute: 3 });
    for (let i = 0; i < 3; i++) expect((await ask(company.client, company.tenantId, 'Dialer')).status).to.equal(200);
    expectRateLimited(await ask(company.client, company.tenantId, 'Dialer'));
    expectRateLimited(await ask(company.client, company.tenantId, 'Dialer'));

    const report = await reader.get('/v1/reports/api-usage?group_by=key,app');
    expect(report.status, JSON.stringify(report.body)).to.equal(200);
    expect(report.body.data).to.deep.equal([
      { key_id: company.keyId, app: null, requests: 1, requests_over_limit: 0, calls_placed: 0 },
      { key_id: company.keyId, app: 'Dialer', requests: 5, requests_over_limit: 2, calls_placed: 0 },
      { key_id: report.body.data[2].key_id, app: null, requests: 1, requests_over_limit: 0, calls_placed: 0 },
    ]);
    expect(report.body.data[2].key_id).not.to.equal(company.keyId);
  });
});

describe('API request limits across instances', () => {
  // CI always has a Redis (REDIS_URL or 127.0.0.1:6379); without one this part cannot run.
  if (redisUrl) {
    it('shares the per-key and per-app counts between two API servers on one Redis', async () => {
      const a = await startTestApp({ env: { REDIS_URL: redisUrl } });
      const b = await startTestApp({ env: { REDIS_URL: redisUrl } });
      try {
        const company = await a.company();
        await updateTenant(a.runtime.ctx, company.tenantId, { requestsPerMinute: 4 });
        const onA = a.client(company.apiKey);
        const onB = b.client(company.apiKey);
        for (const client of [onA, onB, onA, onB]) expect((await ask(client, company.tenantId)).status).to.equal(200);
        expectRateLimited(await ask(onA, company.tenantId));
        expectRateLimited(await ask(onB, company.tenantId));

        const made = await b.company();
        await updateTenant(b.runtime.ctx, made.tenantId, { requestsPerMinute: 2 });
        const second = await secondKey(b.client(made.apiKey), made.tenantId);
        expect((await ask(a.client(made.apiKey), made.tenantId, 'Dialer')).status).to.equal(200);
        expect((await ask(b.client(second), made.tenantId, 'Dialer')).status).to.equal(200);
        // Each key has made one request at this limit, the app two, one on each instance.
        expectRateLimited(await ask(a.client(second), made.tenantId, 'Dialer'));
        expect((await ask(a.client(second), made.tenantId)).status).to.equal(429);
      } finally {
        await a.close();
        await b.close();
      }
    });
  }

  it('falls back to per-replica in-memory limits while Redis is unreachable, says so in a metric and a log line, and fails no request', async () => {
    const app = await startTestApp({ env: { REDIS_URL: await unreachableRedisUrl() } });
    try {
      const { client, tenantId } = await app.company();
      await updateTenant(app.runtime.ctx, tenantId, { requestsPerMinute: 3 });
      for (let i = 0; i < 3; i++) expect((await ask(client, tenantId, 'Dialer')).status).to.equal(200);
      expectRateLimited(await ask(client, tenantId, 'Dialer'));

      const metrics = await (await fetch(`${app.metricsUrl}/metrics`)).text();
      // Four requests, each checked against the key's limit and the app's.
      expect(metrics).to.match(/^switchboard_rate_limiter_fallback_total\{scope="key"\} 4$/m);
      expect(metrics).to.match(/^switchboard_rate_limiter_fallback_total\{scope="app"\} 4$/m);
      const said = app.logs.filter((line) => line.includes('rate limits fall back to per-replica in-memory counting'));
      expect(said).to.have.length(1);
      expect(JSON.parse(said[0]!).level).to.equal(40);
    } finally {
      await app.close();
    }
  });
});
