import { expect } from 'chai';
import { updateAgent } from '../../../pkg/agent/settings.js';
import { openConversation, startTestApp, type TestApp } from '../../support/app.js';
import { eventually } from '../../support/eventually.js';
import { startHttpsServer, type TestHttpsServer } from '../../support/https.js';
import { offeredTools } from '../../support/model.js';

const system = (content: string) => ({ role: 'system', content });
const lastUserOf = (request: any): string => request.messages.filter((m: any) => m.role === 'user').at(-1).content;
// Metadata is JSON, whose key order is not meaningful: compared as an object.
const readMetadata = (m: any) =>
  m.role === 'system' && m.content.startsWith('CONVERSATION METADATA:\n')
    ? { role: 'system', metadata: JSON.parse(m.content.slice('CONVERSATION METADATA:\n'.length)) }
    : m;
const FORBIDDEN = ['end_conversation', 'barge_in', 'call_internal_contact', 'end_session'];

describe('POST /api/v1/conversations/:conversationId/messages (agent turns)', () => {
  let app: TestApp;
  let tool: TestHttpsServer;
  before(async () => {
    app = await startTestApp();
    tool = await startHttpsServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"status":"shipped"}');
    });
  });
  after(async () => {
    await tool.close();
    await app.close();
  });
  beforeEach(() => {
    app.model.reset();
    tool.requests.length = 0;
  });

  it('sends the agent prompt, the conversation and turn system messages, the metadata, then the history', async () => {
    const { client, agentId } = await app.company({ systemPrompt: 'You are the agent of Acme.' });
    const id = await openConversation(client, agentId, {
      customSystemMessage: 'Speak formally.',
      metadata: { orderId: 'A-17', tier: 'gold' },
    });

    app.model.reply({ content: 'Good day.' });
    const first = await client.post(`/api/v1/conversations/${id}/messages`, { message: 'Hello', customSystemMessage: 'Mention the sale.' });
    expect(first.status).to.equal(200);
    app.model.reply({ content: 'Certainly.' });
    const second = await client.post(`/api/v1/conversations/${id}/messages`, { message: 'And my order?' });
    expect(second.status).to.equal(200);

    expect(app.model.requests).to.have.length(2);
    const [one, two] = app.model.requests.map((r) => r.messages.map(readMetadata));
    const metadata = { role: 'system', metadata: { orderId: 'A-17', tier: 'gold' } };
    expect(one).to.deep.equal([
      system('You are the agent of Acme.'),
      system('Speak formally.'),
      system('Mention the sale.'),
      metadata,
      { role: 'user', content: 'Hello' },
    ]);
    // The turn's own system message is gone; the history is the server's, not resent by the client.
    expect(two).to.deep.equal([
      system('You are the agent of Acme.'),
      system('Speak formally.'),
      metadata,
      { role: 'user', content: 'Hello' },
      { role: 'assistant', content: 'Good day.' },
      { role: 'user', content: 'And my order?' },
    ]);
  });

  it('answers with the reply, each assistant message, the tools called and the usage', async () => {
    const { client, agentId } = await app.company();
    await updateAgent(app.runtime.ctx, agentId, {
      tools: [{ name: 'order_status', description: 'Order status', url: `${tool.url}/status`, method: 'GET' }],
    });
    const id = await openConversation(client, agentId);
    app.model.reply(
      {
        content: 'Let me check.',
        toolCalls: [{ name: 'order_status', arguments: {} }],
        usage: { promptTokens: 100, completionTokens: 20 },
      },
      { content: 'It has shipped.', usage: { promptTokens: 150, completionTokens: 10 } },
    );

    const reply = await client.post(`/api/v1/conversations/${id}/messages`, { message: 'Where is my order?' });

    expect(reply.status).to.equal(200);
    expect(reply.body).to.deep.equal({
      conversationId: id,
      contactId: null,
      message: { role: 'assistant', content: 'Let me check.\n\nIt has shipped.' },
      messages: [
        { role: 'assistant', content: 'Let me check.' },
        { role: 'assistant', content: 'It has shipped.' },
      ],
      toolCalls: ['order_status'],
      usage: { promptTokens: 250, completionTokens: 30, totalTokens: 280 },
    });
    expect(tool.requests).to.have.length(1);
    expect(app.model.requests[1]!.messages.at(-1)).to.include({ role: 'tool', content: 'HTTP 200\n{"status":"shipped"}' });
  });

  it('never offers end_conversation, barge_in, call_internal_contact or end_session, and never runs them', async () => {
    const { client, agentId } = await app.company();
    const httpTool = (name: string) => ({ name, description: name, url: `${tool.url}/${name}`, method: 'POST' as const });
    await updateAgent(app.runtime.ctx, agentId, { tools: ['end_conversation', 'barge_in', 'end_session', 'order_status'].map(httpTool) });
    // Longer than a tool name may be when configured (20), so it can only be stored directly.
    await app.runtime.ctx
      .db('agents')
      .where({ id: agentId })
      .update({
        tools: app.runtime.ctx.db.raw('tools || ?::jsonb', [
          JSON.stringify([{ ...httpTool('call_internal_contact'), authType: 'none', parameters: [] }]),
        ]),
      });
    const id = await openConversation(client, agentId);
    app.model.reply(
      {
        toolCalls: [
          { name: 'end_session', arguments: {} },
          { name: 'call_internal_contact', arguments: {} },
        ],
      },
      { content: 'Still here.' },
    );

    const reply = await client.post(`/api/v1/conversations/${id}/messages`, { message: 'Bye' });

    expect(reply.status).to.equal(200);
    const offered = offeredTools(app.model.requests[0]);
    expect(offered).to.include('order_status');
    expect(offered.filter((name) => FORBIDDEN.includes(name))).to.deep.equal([]);
    expect(tool.requests).to.deep.equal([]);
  });

  it('serializes concurrent messages on one conversation so history alternates user and assistant', async () => {
    const { client, agentId } = await app.company();
    const id = await openConversation(client, agentId);
    app.model.setDefault((request) => ({ content: `re: ${lastUserOf(request)}`, delayMs: 100 }));

    const texts = ['one', 'two', 'three', 'four', 'five'];
    const replies = await Promise.all(texts.map((message) => client.post(`/api/v1/conversations/${id}/messages`, { message })));

    expect(replies.map((r) => r.status)).to.deep.equal([200, 200, 200, 200, 200]);
    for (const [i, reply] of replies.entries()) expect(reply.body.message.content).to.equal(`re: ${texts[i]}`);
    const { messages } = (await client.get(`/api/v1/conversations/${id}`)).body;
    expect(messages.map((m: any) => m.role)).to.deep.equal(texts.flatMap(() => ['user', 'assistant']));
    for (let i = 0; i < messages.length; i += 2) expect(messages[i + 1].content).to.equal(`re: ${messages[i].content}`);
  });

  it('answers 500 {error} when the model fails, keeping the user message', async () => {
    const { client, agentId } = await app.company();
    const id = await openConversation(client, agentId);
    app.model.reply({ fail: { status: 400, message: 'model exploded' } });

    const reply = await client.post(`/api/v1/conversations/${id}/messages`, { message: 'Are you there?' });

    expect(reply.status).to.equal(500);
    expect(reply.body.error).to.be.a('string').and.not.empty;
    const { messages } = (await client.get(`/api/v1/conversations/${id}`)).body;
    expect(messages.map((m: any) => [m.role, m.content])).to.deep.equal([['user', 'Are you there?']]);
  });
});

