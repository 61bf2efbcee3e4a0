import { expect } from 'chai';
import { startTestApp, type TestApp } from '../../support/app.js';

describe('Triggers smoke', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp({ controllers: true });
  });
  after(async () => app.close());

  it('runs a job to succeeded with the final answer as resultSummary', async () => {
    const { client, agentId } = await app.company();
    app.model.reply({ content: 'All invoices reconciled.' });
    const created = await client.post('/api/v1/triggers', { agentId, task: 'Reconcile invoices', idempotencyKey: 'k1' });
    expect(created.status).to.equal(202);
    let job = (await client.get(`/api/v1/triggers/${created.body.triggerId}`)).body;
    for (let i = 0; i < 20 && !['succeeded', 'failed'].includes(job.status); i++) {
      job = (await client.get(`/api/v1/triggers/${created.body.triggerId}?wait=5`)).body;
    }
    expect(job.status).to.equal('succeeded');
    expect(job.resultSummary).to.equal('All invoices reconciled.');
    expect(job.attemptCount).to.equal(1);
    const replay = await client.post('/api/v1/triggers', { agentId, task: 'other', idempotencyKey: 'k1' });
    expect(replay.status).to.equal(200);
    expect(replay.body).to.include({ triggerId: created.body.triggerId, idempotent: true });
  });
});
