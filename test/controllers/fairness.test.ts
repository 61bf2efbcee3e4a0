import { expect } from 'chai';
import { startTestApp, type Client, type TestApp } from '../support/app.js';
import { createScratchDatabase, type ScratchDatabase } from '../support/database.js';
import { eventually } from '../support/eventually.js';
import { jobIn, startScriptedModel, type ScriptedModel } from '../support/model.js';
import { watchSent } from '../support/statements.js';
import { heldReply, startJobsApp, waitForStatus } from '../support/triggers.js';
import { updateTenant } from '../../pkg/tenants/settings.js';

/** `count` jobs of the company, created one after another over the Agent API; their ids in order. */
async function createJobs(client: Client, agentId: string, count: number, task: string): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const res = await client.post('/api/v1/triggers', { agentId, task: `${task} ${i}` });
    expect(res.status, JSON.stringify(res.body)).to.equal(202);
    ids.push(res.body.triggerId);
  }
  return ids;
}

/**
 * A model whose calls last until `open()` (then `msEach` more), counting the calls in flight per
 * company (the first word of the asking job's task) and the most seen at once.
 */
function slowModel(model: ScriptedModel, msEach: number) {
  const inFlight = new Map<string, number>();
  const most = new Map<string, number>();
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  model.setDefault(async (request) => {
    const company = jobIn(request)!.task!.split(' ')[0]!;
    inFlight.set(company, (inFlight.get(company) ?? 0) + 1);
    most.set(company, Math.max(most.get(company) ?? 0, inFlight.get(company)!));
    await opened;
    await new Promise((resolve) => setTimeout(resolve, msEach));
    inFlight.set(company, inFlight.get(company)! - 1);
    return { content: 'Done' };
  });
  return {
    inFlight: (company: string) => inFlight.get(company) ?? 0,
    most: (company: string) => most.get(company) ?? 0,
    open: () => open(),
  };
}

const allSucceeded = async (client: Client, ids: string[]) => {
  for (const id of ids) await waitForStatus(client, id, 'succeeded');
};

describe('The jobs claim between companies', () => {
  let app: TestApp;
  const first = heldReply({ content: 'First done' });
  before(async () => {
    // One job at a time: the order the claims take jobs in is the order they start in.
    app = await startJobsApp({ controllers: true, env: { SWITCHBOARD_CONTROLLER_CONCURRENCY: '1' } });
  });
  after(async () => {
    first.release();
    await app?.close();
  });

  it("starts another company's job next, not after the backlog one company queued before it", async () => {
    const a = await app.company({ name: 'Backlog Co' });
    const b = await app.company({ name: 'Single Co' });
    app.model.reply(first.reply);
    const [running] = await createJobs(a.client, a.agentId, 1, 'Backlog job');
    await waitForStatus(a.client, running!, 'running');
    const backlog = await createJobs(a.client, a.agentId, 8, 'Backlog job');
    const [single] = await createJobs(b.client, b.agentId, 1, 'Single job');

    first.release();
    await allSucceeded(a.client, [running!, ...backlog]);
    await waitForStatus(b.client, single!, 'succeeded');
    const started = app.model.requests.map((request) => jobIn(request)!.id);
    expect(started).to.have.members([running!, ...backlog, single!]);
    expect(started.indexOf(single!), 'place of the single job among the starts').to.equal(1);
    // The backlog keeps its own order.
    expect(started.filter((id) => id !== single)).to.deep.equal([running, ...backlog]);
  });
});

describe("A company's max_concurrent_jobs", () => {
  let app: TestApp;
  const held = heldReply({ content: 'First done' });
  before(async () => {
    // Eight places: room beyond the capped company's cap for the other's jobs.
    app = await startJobsApp({ controllers: true, env: { SWITCHBOARD_CONTROLLER_CONCURRENCY: '8' } });
  });
  after(async () => {
    held.release();
    await app?.close();
  });

  it("never runs more of the company's jobs at once, while another company's jobs run beside them", async () => {
    const capped = await app.company({ name: 'Capped Co' });
    const other = await app.company({ name: 'Other Co' });
    await updateTenant(app.runtime.ctx, capped.tenantId, { maxConcurrentJobs: 2 });
    const model = slowModel(app.model, 20);
    const cappedJobs = await createJobs(capped.client, capped.agentId, 5, 'Capped job');
    const otherJobs = await createJobs(other.client, other.agentId, 3, 'Other job');

    // Six of the eight places are free, yet only two of the capped company's jobs run.
    await eventually("the other company's jobs running", () => model.inFlight('Other') === 3, { everyMs: 100 });
    await eventually('two capped jobs running', () => model.inFlight('Capped') === 2, { everyMs: 100 });
    const statuses = await Promise.all(cappedJobs.map(async (id) => (await capped.client.get(`/api/v1/triggers/${id}`)).body.status));
    expect(statuses.filter((s) => s === 'queued')).to.have.length(3);

    model.open();
    await allSucceeded(capped.client, cappedJobs);
    await allSucceeded(other.client, otherJobs);
    expect(model.most('Capped')).to.equal(2);
    expect(model.most('Other')).to.equal(3);
  });

  it('holds across two controller replicas', async function () {
    this.timeout(120_000);
    const database: ScratchDatabase = await createScratchDatabase();
    const shared = await startScriptedModel();
    const model = slowModel(shared, 30);
    const env = { SWITCHBOARD_CONTROLLER_CONCURRENCY: '4' };
    const replicas = [
      await startTestApp({ databaseUrl: database.url, controllers: true, env, model: shared }),
      await startTestApp({ databaseUrl: database.url, controllers: true, env, model: shared }),
    ];
    try {
      const company = await replicas[0]!.company({ name: 'Replicated Co' });
      await updateTenant(replicas[0]!.runtime.ctx, company.tenantId, { maxConcurrentJobs: 3 });
      const ids = await createJobs(company.client, company.agentId, 12, 'Replicated job');
      // Each replica has four places free, and all twelve jobs are due.
      await eventually('three jobs running', () => model.inFlight('Replicated') >= 3, { everyMs: 100 });
      model.open();

      await allSucceeded(company.client, ids);
      expect(shared.requests).to.have.length(12);
      expect(model.most('Replicated')).to.equal(3);
    } finally {
      model.open();
      for (const replica of replicas) await replica.close();
      await shared.close();
      await database.drop();
    }
  });

  it("leaves the company's due jobs waiting for a running one to end without polling the database", async () => {
    const { client, agentId, tenantId } = await app.company({ name: 'Waiting Co' });
    await updateTenant(app.runtime.ctx, tenantId, { maxConcurrentJobs: 1 });
    app.model.reply(held.reply);
    const [first] = await createJobs(client, agentId, 1, 'First');
    await waitForStatus(client, first!, 'running');
    let looks = 0;
    // The claim is sent through the pipelined pool (pkg/store/triggers/claim.ts).
    const stop = watchSent(app.runtime.ctx.pipelined, (sql) => /skip locked/i.test(sql) && looks++);
    const [second] = await createJobs(client, agentId, 1, 'Second');
    await eventually('the loop to look for the announced job', () => looks > 0);
    const looked = looks;
    for (let i = 0; i < 20; i++) await client.get(`/api/v1/triggers/${second}`);
    stop();
    expect((await client.get(`/api/v1/triggers/${second}`)).body.status).to.equal('queued');
    // Maybe one more look for a late announcement; a busy loop makes dozens in twenty round trips.
    expect(looks - looked).to.be.below(3);

    held.release();
    await waitForStatus(client, second!, 'succeeded');
  });
});
