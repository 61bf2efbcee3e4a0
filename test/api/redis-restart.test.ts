import { expect } from 'chai';
import { openConversation, startTestApp, type Client, type TestApp } from '../support/app.js';
import { eventually } from '../support/eventually.js';
import { limitFallbacks, liveLeases, startPrivateRedis, type PrivateRedis } from '../support/private-servers.js';

describe('A server whose Redis goes down, comes back and is flushed', function () {
  // A Redis of its own, killed and started: the shared one stays up for the other tests.
  this.timeout(120_000);
  let redis: PrivateRedis;
  let app: TestApp;
  let client: Client;
  let agentId: string;
  before(async () => {
    redis = await startPrivateRedis();
    app = await startTestApp({ env: { REDIS_URL: redis.url, SWITCHBOARD_MODEL_CONCURRENCY: '1' } });
    ({ client, agentId } = await app.company());
  });
  after(async () => {
    await app?.close();
    await redis?.stop();
  });

  const turn = async () =>
    (await client.post(`/api/v1/conversations/${await openConversation(client, agentId)}/messages`, { message: 'Hi' })).status;
  const fallbacks = async () => Object.values(await limitFallbacks(app.metricsUrl)).reduce((n, c) => n + c, 0);

  it('answers every turn meanwhile, counts in memory while it is away, and in Redis again once back or flushed, leaving no slot held', async () => {
    expect(await turn()).to.equal(200);
    expect(Number(redis.cli('dbsize'))).to.be.greaterThan(0);
    expect(await fallbacks()).to.equal(0);

    await redis.stop();
    expect(await turn()).to.equal(200);
    const away = await fallbacks();
    expect(away).to.be.greaterThan(0);

    await redis.start();
    await eventually('the log line of Redis back', () => app.logs.some((l) => l.includes('redis is back')));
    expect(await turn()).to.equal(200);
    expect(await fallbacks()).to.equal(away);
    expect(Number(redis.cli('dbsize'))).to.be.greaterThan(0);

    redis.cli('flushall');
    expect(await turn()).to.equal(200);
    expect(await fallbacks()).to.equal(away);
    expect(Number(redis.cli('dbsize'))).to.be.greaterThan(0);
    expect(liveLeases(redis, 'sb:model')).to.equal(0);
  });
});
