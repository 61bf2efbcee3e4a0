import { expect } from 'chai';
import { startTestApp, type TestApp } from '../support/app.js';
import { createScratchDatabase, type ScratchDatabase } from '../support/database.js';
import { jobIn, startScriptedModel, type ScriptedModel } from '../support/model.js';
import { startProcess, type SwitchboardProcess } from '../support/processes.js';
import { waitForStatus } from '../support/triggers.js';

/** A model reply held until the test opens it; `arrived` resolves when the product asked for it. */
class Gate {
  private arrive!: () => void;
  open!: () => void;
  readonly arrival = new Promise<void>((resolve) => (this.arrive = resolve));
  readonly opened = new Promise<void>((resolve) => (this.open = resolve));

  async hold(): Promise<void> {
    this.arrive();
    await this.opened;
  }

  /** Until the model has received the request, at most `ms`. */
  arrived(ms = 20_000): Promise<void> {
    let timer: NodeJS.Timeout;
    const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('the model never received the job')), ms)));
    return Promise.race([this.arrival, late]).finally(() => clearTimeout(timer));
  }
}

/**
 * A database of its own, one model stand-in, the API server in this process and `switchboard
 * controllers` replicas as child processes. A job whose task names a gate waits in the model for it.
 */
function cluster() {
  const gates = new Map<string, Gate>();
  const processes: SwitchboardProcess[] = [];
  let database: ScratchDatabase | undefined;
  const c = {
    model: undefined as unknown as ScriptedModel,
    app: undefined as unknown as TestApp,
    gate(task: string): Gate {
      const gate = new Gate();
      gates.set(task, gate);
      return gate;
    },
    async controllers(env: Record<string, string> = {}): Promise<SwitchboardProcess> {
      const p = await startProcess(
        'controllers',
        { DATABASE_URL: database!.url, OPENAI_BASE_URL: c.model.url, SWITCHBOARD_LEASE_SEC: '2', ...env },
        'controllers started',
      );
      processes.push(p);
      return p;
    },
    /** The replica holding the job's lease. */
    async runnerOf(triggerId: string): Promise<SwitchboardProcess> {
      const { lease_owner: owner } = await c.app.runtime.ctx.db('triggers').where({ id: triggerId }).first('lease_owner');
      const pid = Number(String(owner).split(':').at(-2));
      const runner = processes.find((p) => p.pid === pid);
      if (!runner) throw new Error(`no replica of ours holds the lease (${owner})`);
      return runner;
    },
    /** Model requests that ran the job, first runs and follow-ups alike. */
    runsOf: (triggerId: string) => c.model.requests.filter((r) => jobIn(r)?.id === triggerId).length,
  };
  before(async () => {
    c.model = await startScriptedModel();
    c.model.setDefault(async (request) => {
      const task = jobIn(request)?.task ?? '';
      await gates.get(task)?.hold();
      return { content: `Done: ${task}` };
    });
    database = await createScratchDatabase();
    c.app = await startTestApp({ model: c.model, databaseUrl: database.url });
  });
  after(async () => {
    for (const p of processes) await p.kill();
    for (const gate of gates.values()) gate.open();
    await c.app?.close();
    await c.model?.close();
    await database?.drop();
  });
  return c;
}

describe('switchboard controllers: a replica killed mid-run', () => {
  const c = cluster();

  it('fails the job as interrupted, never runs it twice, and the other replica keeps serving', async () => {
    const [first, second] = await Promise.all([c.controllers(), c.controllers()]);
    const { client, agentId } = await c.app.company();
    const gate = c.gate('Reconcile the ledger');

    const created = await client.post('/api/v1/triggers', { agentId, task: 'Reconcile the ledger' });
    expect(created.status).to.equal(202);
    await gate.arrived();
    const runner = await c.runnerOf(created.body.triggerId);
    const survivor = runner === first ? second! : first!;
    await runner.kill();

    const job = await waitForStatus(client, created.body.triggerId, 'failed');
    expect(job.attemptCount).to.equal(1);
    expect(job.errorMessage).to.match(/interrupted/);
    expect(c.runsOf(created.body.triggerId)).to.equal(1);

    const next = await client.post('/api/v1/triggers', { agentId, task: 'Send the reminders' });
    expect((await waitForStatus(client, next.body.triggerId, 'succeeded')).resultSummary).to.equal('Done: Send the reminders');
    expect(survivor.running).to.equal(true);
    // The failed job stays failed after the survivor has swept and claimed again.
    expect((await client.get(`/api/v1/triggers/${created.body.triggerId}`)).body.status).to.equal('failed');
    expect(c.runsOf(created.body.triggerId)).to.equal(1);
  });
});

describe('switchboard controllers: SIGTERM', () => {
  const c = cluster();

  it('lets the running job finish, claims nothing new, and exits 0', async () => {
    const replica = await c.controllers();
    const { client, agentId } = await c.app.company();
    const gate = c.gate('Draft the report');
    const running = await client.post('/api/v1/triggers', { agentId, task: 'Draft the report' });
    await gate.arrived();

    replica.child.kill('SIGTERM');
    await replica.waitForLog('shutting down');
    const later = await client.post('/api/v1/triggers', { agentId, task: 'File the report' });
    expect(later.status).to.equal(202);
    gate.open();

    expect(await replica.waitForExit()).to.deep.equal({ code: 0, signal: null });
    expect(await waitForStatus(client, running.body.triggerId, 'succeeded')).to.include({
      attemptCount: 1,
      resultSummary: 'Done: Draft the report',
    });
    expect((await client.get(`/api/v1/triggers/${later.body.triggerId}`)).body).to.include({ status: 'queued', attemptCount: 0 });
    expect(c.runsOf(later.body.triggerId)).to.equal(0);

    const next = await c.controllers();
    expect((await waitForStatus(client, later.body.triggerId, 'succeeded')).attemptCount).to.equal(1);
    next.child.kill('SIGTERM');
    expect(await next.waitForExit()).to.deep.equal({ code: 0, signal: null });
  });

  it('exits after the grace period, and the unfinished job ends failed as interrupted without running again', async () => {
    const replica = await c.controllers({ SWITCHBOARD_SHUTDOWN_GRACE_SEC: '1' });
    const { client, agentId } = await c.app.company();
    const gate = c.gate('Migrate the archive');
    const created = await client.post('/api/v1/triggers', { agentId, task: 'Migrate the archive' });
    await gate.arrived();

    replica.child.kill('SIGTERM');
    expect(await replica.waitForExit()).to.deep.equal({ code: 0, signal: null });
    expect(replica.logs.map((l) => l.msg)).to.include('grace period over; releasing running work');
    expect((await client.get(`/api/v1/triggers/${created.body.triggerId}`)).body.status).to.equal('running');

    await c.controllers();
    const job = await waitForStatus(client, created.body.triggerId, 'failed');
    expect(job.attemptCount).to.equal(1);
    expect(job.errorMessage).to.match(/interrupted/);
    expect(c.runsOf(created.body.triggerId)).to.equal(1);
  });
});
