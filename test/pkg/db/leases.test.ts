import { expect } from 'chai';
import { CHANNELS } from '../../../pkg/db/notify.js';
import { releaseLeases, renewLeases } from '../../../pkg/db/leases.js';
import { TRIGGER_LEASES } from '../../../pkg/store/triggers/heartbeat.js';
import { eventually } from '../../support/eventually.js';
import { jobsAppBesideAnother } from '../../support/triggers.js';

// The lease module through the jobs table, whose rows are held while running: a heartbeat and a
// release touch only the rows the owner holds, however the ids they are given were gathered.
describe('Leases on a table', () => {
  const beside = jobsAppBesideAnother();

  /** Three jobs: running leased to `mine`, running leased to `theirs`, and queued with `mine` left as owner. */
  async function leasedJobs(): Promise<{ ids: string[]; past: Date }> {
    const { client, agentId } = await beside.app().company();
    const ids: string[] = [];
    for (const task of ['Mine', 'Theirs', 'Not running'])
      ids.push((await client.post('/api/v1/triggers', { agentId, task })).body.triggerId);
    const past = new Date(Date.now() - 1_000);
    await beside.other().query(
      `update triggers set status = case when id = $2 then 'queued' else 'running' end,
         lease_owner = case when id = $3 then 'theirs' else 'mine' end, lease_until = $4, due_at = $4
       where id = any($1)`,
      [ids, ids[2], ids[1], past],
    );
    return { ids, past };
  }

  type Lease = { lease_owner: string | null; lease_until: Date; due_at: Date };
  /** Each job's lease columns, by id. */
  const leases = async (ids: string[]): Promise<Map<string, Lease>> =>
    new Map(
      (await beside.other().query('select id, lease_owner, lease_until, due_at from triggers where id = any($1)', [ids])).rows.map((r) => [
        r.id,
        r,
      ]),
    );

  it('renews only the rows the owner holds, each due when its new lease runs out', async () => {
    const { ids, past } = await leasedJobs();
    const renewed = await renewLeases(beside.app().runtime.ctx, TRIGGER_LEASES, ids, 'mine', 60_000);
    expect(renewed.map((r) => r.id)).to.deep.equal([ids[0]]);
    const after = await leases(ids);
    expect(after.get(ids[0]!)!.lease_until.getTime()).to.be.greaterThan(past.getTime() + 60_000);
    expect(after.get(ids[0]!)!.due_at).to.deep.equal(after.get(ids[0]!)!.lease_until);
    for (const id of ids.slice(1)) expect([after.get(id)!.lease_until, after.get(id)!.due_at]).to.deep.equal([past, past]);
  });

  it("releases only the owner's held rows: owner cleared, due at once, and announced", async () => {
    const { ids, past } = await leasedJobs();
    const announced: string[] = [];
    const other = beside.other();
    const hear = (msg: { channel: string; payload?: string }) => {
      if (msg.channel === CHANNELS.triggers && msg.payload && ids.includes(msg.payload)) announced.push(msg.payload);
    };
    other.on('notification', hear);
    await other.query(`listen ${CHANNELS.triggers}`);
    try {
      await releaseLeases(beside.app().runtime.ctx, TRIGGER_LEASES, ids, 'mine');
      // The release and its announcements are one statement: once one is heard, all are.
      await eventually('the release to be announced', async () => announced.length > 0);
      expect(announced).to.deep.equal([ids[0]]);
      const after = await leases(ids);
      expect(after.get(ids[0]!)!.lease_owner).to.equal(null);
      expect(after.get(ids[0]!)!.due_at).to.deep.equal(after.get(ids[0]!)!.lease_until);
      expect(after.get(ids[0]!)!.due_at.getTime()).to.be.greaterThan(past.getTime());
      expect([after.get(ids[1]!)!.lease_owner, after.get(ids[1]!)!.due_at]).to.deep.equal(['theirs', past]);
      expect([after.get(ids[2]!)!.lease_owner, after.get(ids[2]!)!.due_at]).to.deep.equal(['mine', past]);
    } finally {
      await other.query(`unlisten ${CHANNELS.triggers}`);
      other.off('notification', hear);
    }
  });
});
