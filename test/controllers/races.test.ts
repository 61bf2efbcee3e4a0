import { expect } from 'chai';
import { startTestApp, type Client, type HttpResult, type TestApp } from '../support/app.js';
import { createScratchDatabase, type ScratchDatabase } from '../support/database.js';
import { eventually } from '../support/eventually.js';
import { jobIn } from '../support/model.js';
import { watchSent } from '../support/statements.js';
import { heldReply, startJobsApp, waitForStatus } from '../support/triggers.js';
import { updateTenant } from '../../pkg/tenants/settings.js';

const count = (results: HttpResult[], status: number) => results.filter((r) => r.status === status).length;

/** `n` calls of `fn`, at most `width` at a time. */
async function inWaves<T>(n: number, width: number, fn: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  for (let start = 0; start < n; start += width) {
    out.push(...(await Promise.all(Array.from({ length: Math.min(width, n - start) }, (_, k) => fn(start + k)))));
  }
  return out;
}

describe('Concurrent job creation', () => {
  let app: TestApp;
  before(async () => {
    app = await startJobsApp();
  });
  after(async () => app?.close());

  it('creates exactly one job and one conversation from 200 concurrent POST /api/v1/triggers with one idempotencyKey', async () => {
    const { client, agentId, tenantId } = await app.company();
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        client.post('/api/v1/triggers', { agentId, task: `Attempt ${i}`, idempotencyKey: 'nightly-sync' }),
      ),
    );

    expect(count(results, 202), JSON.stringify(results.find((r) => r.status >= 300)?.body)).to.equal(1);
    expect(count(results, 200)).to.equal(199);
    const created = results.find((r) => r.status === 202)!.body;
    for (const replay of results.filter((r) => r.status === 200)) {
      expect(replay.body).to.include({ triggerId: created.triggerId, conversationId: created.conversationId, idempotent: true });
    }
    const db = app.runtime.ctx.db;
    const rows = (table: string) =>
      db(table)
        .where({ tenant_id: tenantId })
        .count({ n: '*' })
        .first()
        .then((r) => Number(r!.n));
    expect(await rows('conversations')).to.equal(1);
    expect(await rows('triggers')).to.equal(1);
  });

  it('accepts exactly maxPendingAgentJobs of 50 concurrent POST /api/v1/conversations/:id/triggers and answers 409 to the rest', async () => {
    const { client, agentId } = await app.company();
    const { conversationId } = (await client.post('/api/v1/conversations', { agentId })).body;
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) => client.post(`/api/v1/conversations/${conversationId}/triggers`, { task: `Follow up ${i}` })),
    );

    expect(count(results, 202)).to.equal(3);
    expect(count(results, 409)).to.equal(47);
    const listed = await client.get(`/api/v1/conversations/${conversationId}/triggers`);
    expect(listed.body.total).to.equal(3);
    expect(listed.body.triggers.map((t: { status: string }) => t.status)).to.deep.equal(['queued', 'queued', 'queued']);
  });
});

describe('A job queued behind a running job on its conversation', () => {
  let app: TestApp;
  const held = heldReply({ content: 'First done' });
  before(async () => {
    // The clock stands still: only an announcement may make the loop look.
    app = await startJobsApp({ controllers: true, manualClock: true });
  });
  after(async () => {
    held.release();
    await app?.close();
  });

  it('waits for that job to end without polling the database, then runs', async () => {
    const { client, agentId } = await app.company();
    const { conversationId } = (await client.post('/api/v1/conversations', { agentId })).body;
    app.model.reply(held.reply);
    const first = await client.post(`/api/v1/conversations/${conversationId}/triggers`, { task: 'First' });
    await waitForStatus(client, first.body.triggerId, 'running');
    let looks = 0;
    // The claim is sent through the pipelined pool (pkg/store/triggers/claim.ts).
    const stop = watchSent(app.runtime.ctx.pipelined, (sql) => /skip locked/i.test(sql) && looks++);
    const second = await client.post(`/api/v1/conversations/${conversationId}/triggers`, { task: 'Second' });
    await eventually('the loop to look for the announced job', () => looks > 0);
    const looked = looks;
    for (let i = 0; i < 20; i++) await client.get(`/api/v1/triggers/${second.body.triggerId}`);
    stop();
    // Maybe one more look for a late announcement; a busy loop makes dozens in twenty round trips.
    expect(looks - looked).to.be.below(3);

    held.release();
    expect((await waitForStatus(client, second.body.triggerId, 'succeeded')).attemptCount).to.equal(1);
  });
});

