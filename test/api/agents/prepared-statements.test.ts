import { expect } from 'chai';
import { startJobsApp, waitForStatus } from '../../support/triggers.js';
import type { TestApp } from '../../support/app.js';

describe('Named prepared statements (pkg/db/prepared.ts)', () => {
  let app: TestApp;
  before(async () => {
    // A database of its own: the test adds columns to its tables.
    app = await startJobsApp({ controllers: true });
  });
  after(async () => app?.close());

  it('keep answering key lookups, turns and jobs after a migration adds columns to the tables they read', async () => {
    const { client, agentId } = await app.company();
    const { conversationId } = (await client.post('/api/v1/conversations', { agentId })).body;
    const turn = () => client.post(`/api/v1/conversations/${conversationId}/messages`, { message: 'Hello' });
    const job = async () => {
      const created = await client.post('/api/v1/triggers', { agentId, task: 'Reconcile invoices' });
      expect(created.status, JSON.stringify(created.body)).to.equal(202);
      return waitForStatus(client, created.body.triggerId, 'succeeded');
    };
    // Prepared on their connections: the key lookup, the turn's lock, reads and writes, the job's insert and claim.
    app.model.reply({ content: 'First.' });
    expect((await turn()).status).to.equal(200);
    app.model.reply({ content: 'Done.' });
    await job();

    for (const table of ['tenants', 'api_keys', 'conversations', 'agents', 'messages', 'triggers']) {
      await app.runtime.ctx.db.raw(`alter table ${table} add column added_later text`);
    }

    app.model.reply({ content: 'Second.' });
    const again = await turn();
    expect(again.status, JSON.stringify(again.body)).to.equal(200);
    expect(again.body.messages ?? again.body).to.satisfy((body: unknown) => JSON.stringify(body).includes('Second.'));
    const history = await client.get(`/api/v1/conversations/${conversationId}?include=all`);
    expect(JSON.stringify(history.body)).to.include('First.').and.include('Second.');
    app.model.reply({ content: 'Done again.' });
    const done = await job();
    expect(done.resultSummary).to.equal('Done again.');
    // The job's closing transaction kept its reply with its status.
    const { messages } = (await client.get(`/api/v1/conversations/${done.conversationId}`)).body;
    expect(messages.at(-1)).to.include({ role: 'assistant', content: 'Done again.' });
  });
});
