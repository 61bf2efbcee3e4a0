import { expect } from 'chai';
import type pg from 'pg';
import { claimDueTriggers } from '../../../pkg/triggers/claim.js';
import type { TestApp } from '../../support/app.js';
import { eventually } from '../../support/eventually.js';
import { jobsAppBesideAnother, startJobsApp } from '../../support/triggers.js';
import { updateTenant } from '../../../pkg/tenants/settings.js';
import { PipelinedPool } from '../../../pkg/db/pipeline.js';

/** Until the claim waits on a lock: the other replica's uncommitted claim in the index (the app runs nothing else). */
async function blockedOnTheOther(app: TestApp): Promise<void> {
  await eventually(
    "the claim to wait on the other replica's",
    async () =>
      (await app.runtime.ctx.db.raw(`select 1 from pg_stat_activity where wait_event_type = 'Lock' and datname = current_database()`)).rows
        .length > 0,
    { everyMs: 5 },
  );
}

describe('The jobs claim losing a race to another replica', () => {
  const beside = jobsAppBesideAnother();
  let app: TestApp;
  let other: pg.Client;
  before(() => {
    [app, other] = [beside.app(), beside.other()];
  });
  /** The first job is the other replica's claim; the second is still queued, this claim's lease on nothing. */
  const expectOnlyTheOthersClaim = async (ids: string[]) => {
    const { rows } = await other.query('select id, status, lease_owner from triggers where id = any($1) order by seq', [ids]);
    expect(rows).to.deep.equal([
      { id: ids[0], status: 'running', lease_owner: null },
      { id: ids[1], status: 'queued', lease_owner: null },
    ]);
  };

  it('claims nothing instead of failing, so the controller looks again', async () => {
    const { client, agentId } = await app.company();
    const { conversationId } = (await client.post('/api/v1/conversations', { agentId })).body;
    const ids: string[] = [];
    for (const task of ['First', 'Second'])
      ids.push((await client.post(`/api/v1/conversations/${conversationId}/triggers`, { task })).body.triggerId);
    // Another replica has claimed the first job and not yet committed: its row is locked (skipped)
    // and its running entry is not visible, so this claim takes the second and meets it in the index.
    await other.query('begin');
    await other.query(`update triggers set status = 'running' where id = $1`, [ids[0]]);
    const claim = claimDueTriggers(app.runtime.ctx, 'replica-b', 30_000, 5);
    await blockedOnTheOther(app);
    await other.query('commit');
    expect((await claim).claimed).to.deep.equal([]);
    await expectOnlyTheOthersClaim(ids);
  });

  it("claims nothing when another replica took the company's last place under max_concurrent_jobs meanwhile", async () => {
    const { client, agentId, tenantId } = await app.company();
    await updateTenant(app.runtime.ctx, tenantId, { maxConcurrentJobs: 1 });
    const ids: string[] = [];
    for (const task of ['First', 'Second']) ids.push((await client.post('/api/v1/triggers', { agentId, task })).body.triggerId);
    // The other replica claims the first job into the company's only place, not yet committed:
    // this claim skips that row and takes the second into the same place, and meets it in the index.
    await other.query('begin');
    await other.query(`update triggers set status = 'running', tenant_slot = 1 where id = $1`, [ids[0]]);
    const claim = claimDueTriggers(app.runtime.ctx, 'replica-b', 30_000, 5);
    await blockedOnTheOther(app);
    await other.query('commit');
    expect((await claim).claimed).to.deep.equal([]);
    await expectOnlyTheOthersClaim(ids);
  });
});

describe('The jobs claim on one connection', () => {
  let app: TestApp;
  let pipelined: PipelinedPool;
  before(async () => {
    app = await startJobsApp();
    // One connection: the claims and the look at its prepared statements share it.
    pipelined = new PipelinedPool(app.runtime.ctx.config.DATABASE_URL!, 1, 10_000, app.runtime.ctx.log);
  });
  after(async () => {
    await pipelined?.close();
    await app?.close();
  });

  it('is planned once and then run from its generic plan, as is the look at when to claim again', async () => {
    const { client, agentId } = await app.company();
    for (let i = 0; i < 3; i++) await client.post('/api/v1/triggers', { agentId, task: `Job ${i}` });
    const ctx = { ...app.runtime.ctx, pipelined };
    // Postgres plans a prepared statement's first five runs for their values, then keeps to its
    // generic plan only if that plan is about as good: one that cannot use the indexes is replanned every time.
    for (let i = 0; i < 8; i++) await (await claimDueTriggers(ctx, 'replica-a', 30_000, 1)).nextDue();
    // Unnamed, so this look is not among the statements it lists.
    const { rows } = await pipelined.connected((client) =>
      client.query(
        `select generic_plans, custom_plans from pg_prepared_statements
         where statement like '%with recursive live%' or statement like '%full_accounts%' order by statement like '%full_accounts%'`,
      ),
    );
    expect(rows).to.deep.equal([
      { generic_plans: 3, custom_plans: 5 },
      { generic_plans: 3, custom_plans: 5 },
    ]);
  });
});
