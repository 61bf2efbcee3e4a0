import { expect } from 'chai';
import { createConversation, openConversation, type Client, type TestApp } from '../../support/app.js';
import { startJobsApp } from '../../support/triggers.js';

// Controllers off: each job stays where its request put it; what is checked is the conversation it binds.
describe('A job created with contactId or contact hints (agent-api.md "POST /api/v1/triggers", "Contact rules")', () => {
  let app: TestApp;
  let client: Client;
  let agentId: string;
  let other: { client: Client; agentId: string };
  before(async () => {
    app = await startJobsApp();
    ({ client, agentId } = await app.company());
    other = await app.company();
  });
  after(async () => app.close());

  /** The contact id of company `of`'s contact with `externalUserId`, made through a conversation. */
  async function contactOf(of: { client: Client; agentId: string }, externalUserId: string): Promise<number> {
    return (await createConversation(of.client, of.agentId, { contact: { externalUserId } })).contactId!;
  }
  const conversation = async (id: string) => (await client.get(`/api/v1/conversations/${id}`)).body;
  const jobsOn = async (id: string) => (await client.get(`/api/v1/conversations/${id}/triggers`)).body.total;
  const trigger = (body: Record<string, unknown>) => client.post('/api/v1/triggers', { task: 'Confirm the delivery date', ...body });

  it('binds the new conversation of a job to the company contact its contactId names', async () => {
    const contactId = await contactOf({ client, agentId }, 'crm-ann');
    const res = await trigger({ agentId, contactId });
    expect(res.status, JSON.stringify(res.body)).to.equal(202);
    expect(await conversation(res.body.conversationId)).to.include({ contactId, agentId, jobId: res.body.triggerId });
  });

  it('creates the contact of a new externalUserId once, and finds it again for the next job', async () => {
    const first = await trigger({ agentId, contact: { externalUserId: 'crm-bob', name: 'Bob', email: 'bob@example.com' } });
    expect(first.status, JSON.stringify(first.body)).to.equal(202);
    const contactId = (await conversation(first.body.conversationId)).contactId;
    expect(contactId).to.be.a('number');
    const second = await trigger({ agentId, contact: { externalUserId: 'crm-bob' } });
    expect((await conversation(second.body.conversationId)).contactId).to.equal(contactId);
    // A phone or email alone finds that contact; one nobody has leaves the conversation anonymous (DECISIONS.md "Contacts from hints").
    const byEmail = await trigger({ agentId, contact: { email: 'bob@example.com' } });
    expect((await conversation(byEmail.body.conversationId)).contactId).to.equal(contactId);
    const unknown = await trigger({ agentId, contact: { email: 'nobody@example.com' } });
    expect(unknown.status).to.equal(202);
    expect((await conversation(unknown.body.conversationId)).contactId).to.equal(null);
  });

  it('binds an existing anonymous conversation to the contact (late bind), and takes the same contact again', async () => {
    const id = await openConversation(client, agentId);
    const contactId = await contactOf({ client, agentId }, 'crm-cy');
    const res = await trigger({ conversationId: id, contactId });
    expect([res.status, res.body.conversationId]).to.deep.equal([202, id]);
    expect((await conversation(id)).contactId).to.equal(contactId);
    const again = await trigger({ conversationId: id, contact: { externalUserId: 'crm-cy' } });
    expect(again.status, JSON.stringify(again.body)).to.equal(202);
    expect(await jobsOn(id)).to.equal(2);
  });

  it('answers 409 for a contact other than the one the conversation is bound to, by contactId or hints, creating no job', async () => {
    const id = await openConversation(client, agentId, { contact: { externalUserId: 'crm-di' } });
    const bound = (await conversation(id)).contactId;
    const another = await contactOf({ client, agentId }, 'crm-ed');
    for (const body of [
      { contactId: another },
      { contact: { externalUserId: 'crm-ed' } },
      { contact: { externalUserId: 'crm-new-fay' } },
    ]) {
      const res = await trigger({ conversationId: id, ...body });
      expect(res.status, JSON.stringify(body)).to.equal(409);
      expect(res.body.error).to.match(/different contact/);
    }
    expect(await jobsOn(id)).to.equal(0);
    expect((await conversation(id)).contactId).to.equal(bound);
  });

  it("answers 404 for another company's contactId, on a new or an existing conversation, creating no job, conversation or binding", async () => {
    const theirs = await contactOf(other, 'their-gus');
    const id = await openConversation(client, agentId);
    const conversationsBefore = await app.runtime.ctx.db('conversations').count({ n: '*' }).first();
    const onNew = await trigger({ agentId, contactId: theirs });
    expect(onNew.status, JSON.stringify(onNew.body)).to.equal(404);
    expect(await app.runtime.ctx.db('conversations').count({ n: '*' }).first()).to.deep.equal(conversationsBefore);
    const onExisting = await trigger({ conversationId: id, contactId: theirs });
    expect(onExisting.status, JSON.stringify(onExisting.body)).to.equal(404);
    expect(await jobsOn(id)).to.equal(0);
    expect((await conversation(id)).contactId).to.equal(null);
    // Their externalUserId is not theirs to reach: in this company it is a new contact.
    const hinted = await trigger({ agentId, contact: { externalUserId: 'their-gus' } });
    expect((await conversation(hinted.body.conversationId)).contactId)
      .to.be.a('number')
      .and.not.equal(theirs);
  });
});
