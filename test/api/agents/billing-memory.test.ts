import { expect } from 'chai';
import { addCredits } from '../../../pkg/store/credits.js';
import { updateTenant } from '../../../pkg/tenants/settings.js';
import { createConversation, openConversation, startTestApp, type Client, type TestApp } from '../../support/app.js';
import { offeredTools } from '../../support/model.js';

const systemMessages = (request: any): string[] => request.messages.filter((m: any) => m.role === 'system').map((m: any) => m.content);

describe('Billing and memory of agent turns', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp();
  });
  after(async () => app.close());
  beforeEach(() => app.model.reset());

  const ledger = (tenantId: string) =>
    app.runtime.ctx.db('credit_ledger').where({ tenant_id: tenantId }).orderBy('id').select('reference_type', 'amount');
  const ledgerEntries = async (tenantId: string) => (await ledger(tenantId)).map((r) => [r.reference_type, Number(r.amount)]);

  describe('credits', () => {
    it("charges a prepaid company's turn by its tokens under reference type api", async () => {
      const { client, agentId, tenantId } = await app.company({ credits: 5 });
      const id = await openConversation(client, agentId);
      app.model.reply({ content: 'Sure.', usage: { promptTokens: 1200, completionTokens: 300 } });

      const reply = await client.post(`/api/v1/conversations/${id}/messages`, { message: 'Hello' });

      expect(reply.status).to.equal(200);
      expect(reply.body.usage).to.deep.equal({ promptTokens: 1200, completionTokens: 300, totalTokens: 1500 });
      expect(await ledgerEntries(tenantId)).to.deep.equal([
        ['topup', 5],
        ['api', -1.5],
      ]);
    });

    it("charges the tokens of a turn's finished model calls when a later one fails, against the user's message", async () => {
      const { client, agentId, tenantId } = await app.company({ credits: 5 });
      const id = await openConversation(client, agentId);
      app.model.reply(
        { toolCalls: [{ name: 'lookup_order', arguments: { orderId: 'A-17' } }], usage: { promptTokens: 800, completionTokens: 200 } },
        { fail: { status: 400, message: 'upstream model exploded' } },
      );

      const reply = await client.post(`/api/v1/conversations/${id}/messages`, { message: 'Where is order A-17?' });

      expect(reply.status).to.be.at.least(500);
      expect(await ledgerEntries(tenantId)).to.deep.equal([
        ['topup', 5],
        ['api', -1],
      ]);
      const user = await app.runtime.ctx.db('messages').where({ conversation_id: id, role: 'user' }).first('id');
      expect((await ledger(tenantId).select('reference_id')).at(-1).reference_id).to.equal(user.id);
    });

    it('answers 402 with minCredits and totalBalance below the minimum, without asking the model', async () => {
      const { client, agentId } = await app.company({ credits: 0.5 });
      const id = await openConversation(client, agentId);

      const reply = await client.post(`/api/v1/conversations/${id}/messages`, { message: 'Hello' });
      const streamed = await client.stream(`/api/v1/conversations/${id}/messages`, { message: 'Hello', stream: true });

      expect(reply.status).to.equal(402);
      expect(reply.body).to.deep.include({ minCredits: 1, totalBalance: 0.5 });
      expect(reply.body.error).to.be.a('string').and.not.empty;
      expect(streamed).to.deep.include({ status: 402, events: [] });
      expect(app.model.requests).to.have.length(0);
      expect((await client.get(`/api/v1/conversations/${id}`)).body.messages).to.deep.equal([]);
    });

    it('blocks a prepaid company once its turns have spent it below the minimum', async () => {
      const { client, agentId } = await app.company({ credits: 1.2 });
      const id = await openConversation(client, agentId);
      app.model.reply({ content: 'Sure.', usage: { promptTokens: 400, completionTokens: 100 } });
      expect((await client.post(`/api/v1/conversations/${id}/messages`, { message: 'One' })).status).to.equal(200);

      const reply = await client.post(`/api/v1/conversations/${id}/messages`, { message: 'Two' });

      expect(reply.status).to.equal(402);
      expect(reply.body).to.deep.include({ minCredits: 1, totalBalance: 0.7 });
      expect(app.model.requests).to.have.length(1);
    });

    it('checks the balance when the turn runs, so a message queued behind a turn that spent it is refused', async () => {
      const { client, agentId } = await app.company({ credits: 1.2 });
      const id = await openConversation(client, agentId);
      app.model.setDefault({ content: 'Sure.', usage: { promptTokens: 400, completionTokens: 100 }, delayMs: 300 });

      const replies = await Promise.all(['One', 'Two'].map((message) => client.post(`/api/v1/conversations/${id}/messages`, { message })));

      expect(replies.map((r) => r.status).sort()).to.deep.equal([200, 402]);
      expect(app.model.requests).to.have.length(1);
    });

    it('never blocks a pay-as-you-go company, even with a negative balance, and still records its usage', async () => {
      const { client, agentId, tenantId } = await app.company();
      await addCredits(app.runtime.ctx, tenantId, -50, 'api');
      const id = await openConversation(client, agentId);
      app.model.reply({ content: 'Sure.', usage: { promptTokens: 1000, completionTokens: 1000 } });

      const reply = await client.post(`/api/v1/conversations/${id}/messages`, { message: 'Hello' });

      expect(reply.status).to.equal(200);
      expect(await ledgerEntries(tenantId)).to.deep.equal([
        ['api', -50],
        ['api', -2],
      ]);
    });
  });

  describe('company memory', () => {
    const pii = [
      'jane.doe@example.com',
      'JANE@EXAMPLE.ORG',
      '+1 (415) 555-0134',
      '415.555.0199',
      '+44 20 7946 0958',
      '4111 1111 1111 1111',
      '5500-0000-0000-0004',
      '378282246310005',
    ];
    const summary = `Jane (${pii.slice(0, 2).join(', ')}; phones ${pii.slice(2, 5).join(', ')}; cards ${pii.slice(5).join(', ')}) wants the premium plan.`;

    async function companyWithMemory() {
      const company = await app.company();
      await updateTenant(app.runtime.ctx, company.tenantId, { features: ['company_memory'] });
      return company;
    }

    async function searchMemory(client: Client, agentId: string, query: string): Promise<{ offered: string[]; found: string }> {
      const id = await openConversation(client, agentId);
      app.model.reply({ toolCalls: [{ name: 'search_company_memory', arguments: { query } }] }, { content: 'Done.' });
      const reply = await client.post(`/api/v1/conversations/${id}/messages`, { message: `What do we know about ${query}?` });
      expect(reply.status).to.equal(200);
      const [first, second] = app.model.requests.slice(-2);
      return { offered: offeredTools(first!), found: (second!.messages.at(-1) as any).content };
    }

    it('keeps a redacted summary of an ended company-scope conversation, found by search_company_memory', async () => {
      const { client, agentId, tenantId } = await companyWithMemory();
      const id = await openConversation(client, agentId, { memoryScope: 'company' });
      app.model.reply({ content: 'Noted, Jane.' });
      const said = `I am Jane, mail me at ${pii[0]} or ${pii[1]}, call ${pii.slice(2, 5).join(' or ')}, card ${pii[5]}. I want the premium plan.`;
      expect((await client.post(`/api/v1/conversations/${id}/messages`, { message: said })).status).to.equal(200);
      app.model.reply({ content: summary });

      expect((await client.post(`/api/v1/conversations/${id}/end`)).status).to.equal(200);

      const rows = await app.runtime.ctx.db('company_memories').where({ tenant_id: tenantId }).select('content', 'conversation_id');
      expect(rows).to.have.length(1);
      expect(rows[0].conversation_id).to.equal(id);
      expect(rows[0].content).to.include('premium plan');
      for (const value of pii) expect(rows[0].content).not.to.include(value);
      expect(rows[0].content).not.to.match(/\d{4}/);

      const { offered, found } = await searchMemory(client, agentId, 'premium plan');
      expect(offered).to.include('search_company_memory');
      expect(JSON.parse(found)[0].content).to.equal(rows[0].content);
    });

    it('accepts memoryScope company on a later message', async () => {
      const { client, agentId, tenantId } = await companyWithMemory();
      const id = await openConversation(client, agentId);
      expect(
        (await client.post(`/api/v1/conversations/${id}/messages`, { message: 'Remember the loyalty discount', memoryScope: 'company' }))
          .status,
      ).to.equal(200);
      app.model.reply({ content: 'The customer asked about the loyalty discount.' });

      expect((await client.post(`/api/v1/conversations/${id}/end`)).status).to.equal(200);

      const rows = await app.runtime.ctx.db('company_memories').where({ tenant_id: tenantId }).pluck('content');
      expect(rows).to.deep.equal(['The customer asked about the loyalty discount.']);
    });

    it("finds nothing in another company's memory", async () => {
      const owner = await companyWithMemory();
      const id = await openConversation(owner.client, owner.agentId, { memoryScope: 'company' });
      expect(
        (await owner.client.post(`/api/v1/conversations/${id}/messages`, { message: 'Secret roadmap: quantum toaster' })).status,
      ).to.equal(200);
      app.model.reply({ content: 'They discussed the quantum toaster roadmap.' });
      expect((await owner.client.post(`/api/v1/conversations/${id}/end`)).status).to.equal(200);
      const other = await companyWithMemory();

      const { found } = await searchMemory(other.client, other.agentId, 'quantum toaster');

      expect(found).to.equal('No company memory matches.');
      expect((await searchMemory(owner.client, owner.agentId, 'quantum toaster')).found).to.include('quantum toaster');
    });

    it('does not offer search_company_memory when the feature is off', async () => {
      const { client, agentId } = await app.company();
      const id = await openConversation(client, agentId);

      expect((await client.post(`/api/v1/conversations/${id}/messages`, { message: 'Hello' })).status).to.equal(200);

      expect(offeredTools(app.model.requests[0])).not.to.include('search_company_memory');
    });
  });

  describe('contact memory', () => {
    it('reminds the agent of what an earlier conversation with the same contact left', async () => {
      const { client, agentId } = await app.company({ systemPrompt: 'You are the assistant.' });
      const first = await createConversation(client, agentId, { contact: { externalUserId: 'cust-42', name: 'Sam' } });
      expect(
        (await client.post(`/api/v1/conversations/${first.conversationId}/messages`, { message: 'Please only email me.' })).status,
      ).to.equal(200);
      app.model.reply({ content: 'Sam prefers to be contacted by email only.' });
      expect((await client.post(`/api/v1/conversations/${first.conversationId}/end`)).status).to.equal(200);
      const second = await createConversation(client, agentId, { contact: { externalUserId: 'cust-42' } });
      expect(second.contactId).to.equal(first.contactId);

      expect((await client.post(`/api/v1/conversations/${second.conversationId}/messages`, { message: 'Hi again' })).status).to.equal(200);

      const remembers = () =>
        systemMessages(app.model.requests.at(-1)).some((m) => m.includes('Sam prefers to be contacted by email only.'));
      expect(remembers()).to.equal(true);

      // The same holds for a conversation bound late, on its first message.
      const late = await openConversation(client, agentId);
      expect((await client.post(`/api/v1/conversations/${late}/messages`, { message: 'Hi', contactId: first.contactId })).status).to.equal(
        200,
      );
      expect(remembers()).to.equal(true);
    });

    it('gives anonymous conversations no remembered context', async () => {
      const { client, agentId } = await app.company({ systemPrompt: 'You are the assistant.' });
      const known = await createConversation(client, agentId, { contact: { externalUserId: 'cust-7' } });
      expect(
        (await client.post(`/api/v1/conversations/${known.conversationId}/messages`, { message: 'Please only email me.' })).status,
      ).to.equal(200);
      app.model.reply({ content: 'The customer prefers email only.' });
      expect((await client.post(`/api/v1/conversations/${known.conversationId}/end`)).status).to.equal(200);
      const anonymous = await createConversation(client, agentId);
      expect(anonymous.contactId).to.equal(null);

      expect((await client.post(`/api/v1/conversations/${anonymous.conversationId}/messages`, { message: 'Hi again' })).status).to.equal(
        200,
      );

      expect(systemMessages(app.model.requests.at(-1))).to.deep.equal(['You are the assistant.']);
    });
  });
});
