import { expect } from 'chai';
import type { TestApp } from '../support/app.js';
import { eventually } from '../support/eventually.js';
import { heldReply, startJobsApp } from '../support/triggers.js';

const JOBS = 1000;
const COMPANIES = 4;

// One controller replica with the default settings: jobs waiting on their model hold no
// connection and no scarce place, so a thousand run at once, their leases kept and given up in one statement each.
describe('A thousand jobs in flight on one replica', function () {
  this.timeout(300_000);
  let app: TestApp;
  const held = heldReply({ content: 'Done' });
  before(async () => {
    // A short lease, so heartbeats come every second, and a short grace period; nothing else is set.
    app = await startJobsApp({ controllers: true, env: { SWITCHBOARD_LEASE_SEC: '3', SWITCHBOARD_SHUTDOWN_GRACE_SEC: '1' } });
  });
  after(async () => {
    held.release();
    await app?.close();
  });

  /** JOBS jobs created over the API, all at the (held) model. */
  async function jobsAtTheModel(): Promise<void> {
    const asked = app.model.requests.length;
    // Several companies: each key may make 300 requests a minute.
    const companies = await Promise.all(Array.from({ length: COMPANIES }, () => app.company()));
    for (const { client, agentId } of companies) {
      for (let wave = 0; wave < JOBS / COMPANIES; wave += 50) {
        const created = await Promise.all(
          Array.from({ length: 50 }, (_, i) => client.post('/api/v1/triggers', { agentId, task: `Job ${wave + i}` })),
        );
        expect(created.map((r) => r.status).filter((s) => s !== 202)).to.deep.equal([]);
      }
    }
    await eventually('every job at the model', () => app.model.requests.length === asked + JOBS, { everyMs: 500, withinMs: 120_000 });
  }

  it('runs them all at once and renews all their leases in one statement per heartbeat', async () => {
    app.model.setDefault(held.reply);
    await jobsAtTheModel();

    const db = app.runtime.ctx.db;
    const heartbeats: number[] = [];
    const count = (q: { sql: string; bindings: unknown[] }) => {
      if (q.sql.startsWith('update "triggers" set "lease_until"')) heartbeats.push((q.bindings.find(Array.isArray) as unknown[]).length);
    };
    db.on('query', count);
    const since = new Date();
    try {
      await eventually('two heartbeats', () => heartbeats.length >= 2, { everyMs: 200 });
    } finally {
      db.off('query', count);
    }
    expect(heartbeats.slice(0, 2), 'runs renewed by each heartbeat statement').to.deep.equal([JOBS, JOBS]);
    const renewed = await db('triggers').where({ status: 'running' }).andWhere('lease_until', '>', since).count({ n: '*' }).first();
    expect(Number(renewed!.n)).to.equal(JOBS);

    held.release();
    await eventually(
      'every job succeeded',
      async () => {
        const done = await db('triggers').where({ status: 'succeeded' }).count({ n: '*' }).first();
        return Number(done!.n) === JOBS;
      },
      { everyMs: 500, withinMs: 120_000 },
    );
  });

  it('gives up the leases of all still running when the grace period ends, in one statement', async () => {
    const stuck = heldReply({ content: 'Too late' });
    app.model.setDefault(stuck.reply);
    try {
      await jobsAtTheModel();
      const db = app.runtime.ctx.db;
      const releases: number[] = [];
      const count = (q: { sql: string; bindings: unknown[] }) => {
        if (q.sql.startsWith('update "triggers" set "lease_owner" = $1')) releases.push(q.bindings.length);
      };
      db.on('query', count);
      try {
        // As on SIGTERM: stop claiming, wait out the grace period (1 s here), give up the rest.
        const released = await app.controllers!.stop();
        expect(released).to.have.length(JOBS);
      } finally {
        db.off('query', count);
      }
      expect(releases, 'release statements').to.have.length(1);
      const held = await db('triggers').where({ status: 'running' }).whereNotNull('lease_owner').count({ n: '*' }).first();
      expect(Number(held!.n), 'runs still leased').to.equal(0);
    } finally {
      stuck.release();
    }
  });
});