describe('A job its predecessor claimed while a chat turn held its conversation', () => {
  let app: TestApp;
  const job = heldReply({ content: 'First done' });
  const chat = heldReply({ content: 'Chat answer' });
  before(async () => {
    app = await startJobsApp({ controllers: true, env: { SWITCHBOARD_CONTROLLER_CONCURRENCY: '1' } });
  });
  after(async () => {
    job.release();
    chat.release();
    await app?.close();
  });

  it('is running while it waits for the turn to end, then runs after it in the transcript', async () => {
    const { client, agentId } = await app.company();
    const { conversationId } = (await client.post('/api/v1/conversations', { agentId })).body;
    app.model.reply(job.reply, chat.reply, { content: 'Second done' });
    const first = (await client.post('/api/v1/triggers', { agentId, task: 'First' })).body;
    await waitForStatus(client, first.triggerId, 'running');
    // The replies go in the order the model is asked: the job's first, then the turn's.
    await eventually('the job asking the model', () => app.model.requests.length === 1);
    // The turn holds the conversation while its model call is held.
    const turn = client.post(`/api/v1/conversations/${conversationId}/messages`, { message: 'Hello' });
    await eventually('the turn asking the model', () => app.model.requests.length === 2);
    const second = (await client.post(`/api/v1/conversations/${conversationId}/triggers`, { task: 'Second' })).body;
    expect(second.status).to.equal('queued');

    // The only slot's run ends and the second job is claimed for it; its conversation is busy.
    job.release();
    await waitForStatus(client, first.triggerId, 'succeeded');
    await waitForStatus(client, second.triggerId, 'running');
    expect(app.model.requests).to.have.length(2);

    chat.release();
    expect((await turn).status).to.equal(200);
    expect((await waitForStatus(client, second.triggerId, 'succeeded')).resultSummary).to.equal('Second done');
    const { messages } = (await client.get(`/api/v1/conversations/${conversationId}?include=all`)).body;
    const contents = messages.map((m: { content: string }) => m.content);
    expect(contents.indexOf('Chat answer')).to.be.above(contents.indexOf('Hello'));
    expect(contents.findIndex((c: string) => c.startsWith(`AUTONOMOUS JOB ${second.triggerId}`))).to.be.above(
      contents.indexOf('Chat answer'),
    );
    expect(contents.at(-1)).to.equal('Second done');
  });
});

describe('Two controller replicas', () => {
  const CONVERSATIONS = 50;
  const JOBS = 500;
  let database: ScratchDatabase;
  let replicas: TestApp[] = [];
  /** Conversations whose job is inside a model call right now, and any seen twice at once. */
  const inCall = new Set<number>();
  const overlaps: string[] = [];
  let widest = 0;

  before(async () => {
    database = await createScratchDatabase();
    const env = { SWITCHBOARD_CONTROLLER_CONCURRENCY: '8' };
    replicas = [
      await startTestApp({ databaseUrl: database.url, controllers: true, env }),
      await startTestApp({ databaseUrl: database.url, controllers: true, env }),
    ];
    for (const replica of replicas) {
      replica.model.setDefault(async (request) => {
        const task = jobIn(request)?.task ?? '';
        const conversation = Number(/^Conversation (\d+)/.exec(task)?.[1]);
        if (inCall.has(conversation)) overlaps.push(task);
        inCall.add(conversation);
        widest = Math.max(widest, inCall.size);
        // Stay in the call across a turn of the event loop, so overlapping runs would meet here.
        await new Promise((resolve) => setTimeout(resolve, 1));
        inCall.delete(conversation);
        return { content: `Done: ${task}` };
      });
    }
  });
  after(async () => {
    for (const replica of replicas) await replica.close();
    await database?.drop();
  });

  it('runs each of 500 jobs on 50 conversations exactly once, never two at once on one conversation', async function () {
    this.timeout(120_000);
    const [api] = replicas as [TestApp, TestApp];
    const { client, agentId, tenantId } = await api.company();
    await updateTenant(api.runtime.ctx, tenantId, { maxPendingJobs: JOBS, requestsPerMinute: 100_000 });
    const conversations: string[] = await inWaves(
      CONVERSATIONS,
      25,
      async () => (await client.post('/api/v1/conversations', { agentId })).body.conversationId,
    );

    const created = await inWaves(JOBS, 50, (i) =>
      client.post(`/api/v1/conversations/${conversations[i % CONVERSATIONS]}/triggers`, {
        task: `Conversation ${i % CONVERSATIONS}, job ${i}`,
      }),
    );
    expect(created.map((r) => r.status)).to.deep.equal(Array(JOBS).fill(202));

    await eventually('every job asking the model', () => replicas.reduce((n, r) => n + r.model.requests.length, 0) >= JOBS, {
      withinMs: 60_000,
      everyMs: 50,
    });
    const jobs = await allSettled(client, conversations, JOBS);
    expect(jobs).to.have.length(JOBS);
    expect(jobs.filter((j) => j.status !== 'succeeded' || j.attemptCount !== 1)).to.deep.equal([]);
    const runs = new Map<string, number>();
    for (const request of replicas.flatMap((r) => r.model.requests)) {
      const id = jobIn(request)!.id;
      runs.set(id, (runs.get(id) ?? 0) + 1);
    }
    expect([...runs].filter(([, n]) => n !== 1)).to.deep.equal([]);
    expect(new Set(runs.keys())).to.deep.equal(new Set(created.map((r) => r.body.triggerId)));
    expect(overlaps).to.deep.equal([]);
    // Both replicas worked, side by side.
    expect(replicas.map((r) => r.model.requests.length).every((n) => n > 0)).to.equal(true);
    expect(widest).to.be.greaterThan(1);
  });
});

/** Every job of the conversations, once none is pending any more. */
function allSettled(
  client: Client,
  conversations: string[],
  total: number,
): Promise<{ triggerId: string; status: string; attemptCount: number }[]> {
  return eventually(
    'every job to settle',
    async () => {
      const lists = await Promise.all(conversations.map((id) => client.get(`/api/v1/conversations/${id}/triggers?limit=100`)));
      const jobs: { triggerId: string; status: string; attemptCount: number }[] = lists.flatMap((l) => l.body.triggers);
      return jobs.length === total && jobs.every((j) => ['succeeded', 'failed', 'expired', 'cancelled'].includes(j.status)) && jobs;
    },
    { everyMs: 250 },
  );
}
