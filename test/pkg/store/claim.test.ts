import { expect } from 'chai';
import pg from 'pg';
import { claimStatement } from '../../../pkg/store/triggers.js';
import type { TestApp } from '../../support/app.js';
import { startJobsApp } from '../../support/triggers.js';

describe('The jobs claim (switchboard_claim_triggers) losing a race to another replica', () => {
  let app: TestApp;
  const clients: pg.Client[] = [];
  before(async () => {
    app = await startJobsApp();
    for (let i = 0; i < 2; i++) {
      const client = new pg.Client({ connectionString: app.runtime.ctx.config.DATABASE_URL });
      await client.connect();
      clients.push(client);
    }
  });
  after(async () => {
    for (const client of clients) await client.end();
    await app?.close();
  });

  it('claims nothing instead of failing, so the round trip it shares goes on', async () => {
    const { client, agentId } = await app.company();
    const { conversationId } = (await client.post('/api/v1/conversations', { agentId })).body;
    const ids: string[] = [];
    for (const task of ['First', 'Second']) ids.push((await client.post(`/api/v1/conversations/${conversationId}/triggers`, { task })).body.triggerId);
    const [other, claimer] = clients as [pg.Client, pg.Client];
    // Another replica has claimed the first job and not yet committed: its row is locked (skipped)
    // and its running entry is not visible, so this claim takes the second and meets it in the index.
    await other.query('begin');
    await other.query(`update triggers set status = 'running' where id = $1`, [ids[0]]);
    const claim = claimer.query(`${claimStatement('replica-b', new Date(), 30_000, 5, true)}; select 'after' as went_on`);
    const pid = (claimer as unknown as { processID: number }).processID;
    for (let waiting = false; !waiting; ) {
      const { rows } = await app.runtime.ctx.db.raw('select wait_event_type from pg_stat_activity where pid = ?', [pid]);
      waiting = rows[0]?.wait_event_type === 'Lock';
    }
    await other.query('commit');
    const [claimed, after] = (await claim) as unknown as pg.QueryResult[];
    expect(claimed!.rows).to.have.length(1);
    expect(claimed!.rows[0].id).to.equal(null);
    expect(after!.rows[0].went_on).to.equal('after');
    const { rows } = await claimer.query('select id, status, lease_owner from triggers where id = any($1) order by seq', [ids]);
    expect(rows).to.deep.equal([
      { id: ids[0], status: 'running', lease_owner: null },
      { id: ids[1], status: 'queued', lease_owner: null },
    ]);
  });
});