describe('POST /api/v1/conversations/:conversationId/messages past the synchronous timeout', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp({ env: { SWITCHBOARD_TURN_TIMEOUT_SEC: '1' } });
  });
  after(async () => app.close());

  it('answers 504 {error} and still records the turn when it finishes', async () => {
    const { client, agentId } = await app.company();
    const id = await openConversation(client, agentId);
    app.model.reply({ content: 'Sorry for the wait.', delayMs: 2500 });

    const reply = await client.post(`/api/v1/conversations/${id}/messages`, { message: 'Slow question' });

    expect(reply.status).to.equal(504);
    expect(reply.body.error).to.be.a('string').and.not.empty;
    const messages: any[] = await eventually('the turn recorded', async () => {
      const { body } = await client.get(`/api/v1/conversations/${id}`);
      return body.messages.length >= 2 && body.messages;
    });
    expect(messages.map((m) => [m.role, m.content])).to.deep.equal([
      ['user', 'Slow question'],
      ['assistant', 'Sorry for the wait.'],
    ]);
  });
});

describe('POST /api/v1/conversations/:conversationId/messages when the user message cannot be stored', () => {
  let app: TestApp;
  const REFUSED = 'A message the database refuses';
  before(async () => {
    app = await startTestApp();
    // A failure of the database's own, for this one message alone: its error names the statement.
    await app.runtime.ctx.db.raw(`
      create function refuse_message() returns trigger language plpgsql as $$
      begin
        if new.content = '${REFUSED}' then raise exception 'refused by the test'; end if;
        return new;
      end $$;
      create trigger refuse_message before insert on messages for each row execute function refuse_message();`);
  });
  after(async () => {
    await app.runtime.ctx.db.raw('drop trigger refuse_message on messages; drop function refuse_message();');
    await app.close();
  });

  it('answers 500 without the statement or the database error, as a synchronous turn and as a stream', async () => {
    const { client, agentId } = await app.company();
    const id = await openConversation(client, agentId);

    const reply = await client.post(`/api/v1/conversations/${id}/messages`, { message: REFUSED });
    expect(reply.status).to.equal(500);
    expect(reply.body).to.deep.equal({ error: 'Unexpected processing failure' });

    const streamed = await client.stream(`/api/v1/conversations/${id}/messages`, { message: REFUSED, stream: true });
    expect(JSON.stringify(streamed.body ?? streamed.events)).to.not.match(/insert|messages|refused by the test/);
    expect((await client.get(`/api/v1/conversations/${id}`)).body.messages).to.deep.equal([]);
  });
});
