import { expect } from 'chai';
import { callsReplicas, NUMBERS } from '../support/calls.js';
import { campaignOn, noonZone, startCampaignsApp, type CampaignsApp } from '../support/campaigns.js';
import { eventually } from '../support/eventually.js';

describe('switchboard controllers: a replica killed in the middle of a campaign run', function () {
  this.timeout(120_000);
  let app: CampaignsApp;
  const replicas = callsReplicas(() => app);
  before(async () => {
    // The API server in this process, the controllers as child processes on its database.
    app = await startCampaignsApp();
  });
  after(async () => {
    await replicas.killAll();
    await app?.close();
  });

  it('loses no person, dials nobody twice for one attempt, and sends each result once', async () => {
    const { client, system, tenantId } = await app.campaignCompany();
    // The people on the line share one number: above the default two calls a day to it.
    await app.runtime.ctx.db('tenants').where({ id: tenantId }).update({ max_calls_per_number_per_day: 50 });
    const zone = noonZone();
    const campaign = await campaignOn(client, system, { timezone: zone, concurrency: 3, max_attempts: 1 });
    const onTheLine = ['line-1', 'line-2', 'line-3'].map((id) => ({ contact_id: id, phone: NUMBERS.stays }));
    const waiting = ['later-1', 'later-2', 'later-3'].map((id, i) => ({ contact_id: id, phone: `+1202555015${i}` }));
    const contacts = [...onTheLine, ...waiting, { contact_id: 'bad', phone: 'not a phone' }];
    system.lists.push({ status: 200, body: { contacts } });

    const first = await replicas.start();
    const runId = (await client.post(`/v1/campaigns/${campaign.id}/runs`, {})).body.id as string;
    const callsOfRun = async (): Promise<any[]> =>
      (await client.get('/v1/calls?limit=100')).body.data.filter((c: any) => c.campaign?.run_id === runId);
    await eventually(
      'three calls of the run on the line',
      async () => (await callsOfRun()).filter((c) => c.status === 'in-progress').length === 3,
    );
    await first.kill();

    await replicas.start();
    const summary = await eventually('the summary', async () => system.summaries.find((s) => s.run.id === runId), { withinMs: 60_000 });
    const { total, done, no_answer: noAnswer, skipped } = summary.contacts;
    expect(total).to.equal(contacts.length);
    expect(done + noAnswer + skipped, 'everyone finished').to.equal(total);

    // Everyone has exactly one result, each delivered once under its one webhook-id.
    const results = system.resultRequests.filter((r) => JSON.parse(r.body).run?.id === runId && JSON.parse(r.body).contact_id);
    const byContact = new Map<string, string[]>();
    for (const r of results)
      byContact.set(JSON.parse(r.body).contact_id, [
        ...(byContact.get(JSON.parse(r.body).contact_id) ?? []),
        String(r.headers['webhook-id']),
      ]);
    expect([...byContact.keys()].sort()).to.deep.equal(contacts.map((c) => c.contact_id).sort());
    for (const [contactId, ids] of byContact) expect(ids, `deliveries of ${contactId}`).to.have.length(1);

    // One call per person and attempt: the three on the line when the replica died were not dialled again.
    const calls = await callsOfRun();
    const dialled = calls.map((c) => c.campaign.contact_id).sort();
    expect(dialled).to.deep.equal([...onTheLine, ...waiting].map((c) => c.contact_id).sort());
    const run = (await client.get(`/v1/campaign-runs/${runId}`)).body;
    expect(run).to.deep.include({ status: 'done' });
    expect(run.contacts).to.deep.include({ total: contacts.length, skipped: 1, pending: 0, unfinished: 0 });
  });

  it('fails a run whose list request was under way when its replica was killed, and never asks again', async () => {
    // Only the replica about to be killed is running.
    await replicas.killAll();
    const { client, system } = await app.campaignCompany();
    const campaign = await campaignOn(client, system, { timezone: noonZone() });
    system.lists.push('silent');
    const first = await replicas.start();
    const runId = (await client.post(`/v1/campaigns/${campaign.id}/runs`, {})).body.id as string;
    const listRequests = () => system.listRequests.filter((r) => JSON.parse(r.body).run.id === runId);
    await eventually('the list request', () => listRequests().length > 0);
    await first.kill();

    await replicas.start();
    const summary = await eventually('the summary', async () => system.summaries.find((s) => s.run.id === runId), { withinMs: 60_000 });
    expect(summary.run.status).to.equal('failed');
    expect(summary.run.error).to.match(/^interrupted/);
    expect(summary.contacts).to.deep.equal({ total: 0, done: 0, no_answer: 0, skipped: 0 });
    expect(listRequests()).to.have.length(1);
    expect((await client.get('/v1/calls?limit=100')).body.data.filter((c: any) => c.campaign?.run_id === runId)).to.deep.equal([]);
  });
});
