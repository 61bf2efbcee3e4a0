import { expect } from 'chai';
import { heartbeatTriggers } from '../../../pkg/store/triggers/heartbeat.js';
import { jobsAppBesideAnother } from '../../support/triggers.js';

// A heartbeat renews many leases in one statement: one row another transaction holds must not hold up the rest.
describe('A heartbeat meeting a row another transaction holds', () => {
  const beside = jobsAppBesideAnother();

  it("renews every other lease at once, and the held row's at the next beat", async () => {
    const [app, other] = [beside.app(), beside.other()];
    const { client, agentId } = await app.company();
    const ids: string[] = [];
    for (const task of ['Held', 'Free', 'Also free']) ids.push((await client.post('/api/v1/triggers', { agentId, task })).body.triggerId);
    const past = new Date(Date.now() - 1_000);
    await other.query(`update triggers set status = 'running', lease_owner = 'beater', lease_until = $2 where id = any($1)`, [ids, past]);
    const leases = async () =>
      (await other.query('select id, lease_until from triggers where id = any($1)', [ids])).rows.map((r): [string, boolean] => [
        r.id,
        r.lease_until > past,
      ]);
    await other.query('begin');
    try {
      await other.query('select 1 from triggers where id = $1 for update', [ids[0]]);
      await heartbeatTriggers(app.runtime.ctx, ids, 'beater', 60_000);
    } finally {
      await other.query('commit');
    }
    expect(new Map(await leases())).to.deep.equal(
      new Map([
        [ids[0], false],
        [ids[1], true],
        [ids[2], true],
      ]),
    );
    await heartbeatTriggers(app.runtime.ctx, ids, 'beater', 60_000);
    expect(new Map(await leases())).to.deep.equal(new Map(ids.map((id) => [id, true])));
  });
});
