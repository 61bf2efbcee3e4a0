import { expect } from 'chai';
import type { TestApp } from '../support/app.js';
import { heldReply, startJobsApp, waitForStatus } from '../support/triggers.js';

// Upgrades roll: a migration may add columns while a release's processes are running jobs.
describe('Job runs across a migration that adds columns', () => {
  let app: TestApp;
  before(async () => {
    app = await startJobsApp({ controllers: true, env: { SWITCHBOARD_CONTROLLER_CONCURRENCY: '1' } });
  });
  after(async () => app?.close());

  /** Two jobs, the second claimed once the first's run ends (the only slot is taken till then). */
  async function pairInOneSlot(company: Awaited<ReturnType<TestApp['company']>>, name: string): Promise<void> {
    const { client, agentId } = company;
    const first = heldReply({ content: `${name}: first done` });
    app.model.reply(first.reply, { content: `${name}: second done` });
    const a = (await client.post('/api/v1/triggers', { agentId, task: `${name} first` })).body;
    await waitForStatus(client, a.triggerId, 'running');
    const b = (await client.post('/api/v1/triggers', { agentId, task: `${name} second` })).body;
    first.release();
    for (const [job, reply] of [
      [a, 'first'],
      [b, 'second'],
    ] as const) {
      expect((await waitForStatus(client, job.triggerId, 'succeeded')).resultSummary).to.equal(`${name}: ${reply} done`);
      const { messages } = (await client.get(`/api/v1/conversations/${job.conversationId}`)).body;
      expect(messages.at(-1)).to.include({ role: 'assistant', content: `${name}: ${reply} done` });
    }
  }

  it('keeps running jobs one after another after a migration adds a column to every table their runs read', async () => {
    const company = await app.company();
    await pairInOneSlot(company, 'Before');
    const tables = ['triggers', 'tenants', 'conversations', 'agents', 'messages'];
    for (const table of tables) await app.runtime.ctx.db.raw(`alter table ${table} add column added_later text`);
    try {
      await pairInOneSlot(company, 'After');
    } finally {
      for (const table of tables) await app.runtime.ctx.db.raw(`alter table ${table} drop column added_later`);
    }
    expect(app.logs.filter((line) => line.includes('failed unexpectedly') || line.includes('reconcile failed'))).to.deep.equal([]);
  });
});
