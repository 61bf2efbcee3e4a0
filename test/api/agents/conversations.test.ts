import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { startTestApp, type Client, type HttpResult, type TestApp } from '../../support/app.js';
import { createAgent } from '../../../pkg/agent/settings.js';
import { updateTenant } from '../../../pkg/tenants/settings.js';

const CONVERSATIONS = '/api/v1/conversations';
const at = (id: string, rest = '') => `${CONVERSATIONS}/${id}${rest}`;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function expectIsoTimestamp(value: unknown): void {
  expect(value).to.be.a('string');
  expect(new Date(value as string).toISOString()).to.equal(value);
}

function expectError(res: HttpResult, status: number): void {
  expect(res.status, JSON.stringify(res.body)).to.equal(status);
  expect(res.body.error).to.be.a('string').and.not.equal('');
}

describe('Agent API conversations', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp();
  });
  after(async () => app.close());
  afterEach(() => app.model.reset());

  const db = () => app.runtime.ctx.db;

  async function open(
    client: Client,
    body: Record<string, unknown>,
  ): Promise<{ conversationId: string; contactId: number | null; agentId: string; createdAt: string }> {
    const res = await client.post(CONVERSATIONS, body);
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    return res.body;
  }

  /** A contact of the company, made the public way: a conversation with an externalUserId hint. */
  async function newContact(company: { client: Client; agentId: string }): Promise<number> {
    const { contactId } = await open(company.client, { agentId: company.agentId, contact: { externalUserId: `user-${randomUUID()}` } });
    expect(contactId).to.be.a('number');
    return contactId!;
  }

  /** Everything a client can see of a conversation. */
  const snapshot = async (client: Client, id: string) => (await client.get(at(id, '?include=all'))).body;

  /** The object in the `CONVERSATION METADATA:` system message of the model's last request. */
  function metadataSeenByModel(): unknown {
    const header = 'CONVERSATION METADATA:\n';
    const found = app.model.requests.at(-1)!.messages.find((m) => m.role === 'system' && String(m.content).startsWith(header));
    return found && JSON.parse(String(found.content).slice(header.length));
  }

  const conversationCount = async (tenantId: string) =>
    Number((await db()('conversations').where({ tenant_id: tenantId }).count({ n: '*' }).first())!.n);

  describe('POST /api/v1/conversations', () => {
    it('creates an anonymous conversation: 201 with exactly conversationId, contactId null, agentId, createdAt', async () => {
      const { client, agentId } = await app.company();
      const res = await client.post(CONVERSATIONS, { agentId });
      expect(res.status).to.equal(201);
      expect(res.body).to.have.all.keys('conversationId', 'contactId', 'agentId', 'createdAt');
      expect(res.body.conversationId).to.match(UUID);
      expect(res.body.contactId).to.equal(null);
      expect(res.body.agentId).to.equal(agentId);
      expectIsoTimestamp(res.body.createdAt);

      const read = await client.get(at(res.body.conversationId));
      expect(read.status).to.equal(200);
      expect(read.body).to.include({
        conversationId: res.body.conversationId,
        contactId: null,
        agentId,
        status: 'active',
        createdAt: res.body.createdAt,
      });
      expect(read.body.messages).to.deep.equal([]);
    });

    it('stores the session with channel api', async () => {
      const { client, agentId } = await app.company();
      const { conversationId } = await open(client, { agentId });
      expect((await db()('conversations').where({ id: conversationId }).first()).channel).to.equal('api');
    });

    it('binds a contact of the company given by contactId', async () => {
      const company = await app.company();
      const contactId = await newContact(company);
      const created = await open(company.client, { agentId: company.agentId, contactId });
      expect(created.contactId).to.equal(contactId);
      expect((await company.client.get(at(created.conversationId))).body.contactId).to.equal(contactId);
    });

    it("answers 404 for another company's contactId, and creates nothing", async () => {
      const mine = await app.company();
      const theirContact = await newContact(await app.company());
      const res = await mine.client.post(CONVERSATIONS, { agentId: mine.agentId, contactId: theirContact });
      expectError(res, 404);
      expect(await conversationCount(mine.tenantId)).to.equal(0);
    });

    it('answers 404 for an unknown contactId', async () => {
      const { client, agentId } = await app.company();
      expectError(await client.post(CONVERSATIONS, { agentId, contactId: 2_000_000_000 }), 404);
    });

    it("answers 404 for an unknown agentId and for another company's agent", async () => {
      const { client, tenantId } = await app.company();
      const theirs = await app.company();
      expectError(await client.post(CONVERSATIONS, { agentId: randomUUID() }), 404);
      expectError(await client.post(CONVERSATIONS, { agentId: theirs.agentId }), 404);
      expect(await conversationCount(tenantId)).to.equal(0);
    });

    it("accepts another company's public agent", async () => {
      const { client } = await app.company();
      const owner = await app.company();
      const shared = await createAgent(app.runtime.ctx, owner.tenantId, { name: 'Public helper', isPublic: true });
      const created = await open(client, { agentId: shared.id });
      expect(created.agentId).to.equal(shared.id);
    });

    it('answers 400 with details path agentId when creating without agentId', async () => {
      const { client, tenantId } = await app.company();
      const res = await client.post(CONVERSATIONS, { metadata: { a: 1 } });
      expectError(res, 400);
      expect(res.body.details.map((d: { path: string }) => d.path)).to.deep.equal(['agentId']);
      expect(await conversationCount(tenantId)).to.equal(0);
    });

    it('looks up or creates the contact once from contact.externalUserId', async () => {
      const { client, agentId, tenantId } = await app.company();
      const contact = { externalUserId: 'crm-42', name: 'Ada', email: 'ada@example.com' };
      const first = await open(client, { agentId, contact });
      const second = await open(client, { agentId, contact: { externalUserId: 'crm-42' } });
      expect(first.contactId).to.be.a('number');
      expect(second.contactId).to.equal(first.contactId);
      expect(second.conversationId).to.not.equal(first.conversationId);
      const stored = await db()('contacts').where({ tenant_id: tenantId });
      expect(stored).to.have.length(1);
      expect(stored[0]).to.include({ external_user_id: 'crm-42', name: 'Ada', email: 'ada@example.com' });
    });

    it('creates exactly one contact when ten first requests with the same externalUserId arrive together', async () => {
      const { client, agentId, tenantId } = await app.company();
      const results = await Promise.all(
        Array.from({ length: 10 }, () => client.post(CONVERSATIONS, { agentId, contact: { externalUserId: 'burst-1' } })),
      );
      expect(results.map((r) => r.status)).to.deep.equal(Array(10).fill(201));
      expect(new Set(results.map((r) => r.body.contactId)).size).to.equal(1);
      expect(await db()('contacts').where({ tenant_id: tenantId })).to.have.length(1);
    });

    it('keeps contacts of the same externalUserId apart per company', async () => {
      const a = await app.company();
      const b = await app.company();
      const inA = await open(a.client, { agentId: a.agentId, contact: { externalUserId: 'shared-id' } });
      const inB = await open(b.client, { agentId: b.agentId, contact: { externalUserId: 'shared-id' } });
      expect(inA.contactId).to.not.equal(inB.contactId);
    });

    it('gives contacts integer ids that tell nothing of how many there are: safe integers, drawn apart, not in sequence', async () => {
      const { client, agentId } = await app.company();
      const ids: number[] = [];
      for (let i = 0; i < 5; i++) ids.push((await open(client, { agentId, contact: { externalUserId: `drawn-${i}` } })).contactId!);
      for (const id of ids) expect(Number.isSafeInteger(id) && id > 0, String(id)).to.equal(true);
      // From one sequence they would be close together, each the one before plus one.
      expect(Math.max(...ids) - Math.min(...ids)).to.be.greaterThan(1_000_000);
      const bound = await open(client, { agentId, contactId: ids[0] });
      expect(bound.contactId).to.equal(ids[0]);
    });

    it('finds the oldest of the contacts a phone hint matches', async () => {
      const { client, agentId } = await app.company();
      const first = await open(client, { agentId, contact: { externalUserId: 'older', phone: '+14155552673' } });
      // The oldest by creation time: the second is made in a later millisecond.
      await new Promise((resolve) => setTimeout(resolve, 5));
      await open(client, { agentId, contact: { externalUserId: 'newer', phone: '+14155552673' } });
      expect((await open(client, { agentId, contact: { phone: '+14155552673' } })).contactId).to.equal(first.contactId);
    });

    it('normalizes a phone hint to E.164 and finds the contact by it', async () => {
      const { client, agentId, tenantId } = await app.company();
      const known = await open(client, { agentId, contact: { externalUserId: 'crm-phone', phone: '+1 (415) 555-2671' } });
      const found = await open(client, { agentId, contact: { phone: '+14155552671' } });
      expect(found.contactId).to.equal(known.contactId);
      const stored = await db()('contacts').where({ tenant_id: tenantId });
      expect(stored.map((c) => c.phone)).to.deep.equal(['+14155552671']);
    });

    it('finds a contact by its email hint', async () => {
      const { client, agentId } = await app.company();
      const known = await open(client, { agentId, contact: { externalUserId: 'crm-bob', email: 'bob@example.com', name: 'Bob' } });
      const found = await open(client, { agentId, contact: { email: 'bob@example.com' } });
      expect(found.contactId).to.equal(known.contactId);
    });

    it('creates no contact from a phone or email alone that matches none: the conversation stays anonymous', async () => {
      const { client, agentId, tenantId } = await app.company();
      const byPhone = await open(client, { agentId, contact: { phone: '+14155552672', name: 'Pat' } });
      const byEmail = await open(client, { agentId, contact: { email: 'nobody@example.com' } });
      const both = await open(client, { agentId, contact: { phone: '+14155552672', email: 'nobody@example.com' } });
      expect([byPhone.contactId, byEmail.contactId, both.contactId]).to.deep.equal([null, null, null]);
      const resumed = await client.post(CONVERSATIONS, { conversationId: byPhone.conversationId, contact: { phone: '+14155552672' } });
      expect(resumed.status).to.equal(200);
      expect(resumed.body.contactId).to.equal(null);
      expect(await db()('contacts').where({ tenant_id: tenantId })).to.have.length(0);
    });

    it('stores customSystemMessage and metadata, visible on GET and given to the model', async () => {
      const { client, agentId } = await app.company();
      const metadata = { orderId: 'A-17', vip: true };
      const { conversationId } = await open(client, { agentId, customSystemMessage: 'Answer in French.', metadata });
      const read = await client.get(at(conversationId));
      expect(read.body.metadata).to.deep.equal(metadata);
      expect(read.body.customSystemMessage).to.equal('Answer in French.');

      expect((await client.post(at(conversationId, '/messages'), { message: 'Hi' })).status).to.equal(200);
      const system = app.model.requests
        .at(-1)!
        .messages.filter((m) => m.role === 'system')
        .map((m) => m.content);
      expect(system).to.include('Answer in French.');
      expect(metadataSeenByModel()).to.deep.equal(metadata);
    });

    it('answers 503 for memoryScope company while the company memory feature is off, and 201 once it is on', async () => {
      const { client, agentId, tenantId } = await app.company();
      expectError(await client.post(CONVERSATIONS, { agentId, memoryScope: 'company' }), 503);
      expect(await conversationCount(tenantId)).to.equal(0);

      await updateTenant(app.runtime.ctx, tenantId, { features: ['company_memory'] });
      const { conversationId } = await open(client, { agentId, memoryScope: 'company' });
      expect((await db()('conversations').where({ id: conversationId }).first()).memory_scope).to.equal('company');
    });
  });

  describe('POST /api/v1/conversations with conversationId (resume)', () => {
    it('answers 200 with the same ids', async () => {
      const company = await app.company();
      const contactId = await newContact(company);
      const created = await open(company.client, { agentId: company.agentId, contactId });
      for (const body of [
        { conversationId: created.conversationId },
        { conversationId: created.conversationId, agentId: company.agentId },
      ]) {
        const resumed = await company.client.post(CONVERSATIONS, body);
        expect(resumed.status).to.equal(200);
        expect(resumed.body).to.deep.equal(created);
      }
    });

    it('binds a contact while the conversation is unbound (late bind)', async () => {
      const company = await app.company();
      const contactId = await newContact(company);
      const { conversationId } = await open(company.client, { agentId: company.agentId });
      const resumed = await company.client.post(CONVERSATIONS, { conversationId, contactId });
      expect(resumed.status).to.equal(200);
      expect(resumed.body.contactId).to.equal(contactId);
      expect((await company.client.get(at(conversationId))).body.contactId).to.equal(contactId);
      // Naming the bound contact again is not a change.
      expect((await company.client.post(CONVERSATIONS, { conversationId, contactId })).status).to.equal(200);
    });

    it('lets exactly one of two concurrent late binds to different contacts win', async () => {
      const company = await app.company();
      const [first, second] = [await newContact(company), await newContact(company)];
      const { conversationId } = await open(company.client, { agentId: company.agentId });
      const results = await Promise.all(
        [first, second].map((contactId) => company.client.post(CONVERSATIONS, { conversationId, contactId })),
      );
      expect(results.map((r) => r.status).sort()).to.deep.equal([200, 409]);
      const winner = results.find((r) => r.status === 200)!.body.contactId;
      expect((await company.client.get(at(conversationId))).body.contactId).to.equal(winner);
    });

    it('answers 409 when the conversation is bound to a different contact, and changes nothing', async () => {
      const company = await app.company();
      const bound = await newContact(company);
      const other = await newContact(company);
      const { conversationId } = await open(company.client, { agentId: company.agentId, contactId: bound });
      const before = await snapshot(company.client, conversationId);
      expectError(await company.client.post(CONVERSATIONS, { conversationId, contactId: other, metadata: { x: 1 } }), 409);
      expect(await snapshot(company.client, conversationId)).to.deep.equal(before);
    });

    it('answers 409 to contact hints naming a different contact, and creates no contact', async () => {
      const company = await app.company();
      const bound = await newContact(company);
      const { conversationId } = await open(company.client, { agentId: company.agentId, contactId: bound });
      const contacts = async () => (await db()('contacts').where({ tenant_id: company.tenantId })).length;
      const before = await contacts();
      expectError(await company.client.post(CONVERSATIONS, { conversationId, contact: { externalUserId: `new-${randomUUID()}` } }), 409);
      expect(await contacts()).to.equal(before);
      expect((await company.client.get(at(conversationId))).body.contactId).to.equal(bound);
    });

    it("answers 409 when agentId is not the conversation's agent", async () => {
      const company = await app.company();
      const second = await createAgent(app.runtime.ctx, company.tenantId, { name: 'Second' });
      const { conversationId } = await open(company.client, { agentId: company.agentId });
      expectError(await company.client.post(CONVERSATIONS, { conversationId, agentId: second.id }), 409);
    });

    it("answers 403 for another company's conversation", async () => {
      const owner = await app.company();
      const other = await app.company();
      const { conversationId } = await open(owner.client, { agentId: owner.agentId });
      expectError(await other.client.post(CONVERSATIONS, { conversationId }), 403);
      expectError(await other.client.post(CONVERSATIONS, { conversationId, agentId: other.agentId }), 403);
    });

    it('answers 404 for an unknown conversationId', async () => {
      const { client, agentId } = await app.company();
      expectError(await client.post(CONVERSATIONS, { conversationId: randomUUID() }), 404);
      expectError(await client.post(CONVERSATIONS, { conversationId: randomUUID(), agentId }), 404);
    });

    it('answers 404 for a session that is not on the API channel, on every endpoint', async () => {
      const { client, agentId } = await app.company();
      const { conversationId } = await open(client, { agentId });
      // Sessions of other channels are made by other parts of the platform; this one is re-labelled.
      await db()('conversations').where({ id: conversationId }).update({ channel: 'web' });
      expectError(await client.post(CONVERSATIONS, { conversationId }), 404);
      expectError(await client.get(at(conversationId)), 404);
      expectError(await client.post(at(conversationId, '/messages'), { message: 'Hi' }), 404);
      expectError(await client.patch(at(conversationId, '/metadata'), { metadata: {} }), 404);
      expectError(await client.post(at(conversationId, '/manual'), { message: 'Hi' }), 404);
      expectError(await client.post(at(conversationId, '/end')), 404);
      expect(app.model.requests).to.have.length(0);
    });
  });

  describe('POST /api/v1/conversations/:conversationId/messages with contactId (late bind)', () => {
    it('binds the contact while the conversation is unbound', async () => {
      const company = await app.company();
      const contactId = await newContact(company);
      const { conversationId } = await open(company.client, { agentId: company.agentId });
      const reply = await company.client.post(at(conversationId, '/messages'), { message: 'Hi', contactId });
      expect(reply.status).to.equal(200);
      expect(reply.body.contactId).to.equal(contactId);
      expect((await company.client.get(at(conversationId))).body.contactId).to.equal(contactId);
    });

    it('answers 409 when bound to a different contact, without storing the message or asking the model', async () => {
      const company = await app.company();
      const [bound, other] = [await newContact(company), await newContact(company)];
      const { conversationId } = await open(company.client, { agentId: company.agentId, contactId: bound });
      const before = await snapshot(company.client, conversationId);
      expectError(await company.client.post(at(conversationId, '/messages'), { message: 'Hi', contactId: other }), 409);
      expect(await snapshot(company.client, conversationId)).to.deep.equal(before);
      expect(app.model.requests).to.have.length(0);
    });

    it("answers 404 for another company's contactId, leaving the conversation unbound", async () => {
      const company = await app.company();
      const theirs = await newContact(await app.company());
      const { conversationId } = await open(company.client, { agentId: company.agentId });
      expectError(await company.client.post(at(conversationId, '/messages'), { message: 'Hi', contactId: theirs }), 404);
      const read = (await company.client.get(at(conversationId))).body;
      expect(read.contactId).to.equal(null);
      expect(read.messages).to.deep.equal([]);
    });

    it('answers 409 when the conversation has ended', async () => {
      const company = await app.company();
      const contactId = await newContact(company);
      const { conversationId } = await open(company.client, { agentId: company.agentId });
      expect((await company.client.post(at(conversationId, '/end'))).status).to.equal(200);
      expectError(await company.client.post(at(conversationId, '/messages'), { message: 'Hi', contactId }), 409);
      expect((await company.client.get(at(conversationId))).body.contactId).to.equal(null);
    });
  });

  describe('PATCH /api/v1/conversations/:conversationId/metadata', () => {
    it('replaces metadata wholesale and answers 200 {conversationId, metadata, updatedAt}, without an AI response', async () => {
      const { client, agentId } = await app.company();
      const { conversationId, createdAt } = await open(client, {
        agentId,
        metadata: { a: 1, b: { c: 2 } },
        customSystemMessage: 'Be brief.',
      });
      const res = await client.patch(at(conversationId, '/metadata'), { metadata: { b: 3 } });
      expect(res.status).to.equal(200);
      expect(res.body).to.have.all.keys('conversationId', 'metadata', 'updatedAt');
      expect(res.body).to.include({ conversationId });
      expect(res.body.metadata).to.deep.equal({ b: 3 });
      expectIsoTimestamp(res.body.updatedAt);
      expect(res.body.updatedAt >= createdAt).to.equal(true);
      expect(app.model.requests).to.have.length(0);

      const read = await client.get(at(conversationId));
      expect(read.body.metadata).to.deep.equal({ b: 3 });
      expect(read.body.customSystemMessage).to.equal('Be brief.');
      expect(read.body.messages).to.deep.equal([]);

      await client.post(at(conversationId, '/messages'), { message: 'Hi' });
      expect(metadataSeenByModel()).to.deep.equal({ b: 3 });
    });

    it('replaces customSystemMessage when present and leaves it untouched when omitted', async () => {
      const { client, agentId } = await app.company();
      const { conversationId } = await open(client, { agentId, customSystemMessage: 'First.' });
      await client.patch(at(conversationId, '/metadata'), { metadata: {}, customSystemMessage: 'Second.' });
      expect((await client.get(at(conversationId))).body.customSystemMessage).to.equal('Second.');
      await client.patch(at(conversationId, '/metadata'), { metadata: { k: 'v' } });
      const read = await client.get(at(conversationId));
      expect(read.body.customSystemMessage).to.equal('Second.');
      expect(read.body.metadata).to.deep.equal({ k: 'v' });
    });

    it('answers 400 when metadata is missing, and changes nothing', async () => {
      const { client, agentId } = await app.company();
      const { conversationId } = await open(client, { agentId, metadata: { a: 1 }, customSystemMessage: 'Keep.' });
      const res = await client.patch(at(conversationId, '/metadata'), { customSystemMessage: 'Changed.' });
      expectError(res, 400);
      expect(res.body.details.map((d: { path: string }) => d.path)).to.deep.equal(['metadata']);
      const read = await client.get(at(conversationId));
      expect(read.body.metadata).to.deep.equal({ a: 1 });
      expect(read.body.customSystemMessage).to.equal('Keep.');
    });

    it('answers 409 when the conversation has ended, and changes nothing', async () => {
      const { client, agentId } = await app.company();
      const { conversationId } = await open(client, { agentId, metadata: { a: 1 } });
      await client.post(at(conversationId, '/end'));
      expectError(await client.patch(at(conversationId, '/metadata'), { metadata: { a: 2 }, customSystemMessage: 'New.' }), 409);
      const read = await client.get(at(conversationId));
      expect(read.body.metadata).to.deep.equal({ a: 1 });
      expect(read.body.customSystemMessage).to.equal(null);
    });
  });

  describe('POST /api/v1/conversations/:conversationId/manual', () => {
    it('answers 201 {conversationId, messageId, addedBy, timestamp}', async () => {
      const { client, agentId } = await app.company();
      const { conversationId } = await open(client, { agentId });
      const res = await client.post(at(conversationId, '/manual'), { message: 'Order shipped today.', username: 'alice' });
      expect(res.status).to.equal(201);
      expect(res.body).to.have.all.keys('conversationId', 'messageId', 'addedBy', 'timestamp');
      expect(res.body).to.include({ conversationId, addedBy: 'alice' });
      expect(res.body.messageId).to.match(UUID);
      expectIsoTimestamp(res.body.timestamp);
    });

    it('names the author admin when username is omitted or blank', async () => {
      const { client, agentId } = await app.company();
      const { conversationId } = await open(client, { agentId });
      for (const body of [{ message: 'one' }, { message: 'two', username: '' }, { message: 'three', username: '   ' }]) {
        const res = await client.post(at(conversationId, '/manual'), body);
        expect(res.status).to.equal(201);
        expect(res.body.addedBy).to.equal('admin');
      }
      const { messages } = (await client.get(at(conversationId))).body;
      expect(messages.map((m: { metadata: { username: string } }) => m.metadata.username)).to.deep.equal(['admin', 'admin', 'admin']);
    });

    it('answers 400 for a username longer than 120 characters, and stores nothing', async () => {
      const { client, agentId } = await app.company();
      const { conversationId } = await open(client, { agentId });
      const res = await client.post(at(conversationId, '/manual'), { message: 'Hi', username: 'u'.repeat(121) });
      expectError(res, 400);
      expect(res.body.details.map((d: { path: string }) => d.path)).to.deep.equal(['username']);
      expect((await client.get(at(conversationId, '?include=all'))).body.messages).to.deep.equal([]);
    });

    it('makes no AI call and consumes no credits', async () => {
      const { client, agentId, tenantId } = await app.company({ credits: 100 });
      const { conversationId } = await open(client, { agentId });
      const ledger = () => db()('credit_ledger').where({ tenant_id: tenantId }).orderBy('id');
      const before = await ledger();
      expect((await client.post(at(conversationId, '/manual'), { message: 'A note from the CRM', username: 'crm' })).status).to.equal(201);
      expect(app.model.requests).to.have.length(0);
      expect(await ledger()).to.deep.equal(before);
    });

    it('shows an admin entry with metadata.username and metadata.source manual on GET', async () => {
      const { client, agentId } = await app.company();
      const { conversationId } = await open(client, { agentId });
      const added = await client.post(at(conversationId, '/manual'), {
        message: 'Refund approved.',
        username: 'alice',
        metadata: { ticket: 'T-9' },
      });
      const { messages } = (await client.get(at(conversationId))).body;
      expect(messages).to.deep.equal([
        {
          role: 'admin',
          content: 'Refund approved.',
          timestamp: added.body.timestamp,
          metadata: { ticket: 'T-9', username: 'alice', source: 'manual' },
        },
      ]);
    });

    it('shows the message to the model on the next turn as [ADMIN MESSAGE - <username>] <text>', async () => {
      const { client, agentId } = await app.company();
      const { conversationId } = await open(client, { agentId });
      await client.post(at(conversationId, '/manual'), { message: 'Refund approved.', username: 'alice' });
      await client.post(at(conversationId, '/manual'), { message: 'Call back tomorrow.' });
      expect((await client.post(at(conversationId, '/messages'), { message: 'Any news?' })).status).to.equal(200);
      const history = app.model.requests.at(-1)!.messages.filter((m) => m.role !== 'system');
      expect(history).to.deep.equal([
        { role: 'user', content: '[ADMIN MESSAGE - alice] Refund approved.' },
        { role: 'user', content: '[ADMIN MESSAGE - admin] Call back tomorrow.' },
        { role: 'user', content: 'Any news?' },
      ]);
    });

    it('answers 409 when the conversation has ended, and stores nothing', async () => {
      const { client, agentId } = await app.company();
      const { conversationId } = await open(client, { agentId });
      await client.post(at(conversationId, '/end'));
      expectError(await client.post(at(conversationId, '/manual'), { message: 'Too late' }), 409);
      expect((await client.get(at(conversationId))).body.messages).to.deep.equal([]);
    });
  });

  describe('GET /api/v1/conversations/:conversationId', () => {
    /** A conversation holding an admin note, a user message, a tool run and the final answer. */
    async function withToolRun(client: Client, agentId: string): Promise<string> {
      const { conversationId } = await open(client, { agentId });
      await client.post(at(conversationId, '/manual'), { message: 'VIP customer', username: 'alice' });
      app.model.reply({ toolCalls: [{ name: 'lookup_order', arguments: { orderId: 'A-17' } }] }, { content: 'Your order is on its way.' });
      const reply = await client.post(at(conversationId, '/messages'), { message: 'Where is my order?' });
      expect(reply.status).to.equal(200);
      expect(reply.body.toolCalls).to.deep.equal(['lookup_order']);
      return conversationId;
    }

    it('lists only user, assistant and admin entries by default, each with role, content and timestamp', async () => {
      const { client, agentId } = await app.company();
      const conversationId = await withToolRun(client, agentId);
      const read = await client.get(at(conversationId));
      expect(read.status).to.equal(200);
      expect(read.body).to.include.all.keys('conversationId', 'contactId', 'agentId', 'status', 'createdAt', 'messages');
      const { messages } = read.body;
      expect(messages.map((m: { role: string; content: string }) => [m.role, m.content])).to.deep.equal([
        ['admin', 'VIP customer'],
        ['user', 'Where is my order?'],
        ['assistant', 'Your order is on its way.'],
      ]);
      expect(messages[1]).to.have.all.keys('role', 'content', 'timestamp');
      expect(messages[2]).to.have.all.keys('role', 'content', 'timestamp');
      for (const m of messages) expectIsoTimestamp(m.timestamp);
    });

    it('adds system and tool entries with ?include=all', async () => {
      const { client, agentId } = await app.company();
      const conversationId = await withToolRun(client, agentId);
      // No conversation endpoint stores a system entry (job replies do); one is written directly.
      await db()('messages').insert({
        id: randomUUID(),
        conversation_id: conversationId,
        role: 'system',
        content: 'HUMAN REPLY (approved): go',
        created_at: new Date(),
      });
      const { messages } = (await client.get(at(conversationId, '?include=all'))).body;
      expect(messages.map((m: { role: string }) => m.role)).to.deep.equal(['admin', 'user', 'assistant', 'tool', 'assistant', 'system']);
      expect(messages[3].content).to.contain('lookup_order');
      expect(messages[5].content).to.equal('HUMAN REPLY (approved): go');
      for (const m of messages) expectIsoTimestamp(m.timestamp);
      // The default view still leaves them out.
      expect((await client.get(at(conversationId))).body.messages.map((m: { role: string }) => m.role)).to.deep.equal([
        'admin',
        'user',
        'assistant',
      ]);
    });

    it('answers 400 for an include other than all', async () => {
      const { client, agentId } = await app.company();
      const { conversationId } = await open(client, { agentId });
      const res = await client.get(at(conversationId, '?include=tools'));
      expectError(res, 400);
      expect(res.body.details.map((d: { path: string }) => d.path)).to.deep.equal(['include']);
    });

    it("answers 404 for an unknown or malformed id and 403 for another company's conversation", async () => {
      const owner = await app.company();
      const other = await app.company();
      const { conversationId } = await open(owner.client, { agentId: owner.agentId });
      expectError(await owner.client.get(at(randomUUID())), 404);
      expectError(await owner.client.get(at('not-a-uuid')), 404);
      expectError(await other.client.get(at(conversationId)), 403);
    });
  });

  describe('POST /api/v1/conversations/:conversationId/end', () => {
    it('answers 200 {conversationId, status: ended} and keeps the transcript readable', async () => {
      const { client, agentId } = await app.company();
      const { conversationId } = await open(client, { agentId });
      await client.post(at(conversationId, '/messages'), { message: 'Hi' });
      const before = (await client.get(at(conversationId))).body;

      const res = await client.post(at(conversationId, '/end'));
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal({ conversationId, status: 'ended' });
      const after = await client.get(at(conversationId));
      expect(after.status).to.equal(200);
      expect(after.body.status).to.equal('ended');
      expect(after.body.messages).to.deep.equal(before.messages);
    });

    it('then answers 409 to a message, a manual message, a metadata update and a late bind, changing nothing', async () => {
      const company = await app.company();
      const { client, agentId } = company;
      const contactId = await newContact(company);
      const { conversationId } = await open(client, { agentId, metadata: { a: 1 } });
      await client.post(at(conversationId, '/messages'), { message: 'Hi' });
      await client.post(at(conversationId, '/end'));
      const before = await snapshot(client, conversationId);
      const modelCalls = app.model.requests.length;

      expectError(await client.post(at(conversationId, '/messages'), { message: 'Hello?' }), 409);
      expectError(await client.post(at(conversationId, '/manual'), { message: 'Note' }), 409);
      expectError(await client.patch(at(conversationId, '/metadata'), { metadata: { a: 2 } }), 409);
      expectError(await client.post(CONVERSATIONS, { conversationId, contactId }), 409);

      expect(await snapshot(client, conversationId)).to.deep.equal(before);
      expect(app.model.requests).to.have.length(modelCalls);
    });

    it('answers 200 when ended twice', async () => {
      const { client, agentId } = await app.company();
      const { conversationId } = await open(client, { agentId });
      expect((await client.post(at(conversationId, '/end'))).status).to.equal(200);
      const again = await client.post(at(conversationId, '/end'));
      expect(again.status).to.equal(200);
      expect(again.body).to.deep.equal({ conversationId, status: 'ended' });
    });

    it("answers 404 for an unknown conversation and 403 for another company's", async () => {
      const owner = await app.company();
      const other = await app.company();
      const { conversationId } = await open(owner.client, { agentId: owner.agentId });
      expectError(await owner.client.post(at(randomUUID(), '/end')), 404);
      expectError(await other.client.post(at(conversationId, '/end')), 403);
      expect((await owner.client.get(at(conversationId))).body.status).to.equal('active');
    });
  });
});
