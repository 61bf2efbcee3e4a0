import { expect } from 'chai';
import type { TestApp } from '../support/app.js';
import { startJobsApp, waitForStatus } from '../support/triggers.js';

// Postgres refusing writes as when its disk is full: every surface answers 503 with Retry-After,
// nothing is half-written, and all is well once it takes writes again.
describe('Postgres refusing writes (disk full)', () => {
  let app: TestApp;
  before(async () => {
    app = await startJobsApp({ controllers: true });
    await app.runtime.ctx.db.raw(`create function refuse_writes() returns trigger language plpgsql as $$
      begin raise exception 'could not extend file: No space left on device' using errcode = 'disk_full'; end $$`);
  });
  after(async () => app?.close());

  /** Inserts into `table` fail as on a full disk while `fn` runs. */
  async function diskFull<T>(table: string, fn: () => Promise<T>): Promise<T> {
    await app.runtime.ctx.db.raw(`create trigger disk_full before insert on ${table} for each row execute function refuse_writes()`);
    try {
      return await fn();
    } finally {
      await app.runtime.ctx.db.raw(`drop trigger disk_full on ${table}`);
    }
  }

  it('answers a turn 503 with Retry-After, storing nothing and charging nothing, then answers again', async () => {
    const { client, agentId, tenantId } = await app.company({ credits: 5 });
    const { conversationId } = (await client.post('/api/v1/conversations', { agentId })).body;
    app.model.reply({ content: 'Never stored' });

    const refused = await diskFull('messages', () => client.post(`/api/v1/conversations/${conversationId}/messages`, { message: 'Hello' }));

    expect(refused.status, JSON.stringify(refused.body)).to.equal(503);
    expect(Number(refused.headers.get('retry-after'))).to.be.greaterThan(0);
    expect(refused.body.error).to.equal('The database is unavailable or busy; retry later');
    expect((await client.get(`/api/v1/conversations/${conversationId}`)).body.messages).to.deep.equal([]);
    const ledger = await app.runtime.ctx.db('credit_ledger').where({ tenant_id: tenantId });
    expect(ledger.map((r) => r.reference_type)).to.deep.equal(['topup']);

    app.model.reply({ content: 'Stored now' });
    const again = await client.post(`/api/v1/conversations/${conversationId}/messages`, { message: 'Hello again' });
    expect(again.status).to.equal(200);
  });

  it('answers a job created while triggers cannot be written 503, leaving no job or conversation behind', async () => {
    const { client, agentId, tenantId } = await app.company();
    const count = async (table: string) =>
      Number((await app.runtime.ctx.db(table).where({ tenant_id: tenantId }).count({ n: '*' }).first())!.n);

    const refused = await diskFull('triggers', () =>
      client.post('/api/v1/triggers', { agentId, task: 'Never queued', idempotencyKey: 'full-disk' }),
    );

    expect(refused.status, JSON.stringify(refused.body)).to.equal(503);
    expect(await count('triggers')).to.equal(0);
    expect(await count('conversations')).to.equal(0);
    // Retried with the same idempotency key once the disk has room: one job.
    app.model.reply({ content: 'Queued at last' });
    const retried = await client.post('/api/v1/triggers', { agentId, task: 'Never queued', idempotencyKey: 'full-disk' });
    expect(retried.status).to.equal(202);
    await waitForStatus(client, retried.body.triggerId, 'succeeded');
    expect(await count('triggers')).to.equal(1);
  });

  it("fails a job whose closing write is refused, saying why, with none of the run's messages half-kept", async () => {
    const { client, agentId } = await app.company();
    let answered!: () => void;
    const asked = new Promise<void>((resolve) => (answered = resolve));
    let go!: () => void;
    const proceed = new Promise<void>((resolve) => (go = resolve));
    app.model.reply(async () => {
      answered();
      await proceed;
      return { content: 'The result' };
    });
    const job = (await client.post('/api/v1/triggers', { agentId, task: 'Write the report' })).body;
    await asked;

    const failed = await diskFull('messages', async () => {
      go();
      return waitForStatus(client, job.triggerId, 'failed');
    });

    expect(failed.errorMessage).to.equal('The database is unavailable or busy; retry later');
    expect(failed.resultSummary).to.equal(null);
    const messages = (await client.get(`/api/v1/conversations/${job.conversationId}?include=all`)).body.messages;
    expect(messages.map((m: { role: string }) => m.role)).to.not.include('assistant');
  });
});
