import { expect } from 'chai';
import type { TestApp } from '../../support/app.js';
import { startJobsApp, waitForStatus } from '../../support/triggers.js';

// A run's end writes its messages, its charge and the job's new status in one transaction, whose
// statements go out together: either every one of them is kept or none.
describe("A job run's closing writes", () => {
  let app: TestApp;
  before(async () => {
    app = await startJobsApp({ controllers: true });
  });
  after(async () => app?.close());

  it('are kept all or none: a reply the database refuses leaves no brief, no charge and no success behind', async () => {
    const { client, agentId, tenantId } = await app.company({ credits: 5 });
    const db = app.runtime.ctx.db;
    // A storage failure has no public trigger: this database refuses the run's reply until the test lifts it.
    await db.raw(`create function refuse_reply() returns trigger language plpgsql as $$
      begin
        if new.content = 'Refused reply' then raise exception 'disk full'; end if;
        return new;
      end $$`);
    await db.raw('create trigger refuse_reply before insert on messages for each row execute function refuse_reply()');
    try {
      app.model.reply({ content: 'Refused reply', usage: { promptTokens: 1200, completionTokens: 300 } });
      const { triggerId, conversationId } = (await client.post('/api/v1/triggers', { agentId, task: 'Refund order A-17' })).body;

      const job = await waitForStatus(client, triggerId, 'failed');

      // The database's own words stay in the log: they can carry the statement and its values.
      expect(job.errorMessage).to.equal('Unexpected processing failure');
      expect(job.resultSummary).to.equal(null);
      expect((await client.get(`/api/v1/conversations/${conversationId}?include=all`)).body.messages).to.deep.equal([]);
      const charges = await db('credit_ledger').where({ tenant_id: tenantId, reference_type: 'api' });
      expect(charges).to.deep.equal([]);
    } finally {
      await db.raw('drop trigger refuse_reply on messages');
      await db.raw('drop function refuse_reply()');
    }
  });
});
