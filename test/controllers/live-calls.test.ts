import { expect } from 'chai';
import pg from 'pg';
import { CHANNELS } from '../../pkg/db/notify.js';
import { NUMBERS, startCallsApp, type CallsApp } from '../support/calls.js';
import { eventually } from '../support/eventually.js';
import { manualClock } from '../support/triggers.js';
import { sweepCallDeadlines } from '../../pkg/voice/sweep.js';

const LEASE_SEC = 3;
/** How far the clock moves between looks: well within a heartbeat (a third of a lease). */
const STEP_MS = 250;
const COMPANIES = 2;
/** Each account's per-minute placement limit. */
const CALLS_EACH = 30;

// Calls on the line outlive many leases: one replica renews all their leases in one statement per
// heartbeat, and none is lost for want of it.
describe('Live calls on one replica', function () {
  this.timeout(120_000);
  let app: CallsApp;
  before(async () => {
    app = await startCallsApp({
      controllers: true,
      manualClock: true,
      env: { SWITCHBOARD_LEASE_SEC: String(LEASE_SEC), SWITCHBOARD_SHUTDOWN_GRACE_SEC: '1' },
    });
  });
  after(async () => {
    await app?.close();
  });
  /** The calls `ids` are all on the line, the clock moved meanwhile for the callee to pick up. */
  const onTheLine = (ids: string[]) =>
    eventually(
      'every call on the line',
      async () => {
        app.advance(STEP_MS);
        return (
          Number((await app.runtime.ctx.db('calls').whereIn('id', ids).where({ status: 'in-progress' }).count({ n: '*' }).first())!.n) ===
          ids.length
        );
      },
      { everyMs: 200 },
    );

  it('keeps every call on the line across leases, renewing them all in one statement per heartbeat', async () => {
    const companies = await Promise.all(Array.from({ length: COMPANIES }, () => app.voiceCompany({ maxConcurrentCalls: CALLS_EACH })));
    const placed: { client: (typeof companies)[number]['client']; id: string }[] = [];
    for (const { client } of companies) {
      const calls = await Promise.all(
        Array.from({ length: CALLS_EACH }, (_, i) => client.post('/v1/calls', { to: NUMBERS.stays, task: `Stay on the line ${i}` })),
      );
      expect(calls.map((r) => r.status).filter((s) => s !== 201)).to.deep.equal([]);
      placed.push(...calls.map((r) => ({ client, id: r.body.id as string })));
    }
    const db = app.runtime.ctx.db;
    const live = async () => Number((await db('calls').where({ status: 'in-progress' }).count({ n: '*' }).first())!.n);
    await onTheLine(placed.map((p) => p.id));

    const heartbeats: number[] = [];
    let beating = false;
    const count = (q: { sql: string; bindings: unknown[] }) => {
      if (!q.sql.startsWith('update "calls" set "lease_until"')) return;
      beating = true;
      heartbeats.push((q.bindings.find(Array.isArray) as unknown[]).length);
    };
    const answered = (_rows: unknown, q: { sql: string }) => q.sql.startsWith('update "calls" set "lease_until"') && (beating = false);
    db.on('query', count).on('query-response', answered);
    const clock = manualClock(app);
    const since = clock.now();
    try {
      // Past two whole leases of the clock, moved only while no heartbeat is being written (a busy database is not a lost replica).
      await eventually('two and a half leases passed', () => {
        if (!beating) app.advance(STEP_MS);
        return clock.now().getTime() - since.getTime() >= 2.5 * LEASE_SEC * 1000;
      });
      await eventually('the last heartbeat written', () => !beating);
    } finally {
      db.off('query', count).off('query-response', answered);
    }
    // A call whose lease was not renewed is failed by the sweep now.
    await sweepCallDeadlines(app.runtime.ctx);
    expect(await live(), 'calls still on the line').to.equal(placed.length);
    expect(heartbeats.slice(0, 2), 'calls renewed by each heartbeat statement').to.deep.equal([placed.length, placed.length]);
    const renewed = await db('calls').where({ status: 'in-progress' }).andWhere('lease_until', '>', since).count({ n: '*' }).first();
    expect(Number(renewed!.n)).to.equal(placed.length);

    for (const { client, id } of placed) {
      const hung = await client.post(`/v1/calls/${id}/hangup`);
      expect([hung.status, hung.body.status]).to.deep.equal([200, 'completed']);
    }
  });
  it('hands every call on the line back when it stops past its grace, each announced, in one statement', async () => {
    const { client } = await app.voiceCompany({ maxConcurrentCalls: CALLS_EACH });
    const calls = await Promise.all(
      Array.from({ length: 5 }, (_, i) => client.post('/v1/calls', { to: NUMBERS.stays, task: `Stay on ${i}` })),
    );
    const ids = calls.map((r) => r.body.id as string).sort();
    const db = app.runtime.ctx.db;
    await onTheLine(ids);
    const listener = new pg.Client({ connectionString: app.runtime.ctx.config.DATABASE_URL });
    await listener.connect();
    const announced: string[] = [];
    listener.on('notification', (n) => n.channel === CHANNELS.calls && ids.includes(n.payload!) && announced.push(n.payload!));
    await listener.query(`listen ${CHANNELS.calls}`);
    const releases: number[] = [];
    // The release's update (the runs' own hand-backs that follow announce nothing).
    const count = (q: { sql: string; bindings: unknown[] }) =>
      q.sql.startsWith('update "calls" set "lease_owner"') &&
      q.sql.includes('pg_notify') &&
      releases.push(q.bindings.filter((b) => ids.includes(b as string)).length);
    db.on('query', count);
    try {
      await app.controllers!.stop();
      await eventually('each release announced', () => announced.length >= ids.length);
    } finally {
      db.off('query', count);
      await listener.end();
    }
    expect(releases, 'calls released by each release statement').to.deep.equal([ids.length]);
    expect(announced.sort()).to.deep.equal(ids);
    const rows = await db('calls').whereIn('id', ids).select('lease_owner', 'due_at');
    expect(rows.map((r) => [r.lease_owner, r.due_at !== null])).to.deep.equal(ids.map(() => [null, true]));
  });
});
