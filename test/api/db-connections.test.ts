import { expect } from 'chai';
import { createServer } from 'node:net';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { startTestApp, type Client, type HttpResult, type TestApp } from '../support/app.js';
import { createDatabase } from '../drill/cluster.js';
import { startPrivatePostgres, type PrivatePostgres } from '../support/private-servers.js';
import { eventually } from '../support/eventually.js';
import { startSwitchboard, type RunningSwitchboard } from '../support/cli.js';
import { heldReply, startJobsApp } from '../support/triggers.js';

describe('Postgres connections of one process (SWITCHBOARD_DB_POOL_MAX)', () => {
  const BOUND = 5;
  const TURNS = 24;
  let app: TestApp;
  before(async () => {
    // A database of its own: every connection to it is this process's. A short acquire timeout on a
    // busy machine times out connects in progress, whose backends linger a moment past the bound.
    app = await startJobsApp({ env: { SWITCHBOARD_DB_POOL_MAX: String(BOUND), SWITCHBOARD_DB_ACQUIRE_TIMEOUT_MS: '5000' } });
  });
  after(async () => app?.close());

  const connectionsNow = async () =>
    Number((await app.runtime.ctx.db.raw('select count(*) as n from pg_stat_activity where datname = current_database()')).rows[0].n);

  it('carries more streamed turns at the model than it has connections, and never opens more than the bound', async () => {
    const { client, agentId } = await app.company();
    const conversations: string[] = [];
    for (let i = 0; i < TURNS; i++) conversations.push((await client.post('/api/v1/conversations', { agentId })).body.conversationId);
    const held = heldReply({ content: 'Done.' });
    app.model.setDefault(held.reply);

    const turns = conversations.map((id) => client.stream(`/api/v1/conversations/${id}/messages`, { message: 'Hi', stream: true }));
    // A turn at the model holds no connection, so all of them get there.
    let most = 0;
    try {
      await eventually('every turn at the model', async () => {
        most = Math.max(most, await connectionsNow());
        return app.model.requests.length === TURNS;
      });
      most = Math.max(most, await connectionsNow());
    } finally {
      held.release();
    }
    const answered = await Promise.all(turns);

    // One over has been seen on a loaded machine, a connection being replaced showing twice for a moment; unbounded it was 14.
    expect(most, 'connections of the process').to.be.at.most(BOUND + 1);
    expect(answered.map((r) => r.status)).to.deep.equal(conversations.map(() => 200));
    for (const ok of answered) expect(ok.events.at(-1).type).to.equal('done');
  });

  it('answers a turn 503 with Retry-After, never 500, when no connection comes free in time', async () => {
    const { client, agentId } = await app.company();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await client.post('/api/v1/conversations', { agentId })).body.conversationId);
    app.model.setDefault({ content: 'Done.' });
    // Another session holds the lock rows of two conversations uncommitted: each turn taking one
    // waits on it with a connection of the locks' pool (2 of the 5), until there are none left.
    const blocker = await app.runtime.ctx.db.transaction();
    try {
      await blocker('turn_locks').insert(ids.slice(0, 2).map((key) => ({ key, token: randomUUID(), holder_pid: 0 })));
      const blocked = ids.slice(0, 2).map((id) => client.post(`/api/v1/conversations/${id}/messages`, { message: 'Hi' }));
      await eventually(
        'both turns waiting on the rows',
        async () =>
          Number(
            (
              await app.runtime.ctx.db.raw(
                `select count(*) as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
              )
            ).rows[0].n,
          ) === 2,
      );
      const refused = await client.post(`/api/v1/conversations/${ids[2]}/messages`, { message: 'Hi' });
      expect(refused.status).to.equal(503);
      expect(Number(refused.headers.get('retry-after'))).to.be.greaterThan(0);
      expect(refused.body.error).to.be.a('string');
      await blocker.rollback();
      expect((await Promise.all(blocked)).map((r) => r.status)).to.deep.equal([200, 200]);
    } finally {
      if (!blocker.isCompleted()) await blocker.rollback();
    }
  });
});

describe('Many turns on one conversation (SWITCHBOARD_DB_POOL_MAX)', () => {
  let app: TestApp;
  before(async () => {
    // 5 in all: 2 for conversation locks.
    app = await startJobsApp({ env: { SWITCHBOARD_DB_POOL_MAX: '5', SWITCHBOARD_DB_ACQUIRE_TIMEOUT_MS: '5000' } });
  });
  after(async () => app?.close());

  it("queue without a connection, so another company's turn still takes its conversation's lock", async () => {
    const busy = await app.company();
    const other = await app.company();
    const busyConversation = (await busy.client.post('/api/v1/conversations', { agentId: busy.agentId })).body.conversationId;
    const otherConversation = (await other.client.post('/api/v1/conversations', { agentId: other.agentId })).body.conversationId;
    const held = heldReply({ content: 'Done.' });
    app.model.setDefault(held.reply);

    const queued = Array.from({ length: 4 }, () =>
      busy.client.post(`/api/v1/conversations/${busyConversation}/messages`, { message: 'Again' }),
    );
    const elsewhere = (async () => {
      await eventually('the first of them at the model', () => app.model.requests.length === 1);
      return other.client.post(`/api/v1/conversations/${otherConversation}/messages`, { message: 'Mine' });
    })();
    try {
      await eventually("the other company's turn at the model", () => app.model.requests.length === 2);
    } finally {
      held.release();
    }

    expect((await elsewhere).status).to.equal(200);
    expect((await Promise.all(queued)).map((r) => r.status)).to.deep.equal([200, 200, 200, 200]);
  });
});

describe('A server whose Postgres refuses connections', function () {
  // Spawns the CLI, a full node start.
  this.timeout(120_000);
  let api: RunningSwitchboard;
  before(async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as { port: number }).port;
    await new Promise((resolve) => closed.close(resolve));
    api = await startSwitchboard(['api'], { DATABASE_URL: `postgres://postgres:postgres@127.0.0.1:${port}/switchboard` });
  });
  after(async () => {
    api?.child.kill('SIGKILL');
    await api?.exited;
  });

  const request = (path: string, body?: unknown) =>
    fetch(`${api.url}${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: {
        authorization: 'Bearer sk_live_unknown',
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  it('is not ready', async () => {
    expect((await request('/readyz')).status).to.equal(503);
  });

  it('answers the Agent API 503 with Retry-After, a turn included', async () => {
    for (const res of [
      await request('/api/v1/conversations', { agentId: randomUUID() }),
      await request(`/api/v1/conversations/${randomUUID()}/messages`, { message: 'Hi', stream: true }),
    ]) {
      expect(res.status).to.equal(503);
      expect(Number(res.headers.get('retry-after'))).to.be.greaterThan(0);
      expect((await res.json()).error).to.be.a('string');
    }
  });

  it('answers the Voice API and MCP 503 unavailable with Retry-After', async () => {
    for (const res of [await request('/v1/calls'), await request('/mcp', { jsonrpc: '2.0', id: 1, method: 'tools/list' })]) {
      expect(res.status).to.equal(503);
      expect(Number(res.headers.get('retry-after'))).to.be.greaterThan(0);
      expect((await res.json()).error.code).to.equal('unavailable');
    }
  });
});

describe('A server whose Postgres restarts, and whose connections are cut', function () {
  // A Postgres of its own, stopped and started: the shared one stays up for the other tests.
  this.timeout(180_000);
  let server: PrivatePostgres;
  let app: TestApp;
  let client: Client;
  let agentId: string;
  before(async () => {
    server = await startPrivatePostgres();
    app = await startTestApp({ databaseUrl: await createDatabase(server.url, 'restarts') });
    ({ client, agentId } = await app.company());
  });
  after(async () => {
    await app?.close();
    server?.close();
  });

  const createJob = (idempotencyKey: string) => client.post('/api/v1/triggers', { agentId, task: 'Tally the orders', idempotencyKey });
  const rowsOfKey = async (key: string) =>
    Number((await app.runtime.ctx.db('triggers').where({ idempotency_key: key }).count({ n: '*' }))[0]!.n);

  it('answers 503 with Retry-After while Postgres is down, and once it is back takes the retried write once, with no restart', async () => {
    const before = await createJob('before-restart');
    expect(before.status).to.equal(202);

    server.stop('fast');
    const refused = [await createJob('during-restart'), await client.get(`/api/v1/triggers/${before.body.triggerId}`)];
    for (const res of refused) {
      expect(res.status).to.equal(503);
      expect(Number(res.headers.get('retry-after'))).to.be.greaterThan(0);
      expect(res.body.error).to.be.a('string');
    }
    expect((await fetch(`${app.url}/readyz`)).status).to.equal(503);
    server.start();

    const retried = await eventuallyAnswered(() => createJob('during-restart'));
    expect(retried.status).to.equal(202);
    const again = await createJob('during-restart');
    expect(again.body.triggerId).to.equal(retried.body.triggerId);
    expect(await rowsOfKey('during-restart')).to.equal(1);
    expect((await client.get(`/api/v1/triggers/${before.body.triggerId}`)).status).to.equal(200);
    expect((await fetch(`${app.url}/readyz`)).status).to.equal(200);
  });

  it('answers a request on a cut connection 503 with Retry-After or at once, never 500, and the next one on a new connection', async () => {
    const job = await createJob('before-cut');
    const admin = new pg.Client({ connectionString: server.url });
    await admin.connect();
    const cut = await admin.query(
      `select pg_terminate_backend(pid) from pg_stat_activity where datname = 'restarts' and pid <> pg_backend_pid()`,
    );
    await admin.end();
    expect(cut.rowCount).to.be.greaterThan(0);

    const first = await client.get(`/api/v1/triggers/${job.body.triggerId}`);
    if (first.status !== 200) {
      expect(first.status).to.equal(503);
      expect(Number(first.headers.get('retry-after'))).to.be.greaterThan(0);
    }
    expect((await eventuallyAnswered(() => client.get(`/api/v1/triggers/${job.body.triggerId}`))).status).to.equal(200);
    expect((await createJob('after-cut')).status).to.equal(202);
  });
});

/** The request repeated (as a client honouring Retry-After would, sooner) until it is not answered 503. */
async function eventuallyAnswered(request: () => Promise<HttpResult>): Promise<HttpResult> {
  let res: HttpResult | undefined;
  await eventually('an answer other than 503', async () => (res = await request()).status !== 503, { everyMs: 500 });
  return res!;
}
