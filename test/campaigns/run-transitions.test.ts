import { expect } from 'chai';
import { RUN_TRANSITIONS } from '../../pkg/campaigns/state.js';
import { NUMBERS } from '../support/calls.js';
import { campaignOn, campaignSuite, pumpUntil, runOnce, type ListAnswer } from '../support/campaigns.js';
import { itTestsEveryRow, type RowTest } from '../support/state-table.js';

// Tuesday 10 June 2025, 15:00 UTC: 11:00 in New York, inside the default calling hours.
const START = new Date('2025-06-10T15:00:00Z');
const HOUR = 3_600_000;

describe('Campaign run transitions: every row of the run state table, driven through the Voice API', function () {
  this.timeout(90_000);
  const suite = campaignSuite(START);

  const start = async (list: ListAnswer) => {
    const campaign = await campaignOn(suite.client, suite.system, { timezone: 'America/New_York' });
    suite.system.lists.push(list);
    const created = await suite.client.post(`/v1/campaigns/${campaign.id}/runs`, {});
    expect(created.status, JSON.stringify(created.body)).to.equal(202);
    return created.body;
  };
  const listRequestsOf = (campaignId: string) =>
    suite.system.listRequests.filter((r) => JSON.parse(r.body).campaign?.id === campaignId).length;
  const summaryOf = (runId: string, stepMs?: number) =>
    pumpUntil(suite.app, 'the summary', async () => suite.system.summaries.find((s) => s.run.id === runId), stepMs);
  const callsOf = async (runId: string): Promise<any[]> =>
    (await suite.client.get('/v1/calls?limit=100')).body.data.filter((c: any) => c.campaign?.run_id === runId);
  /** An ended run is not stopped again. */
  const stopRefused = async (runId: string) => {
    const res = await suite.client.post(`/v1/campaign-runs/${runId}/stop`, {});
    expect(res.status).to.equal(409);
    expect(res.body.error.code).to.equal('run_ended');
  };

  const rows: Record<string, RowTest> = {
    '(none):start': {
      title: 'Run now answers 202 with the run running, and the list is requested once',
      run: async () => {
        const run = await start({ status: 200, body: { contacts: [{ contact_id: 'x', phone: 'not a phone' }] } });
        expect(run).to.include({ status: 'running', ended_at: null, error: null });
        await summaryOf(run.id);
        expect(listRequestsOf(run.campaign_id)).to.equal(1);
      },
    },
    'running:list_failed': {
      title: 'a refused list fails the run with run.error, calls nobody, sends a summary with total 0, and is not requested again',
      run: async () => {
        const run = await start({ status: 503, body: { error: 'maintenance' } });
        const failed = await runOnce(suite.app, suite.client, run.id, 'the run to fail', (r) => r.status === 'failed');
        expect(failed.error).to.be.a('string').and.not.equal('');
        expect(failed.ended_at).to.be.a('string');
        const summary = await summaryOf(run.id);
        expect(summary.contacts.total).to.equal(0);
        suite.app.advance(HOUR);
        await runOnce(suite.app, suite.client, run.id, 'the run to stay failed', (r) => r.status === 'failed');
        expect(listRequestsOf(run.campaign_id)).to.equal(1);
        expect(await callsOf(run.id)).to.deep.equal([]);
        await stopRefused(run.id);
      },
    },
    'running:stop': {
      title: 'POST stop answers 200 with the run stopped: no new dials, the person not yet called is unfinished',
      run: async () => {
        const campaign = await campaignOn(suite.client, suite.system, { timezone: 'America/New_York', concurrency: 1 });
        suite.system.lists.push({
          status: 200,
          body: {
            contacts: [
              { contact_id: 'on-the-line', phone: NUMBERS.stays },
              { contact_id: 'next', phone: '+12025550141' },
            ],
          },
        });
        const run = (await suite.client.post(`/v1/campaigns/${campaign.id}/runs`, {})).body;
        await pumpUntil(
          suite.app,
          'the first call on the line',
          async () => (await callsOf(run.id)).some((c) => c.status === 'in-progress'),
          10,
        );
        const stopped = await suite.client.post(`/v1/campaign-runs/${run.id}/stop`, {});
        expect(stopped.status).to.equal(200);
        expect(stopped.body.status).to.equal('stopped');
        expect(stopped.body.contacts).to.deep.include({ unfinished: 1 });
        // The call on the line finishes (its callee answers a minute after each line); then the summary goes.
        await summaryOf(run.id, 5_000);
        expect((await callsOf(run.id)).map((c) => c.campaign.contact_id)).to.deep.equal(['on-the-line']);
        await stopRefused(run.id);
      },
    },
    'running:finished': {
      title: 'when everyone is finished and every result taken, the run is done and its summary sent',
      run: async () => {
        const run = await start({
          status: 200,
          body: {
            contacts: [
              { contact_id: 'ann', phone: NUMBERS.answer },
              { contact_id: 'bad', phone: 'not a phone' },
            ],
          },
        });
        const done = await runOnce(suite.app, suite.client, run.id, 'the run to be done', (r) => r.status === 'done');
        expect(done.contacts).to.deep.include({ total: 2, done: 1, skipped: 1, pending: 0 });
        expect(done.ended_at).to.be.a('string');
        const summary = await summaryOf(run.id);
        expect(summary.run.status).to.equal('done');
        await stopRefused(run.id);
      },
    },
  };

  itTestsEveryRow('RUN_TRANSITIONS', RUN_TRANSITIONS, rows);
});
