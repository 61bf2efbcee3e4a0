import { expect } from 'chai';
import { startTestApp, type Client, type HttpResult, type TestApp } from '../../support/app.js';
import { balance } from '../../../pkg/store/credits.js';

const CONVERSATIONS = '/api/v1/conversations';
const at = (id: string, rest = '') => `${CONVERSATIONS}/${id}${rest}`;
const chars = (n: number) => 'x'.repeat(n);

/** 400 in the Agent API's validation shape, naming exactly these fields. */
function expectInvalid(res: HttpResult, paths: string[]): void {
  expect(res.status, JSON.stringify(res.body)).to.equal(400);
  expect(res.body).to.have.all.keys('error', 'details');
  expect(res.body.error).to.be.a('string').and.not.equal('');
  expect(res.body.details).to.be.an('array');
  for (const d of res.body.details) {
    expect(d).to.have.all.keys('path', 'message');
    expect(d.path).to.be.a('string');
    expect(d.message).to.be.a('string').and.not.equal('');
  }
  expect([...new Set(res.body.details.map((d: { path: string }) => d.path))].sort()).to.deep.equal([...paths].sort());
}

const tool = (overrides: Record<string, unknown> = {}) => ({
  name: 'lookup',
  description: 'Look an order up',
  url: 'https://tools.example.com/orders/{id}',
  method: 'GET',
  parameters: [{ name: 'id', type: 'string', required: true }],
  ...overrides,
});

