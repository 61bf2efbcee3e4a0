import { expect } from 'chai';
import type { ChatCompletionCreateParams } from 'openai/resources/chat/completions';
import type { FunctionDefinition } from 'openai/resources/shared';
import { updateAgent } from '../../../pkg/agent/settings.js';
import { openConversation, startTestApp, type Client, type TestApp } from '../../support/app.js';
import { startHttpsServer, type TestHttpsServer } from '../../support/https.js';
import { offeredFunctions, offeredTools } from '../../support/model.js';
import { signatureProblem } from '../../support/webhooks.js';
import { webhookSecret } from '../../../pkg/webhooks/secret.js';

/** The conversation's custom tools among those offered (built-ins are offered too). */
const offeredCustom = (request: ChatCompletionCreateParams, conversationId: string): FunctionDefinition[] =>
  offeredFunctions(request).filter((t) => t.name.startsWith(`custom_${conversationId}_`));
const toolMessages = (request: any): any[] => request.messages.filter((m: any) => m.role === 'tool');

describe('Custom tools on POST /api/v1/conversations/:conversationId/messages', () => {
  let app: TestApp;
  let api: TestHttpsServer;
  let client: Client;
  let agentId: string;
  let tenantId: string;
  before(async () => {
    app = await startTestApp();
    // Answers with what it received (never the credentials), so the model's tool message can be checked.
    api = await startHttpsServer((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ served: `${req.method} ${req.url}` }));
    });
    ({ client, agentId, tenantId } = await app.company());
  });
  after(async () => {
    await api.close();
    await app.close();
  });
  beforeEach(() => {
    app.model.reset();
    api.requests.length = 0;
  });

  const send = (id: string, body: Record<string, unknown>) => client.post(`/api/v1/conversations/${id}/messages`, body);
  const toolName = (id: string, name: string) => `custom_${id}_${name}`;

  it('offers the tool as custom_<conversationId>_<name> and calls it with GET, placeholders and basic auth', async () => {
    const id = await openConversation(client, agentId);
    const order = {
      name: 'order',
      description: 'Look up an order',
      url: `${api.url}/orders/{orderId}`,
      method: 'GET',
      authType: 'basic',
      authConfig: { username: 'shop', password: 'basic-pass-771' },
      parameters: [
        { name: 'orderId', type: 'string', required: true, description: 'The order number' },
        { name: 'verbose', type: 'boolean' },
      ],
    };
    app.model.reply(
      { toolCalls: [{ name: toolName(id, 'order'), arguments: { orderId: 'A 17', verbose: true } }] },
      { content: 'It shipped.' },
    );

    const reply = await send(id, { message: 'Where is A 17?', customTools: [order] });

    expect(reply.status).to.equal(200);
    expect(reply.body.toolCalls).to.deep.equal([toolName(id, 'order')]);
    expect(offeredCustom(app.model.requests[0]!, id)).to.deep.equal([
      {
        name: toolName(id, 'order'),
        description: 'Look up an order',
        parameters: {
          type: 'object',
          properties: { orderId: { type: 'string', description: 'The order number' }, verbose: { type: 'boolean' } },
          required: ['orderId'],
        },
      },
    ]);
    expect(api.requests).to.have.length(1);
    expect(api.requests[0]).to.include({ method: 'GET', url: '/orders/A%2017?verbose=true' });
    expect(api.requests[0]!.headers.authorization).to.equal(`Basic ${Buffer.from('shop:basic-pass-771').toString('base64')}`);
    expect(toolMessages(app.model.requests[1]).map((m) => m.content)).to.deep.equal([
      'HTTP 200\n{"served":"GET /orders/A%2017?verbose=true"}',
    ]);
  });

  it('sends POST parameters as a JSON body with the apikey header', async () => {
    const id = await openConversation(client, agentId);
    const search = {
      name: 'search',
      description: 'Search the catalogue',
      url: `${api.url}/search`,
      method: 'POST',
      authType: 'apikey',
      authConfig: { headerName: 'X-Api-Key', apiKey: 'apikey-secret-552' },
      parameters: [
        { name: 'query', type: 'string', required: true },
        { name: 'limit', type: 'integer' },
      ],
    };
    app.model.reply(
      { toolCalls: [{ name: toolName(id, 'search'), arguments: { query: 'red shoes', limit: 3 } }] },
      { content: 'Found some.' },
    );

    const reply = await send(id, { message: 'Red shoes?', customTools: [search] });

    expect(reply.status).to.equal(200);
    expect(api.requests).to.have.length(1);
    expect(api.requests[0]).to.include({ method: 'POST', url: '/search' });
    expect(api.requests[0]!.headers['x-api-key']).to.equal('apikey-secret-552');
    expect(api.requests[0]!.headers['content-type']).to.equal('application/json');
    expect(JSON.parse(api.requests[0]!.body)).to.deep.equal({ query: 'red shoes', limit: 3 });
  });

  it("signs every tool call like a webhook, with the account's secret: a POST its body, a GET its empty body", async () => {
    const id = await openConversation(client, agentId);
    const tools = [
      { name: 'find', description: 'Find', url: `${api.url}/find`, method: 'GET', parameters: [{ name: 'q', type: 'string' }] },
      { name: 'save', description: 'Save', url: `${api.url}/save`, method: 'POST', parameters: [{ name: 'note', type: 'string' }] },
    ];
    app.model.reply(
      {
        toolCalls: [
          { name: toolName(id, 'find'), arguments: { q: 'ann' } },
          { name: toolName(id, 'save'), arguments: { note: 'called' } },
        ],
      },
      { content: 'Done.' },
    );

    expect((await send(id, { message: 'Find Ann and save a note', customTools: tools })).status).to.equal(200);

    const secret = await webhookSecret(app.runtime.ctx, tenantId);
    const [find, save] = ['GET', 'POST'].map((method) => api.requests.find((r) => r.method === method)!);
    expect(signatureProblem(secret, find!.headers, '')).to.equal(null);
    expect(find!.headers).to.not.have.property('content-type');
    expect(signatureProblem(secret, save!.headers, save!.body)).to.equal(null);
    expect(find!.headers['webhook-id']).to.match(/^tc_/).and.not.equal(save!.headers['webhook-id']);
    expect(signatureProblem(secret, save!.headers, '{"note":"forged"}')).to.not.equal(null);
  });

  it('sends PUT parameters other than placeholders as a JSON body with the bearer token', async () => {
    const id = await openConversation(client, agentId);
    const update = {
      name: 'set_address',
      description: 'Change the delivery address',
      url: `${api.url}/orders/{orderId}/address`,
      method: 'PUT',
      authType: 'bearer',
      authConfig: { token: 'bearer-token-913' },
      parameters: [
        { name: 'orderId', type: 'string', required: true },
        { name: 'street', type: 'string', required: true },
      ],
    };
    app.model.reply(
      { toolCalls: [{ name: toolName(id, 'set_address'), arguments: { orderId: 'B-2', street: 'Main St 1' } }] },
      { content: 'Changed.' },
    );

    const reply = await send(id, { message: 'Ship B-2 to Main St 1', customTools: [update] });

    expect(reply.status).to.equal(200);
    expect(api.requests[0]).to.include({ method: 'PUT', url: '/orders/B-2/address' });
    expect(api.requests[0]!.headers.authorization).to.equal('Bearer bearer-token-913');
    expect(JSON.parse(api.requests[0]!.body)).to.deep.equal({ street: 'Main St 1' });
  });

  it('merges tools by name with the incoming one winning, and treats an empty list as no change', async () => {
    const id = await openConversation(client, agentId);
    const status = (path: string) => ({ name: 'status', description: 'Status', url: `${api.url}${path}`, method: 'GET' });
    const other = { name: 'other', description: 'Other', url: `${api.url}/other`, method: 'GET' };
    expect((await send(id, { message: 'first', customTools: [status('/v1/status'), other] })).status).to.equal(200);
    expect((await send(id, { message: 'second', customTools: [status('/v2/status')] })).status).to.equal(200);
    app.model.reply({ toolCalls: [{ name: toolName(id, 'status'), arguments: {} }] }, { content: 'Fine.' });

    const reply = await send(id, { message: 'third', customTools: [] });

    expect(reply.status).to.equal(200);
    expect(offeredCustom(app.model.requests.at(-1)!, id).map((t) => t.name)).to.have.members([
      toolName(id, 'status'),
      toolName(id, 'other'),
    ]);
    expect(api.requests.map((r) => r.url)).to.deep.equal(['/v2/status']);
  });

  it('stores ten tools, and refuses an eleventh with 400 leaving the stored ones in use', async () => {
    const id = await openConversation(client, agentId);
    const tool = (n: number) => ({ name: `tool${n}`, description: `Tool ${n}`, url: `${api.url}/tools/${n}`, method: 'GET' });
    const ten = Array.from({ length: 10 }, (_, n) => tool(n));
    expect((await send(id, { message: 'ten tools', customTools: ten })).status).to.equal(200);
    const asked = app.model.requests.length;

    const refused = await send(id, { message: 'one more', customTools: [tool(10)] });

    expect(refused.status).to.equal(400);
    expect(refused.body.error).to.be.a('string').and.not.empty;
    expect(app.model.requests).to.have.length(asked);
    app.model.reply({ toolCalls: [{ name: toolName(id, 'tool3'), arguments: {} }] }, { content: 'Done.' });
    expect((await send(id, { message: 'use tool3' })).status).to.equal(200);
    expect(offeredCustom(app.model.requests.at(-2)!, id).map((t) => t.name)).to.have.members(ten.map((t) => toolName(id, t.name)));
    expect(api.requests.map((r) => r.url)).to.deep.equal(['/tools/3']);
    const { messages } = (await client.get(`/api/v1/conversations/${id}`)).body;
    expect(messages.map((m: any) => m.content)).not.to.include('one more');
  });

  describe('answers 400 naming the field when a custom tool is invalid', () => {
    const valid = () => ({
      name: 'lookup',
      description: 'Look up',
      url: 'https://tools.example.com/lookup',
      method: 'GET',
      parameters: [] as any[],
    });
    const cases: [string, (t: ReturnType<typeof valid>) => unknown, string][] = [
      ['a name over 20 characters', (t) => ({ ...t, name: 'a'.repeat(21) }), 'customTools.0.name'],
      ['a name with a space', (t) => ({ ...t, name: 'look up' }), 'customTools.0.name'],
      ['an http:// url', (t) => ({ ...t, url: 'http://tools.example.com/lookup' }), 'customTools.0.url'],
      ['method PATCH', (t) => ({ ...t, method: 'PATCH' }), 'customTools.0.method'],
      [
        '21 parameters',
        (t) => ({ ...t, parameters: Array.from({ length: 21 }, (_, i) => ({ name: `p${i}` })) }),
        'customTools.0.parameters',
      ],
      ['a parameter name over 64 characters', (t) => ({ ...t, parameters: [{ name: 'p'.repeat(65) }] }), 'customTools.0.parameters.0.name'],
      ['a description over 1024 characters', (t) => ({ ...t, description: 'd'.repeat(1025) }), 'customTools.0.description'],
      ['a placeholder without a parameter', (t) => ({ ...t, url: 'https://tools.example.com/orders/{orderId}' }), 'customTools.0.url'],
    ];
    for (const [what, change, path] of cases) {
      it(`with ${what}`, async () => {
        const id = await openConversation(client, agentId);
        const reply = await send(id, { message: 'hi', customTools: [change(valid())] });
        expect(reply.status).to.equal(400);
        expect(reply.body.error).to.be.a('string');
        expect(reply.body.details.map((d: any) => d.path)).to.include(path);
        expect(app.model.requests).to.have.length(0);
      });
    }
  });

  it('never returns, logs or stores in clear a tool credential', async () => {
    const id = await openConversation(client, agentId);
    const secrets = ['basic-pass-4411', 'bearer-token-4412', 'apikey-secret-4413'];
    const customTools = [
      {
        name: 'basic',
        description: 'B',
        url: `${api.url}/b`,
        method: 'GET',
        authType: 'basic',
        authConfig: { username: 'u', password: secrets[0] },
      },
      { name: 'bearer', description: 'T', url: `${api.url}/t`, method: 'GET', authType: 'bearer', authConfig: { token: secrets[1] } },
      {
        name: 'key',
        description: 'K',
        url: `${api.url}/k`,
        method: 'GET',
        authType: 'apikey',
        authConfig: { headerName: 'X-Key', apiKey: secrets[2] },
      },
    ];
    app.model.reply({ toolCalls: ['basic', 'bearer', 'key'].map((n) => ({ name: toolName(id, n), arguments: {} })) }, { content: 'Done.' });

    const reply = await send(id, { message: 'call all three', customTools });
    const streamed = await client.stream(`/api/v1/conversations/${id}/messages`, { message: 'again', customTools, stream: true });
    const read = await client.get(`/api/v1/conversations/${id}?include=all`);

    expect(reply.status).to.equal(200);
    expect(api.requests).to.have.length(3);
    const [row] = await app.runtime.ctx.db('conversations').where({ id }).select(app.runtime.ctx.db.raw('custom_tools::text as tools'));
    const seen = {
      reply: JSON.stringify(reply.body),
      streamed: JSON.stringify(streamed.events),
      read: JSON.stringify(read.body),
      logs: app.logs.join('\n'),
      model: JSON.stringify(app.model.requests),
      stored: row.tools as string,
    };
    for (const secret of secrets) {
      for (const [where, text] of Object.entries(seen)) expect(text, `${secret} in ${where}`).not.to.include(secret);
    }
    expect(JSON.parse(row.tools).map((t: any) => Boolean(t.sealedAuth))).to.deep.equal([true, true, true]);
  });

  it('refuses a tool address outside the allowed ones, telling the model, and completes the turn', async () => {
    const id = await openConversation(client, agentId);
    const internal = { name: 'internal', description: 'Internal', url: `https://127.0.0.2:${api.port}/admin`, method: 'GET' };
    app.model.reply({ toolCalls: [{ name: toolName(id, 'internal'), arguments: {} }] }, { content: 'I cannot reach it.' });

    const reply = await send(id, { message: 'Call the internal service', customTools: [internal] });

    expect(reply.status).to.equal(200);
    expect(reply.body.message.content).to.equal('I cannot reach it.');
    const [result] = toolMessages(app.model.requests[1]);
    expect(result.content)
      .to.match(/refused/)
      .and.not.match(/ECONNREFUSED/);
    expect(api.requests).to.deep.equal([]);
  });

  it("offers the agent's assigned tools under their own names and calls them", async () => {
    const company = await app.company();
    await updateAgent(app.runtime.ctx, company.agentId, {
      tools: [
        {
          name: 'crm_lookup',
          description: 'Find a customer',
          url: `${api.url}/crm/{customerId}`,
          method: 'GET',
          authType: 'bearer',
          authConfig: { token: 'agent-token-3321' },
          parameters: [{ name: 'customerId', type: 'string', required: true }],
        },
      ],
    });
    const id = await openConversation(company.client, company.agentId);
    app.model.reply({ toolCalls: [{ name: 'crm_lookup', arguments: { customerId: 'c-9' } }] }, { content: 'Found you.' });

    const reply = await company.client.post(`/api/v1/conversations/${id}/messages`, { message: 'Who am I?' });

    expect(reply.status).to.equal(200);
    expect(reply.body.toolCalls).to.deep.equal(['crm_lookup']);
    expect(offeredTools(app.model.requests[0]!)).to.include('crm_lookup');
    expect(api.requests[0]).to.include({ method: 'GET', url: '/crm/c-9' });
    expect(api.requests[0]!.headers.authorization).to.equal('Bearer agent-token-3321');
  });
});

describe('Custom tools without a credentials encryption key', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp({ env: { SWITCHBOARD_ENCRYPTION_KEY: '' } });
  });
  after(async () => app.close());

  it('answers 503 to an authenticated custom tool and stores nothing', async () => {
    const { client, agentId } = await app.company();
    const id = await openConversation(client, agentId);
    const tool = {
      name: 'secure',
      description: 'Needs a token',
      url: 'https://tools.example.com/secure',
      method: 'GET',
      authType: 'bearer',
      authConfig: { token: 'no-key-token-1' },
    };

    const reply = await client.post(`/api/v1/conversations/${id}/messages`, { message: 'hello', customTools: [tool] });

    expect(reply.status).to.equal(503);
    expect(reply.body.error).to.be.a('string').and.not.empty;
    expect(app.model.requests).to.have.length(0);
    expect((await client.get(`/api/v1/conversations/${id}`)).body.messages).to.deep.equal([]);
  });
});
