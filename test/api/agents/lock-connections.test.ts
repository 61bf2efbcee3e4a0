import { expect } from 'chai';
import { eventually } from '../../support/eventually.js';
import { startJobsApp } from '../../support/triggers.js';
import type { TestApp } from '../../support/app.js';

describe('Conversation lock connections', () => {
  let app: TestApp;
  before(async () => {
    // A database of its own: the test ends every lock connection on it.
    app = await startJobsApp();
  });
  after(async () => app?.close());

  it('are replaced when the server ends an idle one, without ending the process', async () => {
    const { client, agentId } = await app.company();
    const { conversationId } = (await client.post('/api/v1/conversations', { agentId })).body;
    expect((await client.post(`/api/v1/conversations/${conversationId}/messages`, { message: 'One' })).status).to.equal(200);
    const db = app.runtime.ctx.db;
    const ended = await db.raw(
      `select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'switchboard-locks' and datname = current_database()`,
    );
    expect(ended.rows.length, 'idle lock connections').to.be.greaterThan(0);
    await eventually('the lost lock connections noticed', () => app.logs.some((line) => line.includes('idle lock connection lost')));

    const again = await client.post(`/api/v1/conversations/${conversationId}/messages`, { message: 'Two' });

    expect(again.status).to.equal(200);
    expect(app.logs.filter((line) => line.includes('idle lock connection lost'))).to.have.length(ended.rows.length);
  });
});
