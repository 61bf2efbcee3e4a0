import { setTimeout as sleep } from 'node:timers/promises';
import { expect } from 'chai';
import { NUMBERS, startCallsApp, type CallsApp } from '../support/calls.js';
import { eventually } from '../support/eventually.js';

const LEASE_SEC = 3;
const COMPANIES = 2;
/** Each account's per-minute placement limit. */
const CALLS_EACH = 30;

// Calls on the line outlive many leases: one replica renews all their leases in one statement per
// heartbeat, and none is lost for want of it.
describe('Live calls on one replica', function () {
  this.timeout(120_000);
  let app: CallsApp;
  before(async () => {
    app = await startCallsApp({ controllers: true, env: { SWITCHBOARD_LEASE_SEC: String(LEASE_SEC), SWITCHBOARD_SHUTDOWN_GRACE_SEC: '1' } });
  });
  after(async () => {
    await app?.close();
  });

  it('keeps every call on the line across leases, renewing them all in one statement per heartbeat', async () => {
    const companies = await Promise.all(Array.from({ length: COMPANIES }, () => app.voiceCompany({ maxConcurrentCalls: CALLS_EACH })));
    const placed: { client: (typeof companies)[number]['client']; id: string }[] = [];
    for (const { client } of companies) {
      const calls = await Promise.all(Array.from({ length: CALLS_EACH }, (_, i) => client.post('/v1/calls', { to: NUMBERS.stays, task: `Stay on the line ${i}` })));
      expect(calls.map((r) => r.status).filter((s) => s !== 201)).to.deep.equal([]);
      placed.push(...calls.map((r) => ({ client, id: r.body.id as string })));
    }
    const db = app.runtime.ctx.db;
    const live = async () => Number((await db('calls').where({ status: 'in-progress' }).count({ n: '*' }).first())!.n);
    await eventually('every call on the line', async () => (await live()) === placed.length, { everyMs: 200 });

    const heartbeats: number[] = [];
    const count = (q: { sql: string; bindings: unknown[] }) => {
      if (q.sql.startsWith('update "calls" set "lease_until"')) heartbeats.push((q.bindings.find(Array.isArray) as unknown[]).length);
    };
    db.on('query', count);
    const since = new Date();
    try {
      // Past two whole leases: a call whose lease was not renewed has been failed by then.
      await sleep(2.5 * LEASE_SEC * 1000);
    } finally {
      db.off('query', count);
    }
    expect(await live(), 'calls still on the line').to.equal(placed.length);
    expect(heartbeats.slice(0, 2), 'calls renewed by each heartbeat statement').to.deep.equal([placed.length, placed.length]);
    const renewed = await db('calls').where({ status: 'in-progress' }).andWhere('lease_until', '>', since).count({ n: '*' }).first();
    expect(Number(renewed!.n)).to.equal(placed.length);

    for (const { client, id } of placed) {
      const hung = await client.post(`/v1/calls/${id}/hangup`);
      expect([hung.status, hung.body.status]).to.deep.equal([200, 'completed']);
    }
  });
});
