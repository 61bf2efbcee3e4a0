import { expect } from 'chai';
import { getTrigger } from '../../../pkg/store/triggers/get.js';
import type { TestApp } from '../../support/app.js';
import { startJobsApp } from '../../support/triggers.js';

describe('Reading a job (getTrigger)', () => {
  let app: TestApp;
  before(async () => {
    app = await startJobsApp();
  });
  after(async () => app?.close());

  it("reads in the transaction it is given, seeing that transaction's own changes, and as committed outside one", async () => {
    const { client, agentId, tenantId } = await app.company();
    const { triggerId } = (await client.post('/api/v1/triggers', { agentId, task: 'Read me' })).body;
    const { ctx } = app.runtime;
    // As the console's cancel and reply do: the job read in the transaction that changed it (a sweep there).
    const trx = await ctx.db.transaction();
    try {
      await trx('triggers').where({ id: triggerId }).update({ status: 'expired' });
      expect((await getTrigger({ ...ctx, db: trx }, tenantId, triggerId)).status).to.equal('expired');
      expect((await getTrigger(ctx, tenantId, triggerId)).status).to.equal('queued');
    } finally {
      await trx.rollback();
    }
  });
});
