import { expect } from 'chai';
import { startTestApp, type TestApp } from '../../support/app.js';

describe('Agent API smoke', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp();
  });
  after(async () => app.close());

  it('creates a conversation and answers a message', async () => {
    const { client, agentId } = await app.company();
    const created = await client.post('/api/v1/conversations', { agentId });
    expect(created.status).to.equal(201);
    app.model.reply({ content: 'Hello there, friend.' });
    const reply = await client.post(`/api/v1/conversations/${created.body.conversationId}/messages`, { message: 'Hi' });
    expect(reply.status).to.equal(200);
    expect(reply.body.message).to.deep.equal({ role: 'assistant', content: 'Hello there, friend.' });
    const streamed = await client.stream(`/api/v1/conversations/${created.body.conversationId}/messages`, {
      message: 'Again',
      stream: true,
    });
    expect(streamed.events.at(-1).type).to.equal('done');
  });
});
