import { expect } from 'chai';
import type { Client } from '../support/app.js';
import { NUMBERS } from '../support/calls.js';
import { campaignOn, pumpUntil, runOnce, startCampaignsApp, type CampaignsApp, type CustomerSystem } from '../support/campaigns.js';
import { CLUSTER_START_MS } from '../support/kube/cluster.js';
import { condition, eventsOf, mirrorEnv, objectNow, run, table, type Row } from '../support/kube/mirror.js';
import { controllerNamespace, type ControllerNamespace } from '../support/kube/namespace.js';

// Tuesday 10 June 2025, 15:00 UTC: 11:00 in New York, inside the default calling hours.
const START = new Date('2025-06-10T15:00:00Z');
/** DECISIONS.md: the run id lowercased (with `-` for `_`, which names may not hold). */
const nameOf = (runId: string) => runId.toLowerCase().replace('_', '-');
const COLUMNS = ['NAME', 'CAMPAIGN', 'STATUS', 'TOTAL', 'DONE', 'NO ANSWER', 'SKIPPED', 'AGE'];

describe('CampaignRun objects: kubectl get campaignruns follows runs started over the Voice API', function () {
  this.timeout(90_000);
  let ns: ControllerNamespace;
  let app: CampaignsApp;
  let client: Client;
  let system: CustomerSystem;
  before(async function () {
    this.timeout(CLUSTER_START_MS);
    ns = await controllerNamespace();
    app = await startCampaignsApp({ controllers: true, manualClock: true, startAt: START, env: mirrorEnv(ns) });
    ({ client, system } = await app.campaignCompany());
  });
  after(() => app?.close());

  /** The run's row in `kubectl get campaignruns`, once `accept` holds for it (the clock moving on meanwhile). */
  const rowOf = (runId: string, accept: (row: Row) => boolean, extra: string[] = []) =>
    pumpUntil(app, `kubectl get campaignruns to show ${runId} as expected`, async () => {
      const row = table(await run(ns, ['get', 'campaignruns', ...extra])).rows.find((r) => r.NAME === nameOf(runId));
      return row && accept(row) ? row : undefined;
    });
  const objectOf = (runId: string, accept: (cr: any) => boolean) =>
    pumpUntil(app, `CampaignRun ${runId} to be mirrored as expected`, async () => {
      const cr = await objectNow(ns, 'campaignrun', nameOf(runId));
      return cr && accept(cr) ? cr : undefined;
    });
  const startRun = async (contacts: object[], campaignFields: Record<string, unknown> = {}) => {
    const campaign = await campaignOn(client, system, { timezone: 'America/New_York', ...campaignFields });
    system.lists.push({ status: 200, body: { contacts } });
    const created = await client.post(`/v1/campaigns/${campaign.id}/runs`, {});
    expect(created.status).to.equal(202);
    return { campaign, runId: created.body.id as string };
  };
  const onTheLine = (runId: string) =>
    pumpUntil(
      app,
      'a call of the run to be on the line',
      async () => {
        const calls = (await client.get('/v1/calls?limit=100')).body.data.filter((c: any) => c.campaign?.run_id === runId);
        return calls.some((c: any) => c.status === 'in-progress');
      },
      10,
    );

  it('shows a run by its id lowercased (run-…) with its campaign, status, total, done, no answer, skipped and age', async () => {
    const { campaign, runId } = await startRun(
      [
        { contact_id: 'ann', phone: NUMBERS.answer },
        { contact_id: 'nobody-home', phone: NUMBERS.noAnswer },
        { contact_id: 'bad-number', phone: 'not a phone' },
        { contact_id: 'talker', phone: NUMBERS.stays },
      ],
      { max_attempts: 1 },
    );
    const row = await rowOf(runId, (r) => r.DONE === '1' && r['NO ANSWER'] === '1');
    expect(row).to.include({ CAMPAIGN: campaign.id, STATUS: 'running', TOTAL: '4', DONE: '1', 'NO ANSWER': '1', SKIPPED: '1' });
    expect(row.AGE).to.match(/^\d+s$/);
    expect(table(await run(ns, ['get', 'campaignruns'])).header).to.deep.equal(COLUMNS);
    const wide = await rowOf(runId, () => true, ['-o', 'wide']);
    expect(wide).to.include({ PENDING: '1', UNFINISHED: '0' });

    const cr = await objectNow(ns, 'campaignrun', nameOf(runId));
    expect(cr.spec).to.deep.equal({ runId, tenantId: cr.metadata.labels['switchboard.dev/tenant'], campaignId: campaign.id, test: false });
    expect(cr.metadata.labels).to.include({ 'app.kubernetes.io/managed-by': 'switchboard', 'switchboard.dev/campaign': campaign.id });
    expect(cr.status.observedGeneration).to.equal(cr.metadata.generation);
    const statuses = Object.fromEntries(cr.status.conditions.map((c: any) => [c.type, c.status]));
    expect(statuses).to.deep.equal({ Running: 'True', Complete: 'False', Stopped: 'False', Failed: 'False' });
    await client.post(`/v1/campaign-runs/${runId}/stop`, {});
  });

  it('stops a run annotated switchboard.dev/stop=true as POST /v1/campaign-runs/{id}/stop does: the call on the line finishes, the rest are unfinished', async () => {
    const { runId } = await startRun(
      [
        { contact_id: 'on-the-line', phone: NUMBERS.stays },
        { contact_id: 'next', phone: '+12025550140' },
      ],
      { concurrency: 1 },
    );
    await onTheLine(runId);
    const running = await objectOf(runId, (cr) => cr.status?.phase === 'running');
    await run(ns, ['annotate', 'campaignrun', nameOf(runId), 'switchboard.dev/stop=true']);
    const stopped = await runOnce(app, client, runId, 'the run to be stopped', (r) => r.status === 'stopped');
    expect(stopped.contacts).to.deep.include({ total: 2, pending: 1, unfinished: 1 });
    const summary = await pumpUntil(app, 'the summary', async () => system.summaries.find((s) => s.run.id === runId), 5_000);
    expect(summary.contacts).to.deep.equal({ total: 2, done: 1, no_answer: 0, skipped: 0, unfinished: 1 });
    expect(system.results.filter((r) => r.run.id === runId).map((r) => r.contact_id)).to.deep.equal(['on-the-line']);

    // Mirrored once the run has ended (a status mirrored between the call's end and the summary has no endedAt yet).
    const cr = await objectOf(runId, (o) => o.status?.phase === 'stopped' && o.status.endedAt !== undefined);
    expect(condition(cr, 'Stopped')).to.include({ status: 'True', reason: 'Stopped' });
    expect(condition(cr, 'Running').status).to.equal('False');
    expect(condition(cr, 'Failed').lastTransitionTime).to.equal(condition(running, 'Failed').lastTransitionTime);
    expect(cr.status).to.include({ total: 2, done: 1, unfinished: 1, pending: 0 });
    expect(cr.status.endedAt).to.equal((await client.get(`/v1/campaign-runs/${runId}`)).body.ended_at);
  });

  it('shows a failed run with its error and a Warning Event, and refuses the stop annotation with a StopRefused condition', async () => {
    const campaign = await campaignOn(client, system, { timezone: 'America/New_York' });
    system.lists.push({ status: 500, body: { error: 'down' } });
    const runId = (await client.post(`/v1/campaigns/${campaign.id}/runs`, {})).body.id as string;
    const failed = await runOnce(app, client, runId, 'the run to fail', (r) => r.status === 'failed');
    const row = await rowOf(runId, (r) => r.STATUS === 'failed', ['-o', 'wide']);
    expect(row).to.include({ TOTAL: '0', ERROR: failed.error });
    const name = nameOf(runId);
    const failedEvent = await pumpUntil(app, 'a Failed Event', async () => (await eventsOf(ns, name)).find((e) => e.reason === 'Failed'));
    expect(failedEvent).to.include({ type: 'Warning', message: failed.error });
    expect(failedEvent.involvedObject).to.include({ kind: 'CampaignRun', name });

    await run(ns, ['annotate', 'campaignrun', name, 'switchboard.dev/stop=true']);
    const cr = await objectOf(runId, (o) => condition(o, 'StopRefused')?.status === 'True');
    expect(condition(cr, 'StopRefused')).to.include({ reason: 'RunEnded', message: `Campaign run ${runId} has ended` });
    expect(cr.status.phase).to.equal('failed');
    expect((await eventsOf(ns, name)).filter((e) => e.reason === 'StopRefused').map((e) => e.type)).to.deep.equal(['Warning']);
    expect((await client.get(`/v1/campaign-runs/${runId}`)).body.status).to.equal('failed');
  });
});
