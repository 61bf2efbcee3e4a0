import { expect } from 'chai';
import type { Client, TestApp } from '../../support/app.js';
import { startJobsApp, waitForStatus } from '../../support/triggers.js';

// A model server that drops its connection mid-reply: the turn fails cleanly, nothing half-written
// is kept, only finished model calls are charged, and a job ends as the state table says.
describe('A model dropping its answer mid-reply', () => {
  let app: TestApp;
  before(async () => {
    app = await startJobsApp({ controllers: true });
  });
  after(async () => app?.close());

  const ledger = async (tenantId: string) =>
    (await app.runtime.ctx.db('credit_ledger').where({ tenant_id: tenantId }).orderBy('id')).map((r) => [
      r.reference_type,
      Number(r.amount),
    ]);
  const transcript = async (client: Client, id: string) =>
    (await client.get(`/api/v1/conversations/${id}`)).body.messages.map(
      (m: { role: string; content: string }) => `${m.role}: ${m.content}`,
    );

  it('ends a streamed turn with an error event, keeps the user message only, and charges nothing', async () => {
    const { client, agentId, tenantId } = await app.company({ credits: 5 });
    const { conversationId } = (await client.post('/api/v1/conversations', { agentId })).body;
    app.model.reply({ content: 'This answer never finishes', dropAfter: 2 });

    const turn = await client.stream(`/api/v1/conversations/${conversationId}/messages`, { message: 'Hello', stream: true });

    expect(turn.status).to.equal(200);
    const last = turn.events.at(-1);
    expect(last.type, JSON.stringify(turn.events)).to.equal('error');
    expect(last.error)
      .to.be.a('string')
      .and.not.match(/ECONNRESET|at .*\.js/);
    expect(await transcript(client, conversationId)).to.deep.equal(['user: Hello']);
    expect(await ledger(tenantId)).to.deep.equal([['topup', 5]]);

    app.model.reply({ content: 'Back again' });
    const again = await client.post(`/api/v1/conversations/${conversationId}/messages`, { message: 'Still there?' });
    expect(again.status).to.equal(200);
    expect(again.body.message.content).to.equal('Back again');
  });

  it('answers a turn whose model answer was cut 500, naming the model, after charging the round it finished', async () => {
    const { client, agentId, tenantId } = await app.company({ credits: 5 });
    const { conversationId } = (await client.post('/api/v1/conversations', { agentId })).body;
    app.model.reply(
      { toolCalls: [{ name: 'lookup_order', arguments: { orderId: 'A-17' } }], usage: { promptTokens: 800, completionTokens: 200 } },
      { content: 'Cut short', dropAfter: 0 },
    );

    const turn = await client.post(`/api/v1/conversations/${conversationId}/messages`, { message: 'What time is it?' });

    expect(turn.status, JSON.stringify(turn.body)).to.equal(500);
    expect(turn.body.error).to.match(/^model request failed/);
    expect(await transcript(client, conversationId)).to.deep.equal(['user: What time is it?']);
    expect(await ledger(tenantId)).to.deep.equal([
      ['topup', 5],
      ['api', -1],
    ]);
  });

  it('fails a job whose model answer was cut, with the model error, never leaving it running', async () => {
    const { client, agentId } = await app.company();
    app.model.reply({ content: 'Half a result', dropAfter: 0 });

    const job = (await client.post('/api/v1/triggers', { agentId, task: 'Summarise the day' })).body;
    const failed = await waitForStatus(client, job.triggerId, 'failed');

    expect(failed.errorMessage).to.match(/^model request failed/);
    expect(failed.attemptCount).to.equal(1);
    expect(failed.resultSummary).to.equal(null);
  });
});