describe('Agent API request validation', () => {
  let app: TestApp;
  let client: Client;
  let agentId: string;
  let tenantId: string;
  before(async () => {
    app = await startTestApp();
    ({ client, agentId, tenantId } = await app.company());
  });
  after(async () => app.close());
  afterEach(() => app.model.reset());

  async function open(body: Record<string, unknown> = {}): Promise<string> {
    const res = await client.post(CONVERSATIONS, { agentId, ...body });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    return res.body.conversationId;
  }

  /** Everything a client can see of a conversation. */
  const snapshot = async (id: string) => (await client.get(at(id, '?include=all'))).body;

  const conversationCount = async () =>
    Number((await app.runtime.ctx.db('conversations').where({ tenant_id: tenantId }).count({ n: '*' }).first())!.n);

  describe('POST /api/v1/conversations', () => {
    it('accepts customSystemMessage of 1 and 8000 characters and refuses 8001 or empty', async () => {
      for (const n of [1, 8000]) {
        const id = await open({ customSystemMessage: chars(n) });
        expect((await client.get(at(id))).body.customSystemMessage).to.have.length(n);
      }
      const count = await conversationCount();
      expectInvalid(await client.post(CONVERSATIONS, { agentId, customSystemMessage: chars(8001) }), ['customSystemMessage']);
      expectInvalid(await client.post(CONVERSATIONS, { agentId, customSystemMessage: '' }), ['customSystemMessage']);
      expect(await conversationCount()).to.equal(count);
    });

    it('refuses a contactId that is not a positive integer', async () => {
      const count = await conversationCount();
      for (const contactId of [1.5, '7', 0, -3, null, true]) {
        expectInvalid(await client.post(CONVERSATIONS, { agentId, contactId }), ['contactId']);
      }
      expect(await conversationCount()).to.equal(count);
    });

    it('refuses ids that are not UUIDs', async () => {
      expectInvalid(await client.post(CONVERSATIONS, { agentId: 'agent-1' }), ['agentId']);
      // The conversationId field is typed UUID: a malformed one is an invalid body, not an unknown conversation.
      expectInvalid(await client.post(CONVERSATIONS, { conversationId: 'not-a-uuid' }), ['conversationId']);
    });

    it('refuses invalid contact hints with dotted paths', async () => {
      const count = await conversationCount();
      expectInvalid(await client.post(CONVERSATIONS, { agentId, contact: { email: 'not-an-email' } }), ['contact.email']);
      expectInvalid(await client.post(CONVERSATIONS, { agentId, contact: { phone: 'call me maybe' } }), ['contact.phone']);
      expectInvalid(await client.post(CONVERSATIONS, { agentId, contact: { externalUserId: '' } }), ['contact.externalUserId']);
      expectInvalid(await client.post(CONVERSATIONS, { agentId, contact: { externalUserId: 'u1', crmId: 9 } }), ['contact.crmId']);
      expectInvalid(await client.post(CONVERSATIONS, { agentId, contact: 'u1' }), ['contact']);
      expect(await conversationCount()).to.equal(count);
      expect(await app.runtime.ctx.db('contacts').where({ tenant_id: tenantId })).to.have.length(0);
    });

    it('refuses metadata that is not an object and an unknown memoryScope', async () => {
      for (const metadata of [[1, 2], 'x', null, 7]) {
        expectInvalid(await client.post(CONVERSATIONS, { agentId, metadata }), ['metadata']);
      }
      expectInvalid(await client.post(CONVERSATIONS, { agentId, memoryScope: 'personal' }), ['memoryScope']);
    });

    it('refuses unknown body fields, naming each', async () => {
      const count = await conversationCount();
      expectInvalid(await client.post(CONVERSATIONS, { agentId, companyId: 'tnt_1', systemPrompt: 'Obey me' }), [
        'companyId',
        'systemPrompt',
      ]);
      expect(await conversationCount()).to.equal(count);
    });

    it('refuses an unknown field holding a very large array with 400, not 500', async () => {
      const count = await conversationCount();
      expectInvalid(await client.post(CONVERSATIONS, { agentId, pad: new Array(200_000).fill(0) }), ['pad']);
      expect(await conversationCount()).to.equal(count);
    });

    it('lists every invalid field at once', async () => {
      const res = await client.post(CONVERSATIONS, { agentId: 'x', customSystemMessage: '', contact: { email: 'y' } });
      expectInvalid(res, ['agentId', 'customSystemMessage', 'contact.email']);
    });
  });

  describe('POST /api/v1/conversations/:conversationId/messages', () => {
    it('accepts a message of 1 and 32000 characters', async () => {
      const id = await open();
      for (const n of [1, 32000]) {
        const res = await client.post(at(id, '/messages'), { message: chars(n) });
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
      }
      const users = (await client.get(at(id))).body.messages.filter((m: { role: string }) => m.role === 'user');
      expect(users.map((m: { content: string }) => m.content.length)).to.deep.equal([1, 32000]);
    });

    it('refuses a message of 32001 characters, an empty one, a missing one or a non-string, changing nothing', async () => {
      const id = await open();
      const before = await snapshot(id);
      for (const body of [{ message: chars(32001) }, { message: '' }, {}, { message: 42 }]) {
        expectInvalid(await client.post(at(id, '/messages'), body), ['message']);
      }
      expect(await snapshot(id)).to.deep.equal(before);
      expect(app.model.requests).to.have.length(0);
    });

    it('accepts a turn customSystemMessage of 8000 characters and refuses 8001 or empty', async () => {
      const id = await open();
      expect((await client.post(at(id, '/messages'), { message: 'Hi', customSystemMessage: chars(8000) })).status).to.equal(200);
      const system = app.model.requests
        .at(-1)!
        .messages.filter((m) => m.role === 'system')
        .map((m) => m.content);
      expect(system).to.include(chars(8000));
      const before = await snapshot(id);
      expectInvalid(await client.post(at(id, '/messages'), { message: 'Hi', customSystemMessage: chars(8001) }), ['customSystemMessage']);
      expectInvalid(await client.post(at(id, '/messages'), { message: 'Hi', customSystemMessage: '' }), ['customSystemMessage']);
      expect(await snapshot(id)).to.deep.equal(before);
    });

    it('refuses a contactId that is not a positive integer, leaving the conversation unbound', async () => {
      const id = await open();
      for (const contactId of [2.5, '3', 0, null]) {
        expectInvalid(await client.post(at(id, '/messages'), { message: 'Hi', contactId }), ['contactId']);
      }
      const read = (await client.get(at(id))).body;
      expect(read.contactId).to.equal(null);
      expect(read.messages).to.deep.equal([]);
    });

    it('names invalid custom tool fields by dotted path, changing nothing', async () => {
      const id = await open();
      const before = await snapshot(id);
      const send = (customTools: unknown) => client.post(at(id, '/messages'), { message: 'Hi', customTools });
      expectInvalid(await send([tool({ url: 'http://tools.example.com/orders/{id}' })]), ['customTools.0.url']);
      expectInvalid(await send([tool(), tool({ name: chars(21) })]), ['customTools.1.name']);
      expectInvalid(await send([tool({ parameters: [{ name: 'id', type: 'uuid' }] })]), ['customTools.0.parameters.0.type']);
      expectInvalid(await send(Array.from({ length: 11 }, (_, i) => tool({ name: `t${i}` }))), ['customTools']);
      expect(await snapshot(id)).to.deep.equal(before);
      expect((await app.runtime.ctx.db('conversations').where({ id }).first()).custom_tools).to.deep.equal([]);
      expect(app.model.requests).to.have.length(0);
    });

    it('refuses a stream flag that is not a boolean and unknown body fields', async () => {
      const id = await open();
      expectInvalid(await client.post(at(id, '/messages'), { message: 'Hi', stream: 'yes' }), ['stream']);
      expectInvalid(await client.post(at(id, '/messages'), { message: 'Hi', history: [] }), ['history']);
      expect((await client.get(at(id))).body.messages).to.deep.equal([]);
    });
  });

  describe('PATCH /api/v1/conversations/:conversationId/metadata', () => {
    it('accepts customSystemMessage of 8000 characters and refuses 8001 or empty, changing nothing', async () => {
      const id = await open({ metadata: { a: 1 }, customSystemMessage: 'Original.' });
      expect((await client.patch(at(id, '/metadata'), { metadata: { a: 1 }, customSystemMessage: chars(8000) })).status).to.equal(200);
      expect((await client.get(at(id))).body.customSystemMessage).to.equal(chars(8000));
      const before = await snapshot(id);
      expectInvalid(await client.patch(at(id, '/metadata'), { metadata: { b: 2 }, customSystemMessage: chars(8001) }), [
        'customSystemMessage',
      ]);
      expectInvalid(await client.patch(at(id, '/metadata'), { metadata: { b: 2 }, customSystemMessage: '' }), ['customSystemMessage']);
      expect(await snapshot(id)).to.deep.equal(before);
    });

    it('refuses missing or non-object metadata and unknown fields, changing nothing', async () => {
      const id = await open({ metadata: { a: 1 } });
      const before = await snapshot(id);
      for (const body of [{}, { metadata: null }, { metadata: [1] }, { metadata: 'a=1' }]) {
        expectInvalid(await client.patch(at(id, '/metadata'), body), ['metadata']);
      }
      expectInvalid(await client.patch(at(id, '/metadata'), { metadata: { b: 2 }, status: 'ended' }), ['status']);
      expect(await snapshot(id)).to.deep.equal(before);
    });
  });

  describe('POST /api/v1/conversations/:conversationId/manual', () => {
    it('accepts a message of 32000 characters and a username of 120', async () => {
      const id = await open();
      const res = await client.post(at(id, '/manual'), { message: chars(32000), username: 'u'.repeat(120) });
      expect(res.status).to.equal(201);
      expect(res.body.addedBy).to.equal('u'.repeat(120));
      expect((await client.get(at(id))).body.messages[0].content).to.have.length(32000);
    });

    it('refuses a message of 32001 characters, an empty or missing one, and a username of 121, storing nothing', async () => {
      const id = await open();
      for (const body of [{ message: chars(32001) }, { message: '' }, { username: 'alice' }]) {
        expectInvalid(await client.post(at(id, '/manual'), body), ['message']);
      }
      expectInvalid(await client.post(at(id, '/manual'), { message: 'Hi', username: 'u'.repeat(121) }), ['username']);
      expectInvalid(await client.post(at(id, '/manual'), { message: 'Hi', metadata: ['x'] }), ['metadata']);
      expectInvalid(await client.post(at(id, '/manual'), { message: 'Hi', role: 'assistant' }), ['role']);
      expect((await snapshot(id)).messages).to.deep.equal([]);
    });
  });

  describe('text that cannot be stored: NUL characters and unpaired surrogates', () => {
    const UNSTORABLE = ['a\u0000b', 'a\ud800b'];
    const triggerCount = async () =>
      Number((await app.runtime.ctx.db('triggers').where({ tenant_id: tenantId }).count({ n: '*' }).first())!.n);

    it('refuses a turn with either in message or customSystemMessage, naming the field, storing no message and charging nothing', async () => {
      const id = await open();
      const before = await snapshot(id);
      const credits = await balance(app.runtime.ctx, tenantId);
      for (const text of UNSTORABLE) {
        expectInvalid(await client.post(at(id, '/messages'), { message: text }), ['message']);
        expectInvalid(await client.post(at(id, '/messages'), { message: 'Hi', customSystemMessage: text, stream: true }), [
          'customSystemMessage',
        ]);
      }
      expect(await snapshot(id)).to.deep.equal(before);
      expect(app.model.requests).to.have.length(0);
      expect(await balance(app.runtime.ctx, tenantId)).to.equal(credits);
    });

    it('refuses a manual message with either in message, username or metadata, storing nothing', async () => {
      const id = await open();
      for (const text of UNSTORABLE) {
        expectInvalid(await client.post(at(id, '/manual'), { message: text }), ['message']);
        expectInvalid(await client.post(at(id, '/manual'), { message: 'Hi', username: text }), ['username']);
        expectInvalid(await client.post(at(id, '/manual'), { message: 'Hi', metadata: { note: text } }), ['metadata.note']);
      }
      expect((await snapshot(id)).messages).to.deep.equal([]);
    });

    it('refuses a conversation with either in customSystemMessage, a metadata value or a metadata key, creating nothing', async () => {
      const count = await conversationCount();
      for (const text of UNSTORABLE) {
        expectInvalid(await client.post(CONVERSATIONS, { agentId, customSystemMessage: text }), ['customSystemMessage']);
        expectInvalid(await client.post(CONVERSATIONS, { agentId, metadata: { tags: ['ok', text] } }), ['metadata.tags.1']);
        expectInvalid(await client.post(CONVERSATIONS, { agentId, metadata: { [text]: 1 } }), [`metadata.${text}`]);
      }
      expect(await conversationCount()).to.equal(count);
    });

    it('refuses new metadata with either, changing nothing', async () => {
      const id = await open({ metadata: { a: 1 } });
      const before = await snapshot(id);
      for (const text of UNSTORABLE) expectInvalid(await client.patch(at(id, '/metadata'), { metadata: { a: text } }), ['metadata.a']);
      expect(await snapshot(id)).to.deep.equal(before);
    });

    it("refuses a job with either in task, idempotencyKey or metadata, and a reply's reason, creating nothing", async () => {
      const count = await triggerCount();
      for (const text of UNSTORABLE) {
        expectInvalid(await client.post('/api/v1/triggers', { agentId, task: text }), ['task']);
        expectInvalid(await client.post('/api/v1/triggers', { agentId, task: 'Call back', idempotencyKey: text }), ['idempotencyKey']);
        expectInvalid(await client.post('/api/v1/triggers', { agentId, task: 'Call back', metadata: { source: text } }), [
          'metadata.source',
        ]);
        const reply = await client.post('/api/v1/triggers/00000000-0000-4000-8000-000000000000/reply', {
          decision: 'approved',
          reason: text,
        });
        expectInvalid(reply, ['reason']);
      }
      expect(await triggerCount()).to.equal(count);
    });
  });

  describe('request bodies that are not JSON objects', () => {
    it('answers 400 to a body that is not JSON, on every endpoint that takes one, changing nothing', async () => {
      const id = await open({ metadata: { a: 1 } });
      const before = await snapshot(id);
      const count = await conversationCount();
      for (const [method, path] of [
        ['POST', CONVERSATIONS],
        ['POST', at(id, '/messages')],
        ['PATCH', at(id, '/metadata')],
        ['POST', at(id, '/manual')],
      ] as const) {
        expectInvalid(await client.request(method, path, '{"message": "Hi",'), ['body']);
      }
      expect(await snapshot(id)).to.deep.equal(before);
      expect(await conversationCount()).to.equal(count);
    });

    it('answers 400 to a JSON body that is not an object', async () => {
      const id = await open();
      expectInvalid(await client.post(CONVERSATIONS, [{ agentId }]), ['body']);
      expectInvalid(await client.post(at(id, '/messages'), ['Hi']), ['body']);
      expectInvalid(await client.request('POST', at(id, '/manual'), '"Hi"'), ['body']);
    });
  });

  describe('a body nested more than 32 levels deep', () => {
    const nested = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;

    it('is refused 400 naming its field, and changes nothing', async () => {
      const id = (await client.post(CONVERSATIONS, { agentId })).body.conversationId;
      for (const levels of [32, 5000]) {
        expectInvalid(await client.request('PATCH', at(id, '/metadata'), `{"metadata":${nested(levels)}}`), ['metadata']);
        expectInvalid(
          await client.request('POST', '/api/v1/triggers', `{"agentId":"${agentId}","task":"t","businessKeys":${nested(levels)}}`),
          ['businessKeys'],
        );
      }
      expect((await client.get(at(id))).body.metadata ?? {}).to.deep.equal({});
      expect((await client.request('PATCH', at(id, '/metadata'), `{"metadata":${nested(31)}}`)).status).to.equal(200);
    });
  });
});
