import { expect } from 'chai';
import { existsSync } from 'node:fs';
import { startTestApp, type TestApp } from '../support/app.js';
import { createScratchDatabase, type ScratchDatabase } from '../support/database.js';
import { eventually } from '../support/eventually.js';
import { startScriptedModel, type ScriptedModel } from '../support/model.js';
import { startProcess, type SwitchboardProcess } from '../support/processes.js';
import { heldReply, waitForStatus } from '../support/triggers.js';

// Debian's libfaketime (test/support/setup.sh installs it): the replica's wall clock set 5 minutes ahead.
const FAKETIME = ['/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1', '/usr/lib/aarch64-linux-gnu/faketime/libfaketime.so.1'].find(
  existsSync,
);

// Replicas keep the database's time (pkg/db/clock.ts): one whose wall clock is 5 minutes ahead
// neither sees another's live lease as passed nor runs work early.
describe('A controller replica whose wall clock is 5 minutes ahead', function () {
  this.timeout(120_000);
  let database: ScratchDatabase;
  let model: ScriptedModel;
  let app: TestApp;
  let ahead: SwitchboardProcess | undefined;
  const held = heldReply({ content: 'Finished by its own replica' });
  before(async () => {
    if (!FAKETIME) throw new Error('libfaketime is missing: run test/support/setup.sh');
    database = await createScratchDatabase();
    model = await startScriptedModel();
    app = await startTestApp({ databaseUrl: database.url, model, controllers: true, env: { SWITCHBOARD_LEASE_SEC: '3' } });
  });
  after(async () => {
    held.release();
    await ahead?.kill();
    await app?.close();
    await model?.close();
    await database?.drop();
  });

  it("leaves another replica's running job alone, and starts a later job no earlier than due", async () => {
    const { client, agentId } = await app.company();
    model.setDefault(held.reply);
    const running = (await client.post('/api/v1/triggers', { agentId, task: 'Held at the model' })).body;
    await waitForStatus(client, running.triggerId, 'running');
    const inTwoMinutes = new Date(Date.now() + 120_000).toISOString();
    const later = (await client.post('/api/v1/triggers', { agentId, task: 'Due in two minutes', runAt: inTwoMinutes })).body;

    ahead = await startProcess(
      'controllers',
      { DATABASE_URL: database.url, OPENAI_BASE_URL: model.url, SWITCHBOARD_LEASE_SEC: '3', LD_PRELOAD: FAKETIME!, FAKETIME: '+5m' },
      'controllers started',
    );
    const skew = await ahead.waitForLog((line) => line.skewMs !== undefined);
    expect(skew.skewMs, 'the replica really is ahead').to.be.greaterThan(290_000);
    // Three of the running job's leases come and go meanwhile, each renewed by its replica in time.
    const heartbeats: unknown[] = [];
    const count = (q: { sql: string }) => q.sql.startsWith('update "triggers" set "lease_until"') && heartbeats.push(q);
    app.runtime.ctx.db.on('query', count);
    try {
      await eventually('ten heartbeats', () => heartbeats.length >= 10, { everyMs: 500, withinMs: 60_000 });
    } finally {
      app.runtime.ctx.db.off('query', count);
    }
    expect(ahead.running).to.equal(true);

    expect((await client.get(`/api/v1/triggers/${running.triggerId}`)).body.status).to.equal('running');
    expect((await client.get(`/api/v1/triggers/${later.triggerId}`)).body.status).to.equal('waiting');
    held.release();
    const done = await waitForStatus(client, running.triggerId, 'succeeded');
    expect(done.attemptCount).to.equal(1);
  });
});
