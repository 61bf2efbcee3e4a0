import { expect } from 'chai';
import { createAgent, updateAgent } from '../../../pkg/agent/settings.js';
import { openConversation, startTestApp, type TestApp } from '../../support/app.js';
import { startHttpsServer, type TestHttpsServer } from '../../support/https.js';
import { offeredTools } from '../../support/model.js';

/** A Server-Timing header as [name, dur] pairs. */
function serverTiming(header: string | null): [string, number][] {
  return (header ?? '').split(', ').map((entry) => {
    const [name, dur] = entry.split(';dur=');
    return [name!, Number(dur)];
  });
}
const handoffTo = (roleName: string) => ({ toolCalls: [{ name: 'handoff_to_agent', arguments: { roleName } }] });

describe('Agent handoff and streamed replies', () => {
  let app: TestApp;
  let api: TestHttpsServer;
  before(async () => {
    app = await startTestApp();
    api = await startHttpsServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"balance":42}');
    });
  });
  after(async () => {
    await api.close();
    await app.close();
  });
  beforeEach(() => app.model.reset());

  /** A company whose entry agent may hand off to its `billing` agent. */
  async function companyWithBilling() {
    const company = await app.company({ systemPrompt: 'You are the front desk.' });
    const billing = await createAgent(app.runtime.ctx, company.tenantId, { name: 'Billing', systemPrompt: 'You are billing.' });
    await updateAgent(app.runtime.ctx, company.agentId, {
      handoffEnabled: true,
      handoffRoster: [{ roleName: 'billing', agentId: billing.id, greeting: 'Billing here' }],
    });
    return { ...company, billingId: billing.id, conversationId: await openConversation(company.client, company.agentId) };
  }

  describe('POST /api/v1/conversations/:conversationId/messages', () => {
    it('hands the conversation to the roster agent, which answers from then on', async () => {
      const { client, conversationId, billingId } = await companyWithBilling();
      app.model.reply(handoffTo('billing'), { content: 'Billing speaking.' });

      const reply = await client.post(`/api/v1/conversations/${conversationId}/messages`, { message: 'About my invoice' });

      expect(reply.status).to.equal(200);
      expect(reply.body).to.deep.include({
        handoff: { roleName: 'billing', greeting: 'Billing here', agentId: billingId },
        agentId: billingId,
        message: { role: 'assistant', content: 'Billing speaking.' },
        toolCalls: ['handoff_to_agent'],
      });
      expect(offeredTools(app.model.requests[0])).to.include('handoff_to_agent');
      expect(app.model.requests[1]!.messages[0]).to.deep.equal({ role: 'system', content: 'You are billing.' });
      expect((await client.get(`/api/v1/conversations/${conversationId}`)).body.agentId).to.equal(billingId);

      app.model.reply({ content: 'Your invoice is paid.' });
      const next = await client.post(`/api/v1/conversations/${conversationId}/messages`, { message: 'Is it paid?' });
      expect(next.status).to.equal(200);
      expect(next.body).not.to.have.any.keys('handoff', 'agentId');
      expect(app.model.requests[2]!.messages[0]).to.deep.equal({ role: 'system', content: 'You are billing.' });
      // Server-Timing: the key, the lock with the reads, the user's message stored, each model round, then the rest of the turn.
      expect(
        serverTiming(reply.headers.get('server-timing'))
          .map(([name]) => name)
          .sort(),
      ).to.deep.equal(['auth', 'context', 'model', 'model', 'store', 'turn']);
      expect(offeredTools(app.model.requests[2])).not.to.include('handoff_to_agent');
    });

    it('lets the agent now on the conversation decide the next handoff with its own roster; the entry agent\'s roster is not carried (DECISIONS.md "Handoff roster after a handoff")', async () => {
      const { client, tenantId, agentId, conversationId, billingId } = await companyWithBilling();
      const sales = await createAgent(app.runtime.ctx, tenantId, { name: 'Sales', systemPrompt: 'You are sales.' });
      const refunds = await createAgent(app.runtime.ctx, tenantId, { name: 'Refunds', systemPrompt: 'You are refunds.' });
      await updateAgent(app.runtime.ctx, agentId, {
        handoffRoster: [
          { roleName: 'billing', agentId: billingId, greeting: 'Billing here' },
          { roleName: 'sales', agentId: sales.id, greeting: 'Sales here' },
        ],
      });
      await updateAgent(app.runtime.ctx, billingId, {
        handoffEnabled: true,
        handoffRoster: [{ roleName: 'refunds', agentId: refunds.id, greeting: 'Refunds here' }],
      });
      const rolesOffered = (request: any): string[] =>
        request.tools.find((t: any) => t.function.name === 'handoff_to_agent').function.parameters.properties.roleName.enum;

      app.model.reply(handoffTo('billing'), { content: 'Billing speaking.' });
      expect(
        (await client.post(`/api/v1/conversations/${conversationId}/messages`, { message: 'About my invoice' })).body.agentId,
      ).to.equal(billingId);
      expect(rolesOffered(app.model.requests[0])).to.deep.equal(['billing', 'sales']);

      // Billing cannot reach the entry agent's sales: that role is not its own.
      app.model.reply(handoffTo('sales'), { content: 'I stay with you.' });
      const stayed = await client.post(`/api/v1/conversations/${conversationId}/messages`, { message: 'Can I buy more?' });
      expect(stayed.status).to.equal(200);
      expect(stayed.body).not.to.have.any.keys('handoff', 'agentId');
      expect(app.model.requests[2]!.messages[0]).to.deep.equal({ role: 'system', content: 'You are billing.' });
      expect(rolesOffered(app.model.requests[2])).to.deep.equal(['refunds']);
      expect((app.model.requests[3]!.messages.at(-1) as any).content).to.match(/^Unknown role sales/);
      expect((await client.get(`/api/v1/conversations/${conversationId}`)).body.agentId).to.equal(billingId);

      app.model.reply(handoffTo('refunds'), { content: 'Refunds speaking.' });
      const second = await client.post(`/api/v1/conversations/${conversationId}/messages`, { message: 'I want my money back' });
      expect(second.body).to.deep.include({
        handoff: { roleName: 'refunds', greeting: 'Refunds here', agentId: refunds.id },
        agentId: refunds.id,
      });
      expect(app.model.requests[5]!.messages[0]).to.deep.equal({ role: 'system', content: 'You are refunds.' });
      expect((await client.get(`/api/v1/conversations/${conversationId}`)).body.agentId).to.equal(refunds.id);
    });

    it('refuses a handoff to an agent of another company and keeps the conversation where it is', async () => {
      const { client, agentId, conversationId } = await companyWithBilling();
      const other = await app.company();
      // The roster is checked when configured; this one names another company's agent all the same.
      await app.runtime.ctx
        .db('agents')
        .where({ id: agentId })
        .update({ handoff_roster: JSON.stringify([{ roleName: 'partner', agentId: other.agentId, greeting: 'Hi' }]) });
      app.model.reply(handoffTo('partner'), { content: 'I will keep helping you.' });

      const reply = await client.post(`/api/v1/conversations/${conversationId}/messages`, { message: 'Transfer me' });

      expect(reply.status).to.equal(200);
      expect(reply.body).not.to.have.any.keys('handoff', 'agentId');
      expect(reply.body.message.content).to.equal('I will keep helping you.');
      const toolMessage = app.model.requests[1]!.messages.at(-1) as any;
      expect(toolMessage.role).to.equal('tool');
      expect(toolMessage.content).to.match(/unknown|not found|not available/i);
      expect((await client.get(`/api/v1/conversations/${conversationId}`)).body.agentId).to.equal(agentId);
    });
  });

  describe('POST /api/v1/conversations/:conversationId/messages with stream: true', () => {
    it('answers text/event-stream with one `data: <json>` line per event', async () => {
      const { apiKey, conversationId } = await companyWithBilling();
      app.model.reply({ chunks: ['Hello ', 'there.'] });

      const res = await fetch(`${app.url}/api/v1/conversations/${conversationId}/messages`, {
        method: 'POST',
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ message: 'Hi', stream: true }),
      });
      const raw = await res.text();

      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.match(/^text\/event-stream/);
      const blocks = raw.split('\n\n');
      expect(blocks.pop()).to.equal('');
      for (const block of blocks) expect(block).to.match(/^data: \{[^\n]*\}$/);
      expect(blocks.map((b) => JSON.parse(b.slice('data: '.length)).type)).to.deep.equal(['content', 'content', 'done']);
    });

    it('sends the headers at once when the model is slow, before its first event', async () => {
      const { apiKey, conversationId } = await companyWithBilling();
      let answer!: () => void;
      const answered = new Promise<void>((resolve) => (answer = resolve));
      app.model.reply(async () => {
        await answered;
        return { chunks: ['At last.'] };
      });

      // The response (status and headers) arrives while the model has not answered yet.
      const res = await fetch(`${app.url}/api/v1/conversations/${conversationId}/messages`, {
        method: 'POST',
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ message: 'Hi', stream: true }),
      });
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.match(/^text\/event-stream/);
      answer();
      const events = (await res.text())
        .split('\n\n')
        .filter(Boolean)
        .map((b) => JSON.parse(b.slice('data: '.length)));
      expect(events.map((e) => e.type)).to.deep.equal(['content', 'done']);
      expect(events[0].content).to.equal('At last.');
    });

    it('sends each event as it comes, not when the turn ends', async () => {
      const { apiKey, conversationId } = await companyWithBilling();
      let rest!: () => void;
      app.model.reply({ chunks: ['First', ' and the rest.'], holdAfterFirst: new Promise<void>((resolve) => (rest = resolve)) });

      const res = await fetch(`${app.url}/api/v1/conversations/${conversationId}/messages`, {
        method: 'POST',
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ message: 'Hi', stream: true }),
      });
      const reader = res.body!.getReader();
      const decoder = new TextDecoder();
      let seen = '';
      // The model holds the rest of its answer until the first event has reached the client.
      while (!seen.includes('\n\n')) seen += decoder.decode((await reader.read()).value, { stream: true });
      expect(JSON.parse(seen.slice('data: '.length, seen.indexOf('\n\n')))).to.deep.equal({ type: 'content', content: 'First' });
      rest();
      for (let part = await reader.read(); !part.done; part = await reader.read()) seen += decoder.decode(part.value, { stream: true });
      const types = seen
        .split('\n\n')
        .filter(Boolean)
        .map((b) => JSON.parse(b.slice('data: '.length)).type);
      expect(types).to.deep.equal(['content', 'content', 'done']);
    });

    it('tells in Server-Timing where the time before the first event went', async () => {
      const { apiKey, conversationId } = await companyWithBilling();
      app.model.reply({ chunks: ['Hello.'] });

      const res = await fetch(`${app.url}/api/v1/conversations/${conversationId}/messages`, {
        method: 'POST',
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ message: 'Hi', stream: true }),
      });
      await res.text();

      const phases = serverTiming(res.headers.get('server-timing'));
      // The key is checked, then the turn's context read; the stream opens once the user's message is
      // stored; the model, asked meanwhile, may have answered first.
      const names = phases.map(([name]) => name);
      expect([
        ['auth', 'context', 'store'],
        ['auth', 'context', 'model', 'store'],
      ]).to.deep.include(names);
      for (const [, dur] of phases) expect(dur).to.be.finite.and.at.least(0);
    });

    it('streams content, tool, handoff and new_message events in order and ends with done', async () => {
      const { client, agentId, conversationId, billingId } = await companyWithBilling();
      await updateAgent(app.runtime.ctx, agentId, {
        tools: [{ name: 'balance', description: 'Account balance', url: `${api.url}/balance`, method: 'GET' }],
      });
      const usage = { promptTokens: 10, completionTokens: 5 };
      app.model.reply(
        { chunks: ['Let me ', 'look.'], toolCalls: [{ name: 'balance', arguments: {} }], usage },
        { chunks: ['Passing ', 'you on.'], ...handoffTo('billing'), usage },
        { chunks: ['Billing ', 'here.'], usage },
      );

      const { status, events } = await client.stream(`/api/v1/conversations/${conversationId}/messages`, {
        message: 'My balance?',
        stream: true,
      });

      expect(status).to.equal(200);
      expect(events).to.deep.equal([
        { type: 'content', content: 'Let me ' },
        { type: 'content', content: 'look.' },
        { type: 'tool', name: 'balance' },
        { type: 'new_message' },
        { type: 'content', content: 'Passing ' },
        { type: 'content', content: 'you on.' },
        { type: 'tool', name: 'handoff_to_agent' },
        { type: 'handoff', roleName: 'billing', greeting: 'Billing here', agentId: billingId },
        { type: 'new_message' },
        { type: 'content', content: 'Billing ' },
        { type: 'content', content: 'here.' },
        { type: 'done', conversationId, contactId: null, usage: { promptTokens: 30, completionTokens: 15, totalTokens: 45 } },
      ]);
      expect((await client.get(`/api/v1/conversations/${conversationId}`)).body.agentId).to.equal(billingId);
    });

    it('answers 409 JSON, not a stream, when the conversation has ended', async () => {
      const { client, conversationId } = await companyWithBilling();
      expect((await client.post(`/api/v1/conversations/${conversationId}/end`)).status).to.equal(200);

      const res = await client.stream(`/api/v1/conversations/${conversationId}/messages`, { message: 'Hello?', stream: true });

      expect(res.status).to.equal(409);
      expect(res.events).to.deep.equal([]);
      expect(res.body.error).to.be.a('string').and.not.empty;
    });

    it('ends the stream with an error event when the model fails mid-turn', async () => {
      const { client, agentId, conversationId } = await companyWithBilling();
      await updateAgent(app.runtime.ctx, agentId, {
        tools: [{ name: 'balance', description: 'Account balance', url: `${api.url}/balance`, method: 'GET' }],
      });
      app.model.reply(
        { chunks: ['Checking.'], toolCalls: [{ name: 'balance', arguments: {} }] },
        { fail: { status: 400, message: 'model exploded' } },
      );

      const { status, events } = await client.stream(`/api/v1/conversations/${conversationId}/messages`, {
        message: 'Balance?',
        stream: true,
      });

      expect(status).to.equal(200);
      expect(events.slice(0, -1)).to.deep.equal([
        { type: 'content', content: 'Checking.' },
        { type: 'tool', name: 'balance' },
      ]);
      expect(events.at(-1)).to.have.all.keys('type', 'error');
      expect(events.at(-1)).to.include({ type: 'error' });
      expect(events.at(-1).error).to.be.a('string').and.not.empty;
    });
  });
});
