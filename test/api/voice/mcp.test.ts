import { expect } from 'chai';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { updateTenant } from '../../../pkg/tenants/settings.js';
import { NUMBERS, startCallsApp, SUMMARY, type CallsApp } from '../../support/calls.js';
import { eventually } from '../../support/eventually.js';

const TOOLS = [
  ...['place_call', 'get_call', 'get_call_result', 'steer_call', 'hangup_call', 'list_calls', 'list_voices'],
  ...['list_campaigns', 'start_campaign_run', 'get_campaign_run', 'stop_campaign_run'],
];

/** A connected MCP client of the SDK, declaring `name` at initialize. */
async function connect(app: CallsApp, apiKey: string, name = 'Test Agent'): Promise<Client> {
  const client = new Client({ name, version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${app.url}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${apiKey}` } },
  });
  await client.connect(transport);
  return client;
}

async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

/** A successful tool result's value. */
function value(result: CallToolResult): any {
  expect(result.isError, JSON.stringify(result.content)).to.not.equal(true);
  expect(JSON.parse((result.content[0] as { text: string }).text)).to.deep.equal(result.structuredContent);
  return result.structuredContent;
}

/** A tool error with the Voice API's code; returns its text. */
function toolError(result: CallToolResult, code: string): string {
  expect(result.isError, JSON.stringify(result)).to.equal(true);
  const text = (result.content[0] as { text: string }).text;
  expect(text.startsWith(`${code}: `), text).to.equal(true);
  expect((result.structuredContent as any).error.code).to.equal(code);
  return text;
}

/** An initialize request over plain HTTP, for what the SDK client does not show. */
const initialize = (app: CallsApp, headers: Record<string, string>) =>
  fetch(`${app.url}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'curl', version: '1' } },
    }),
  });

/** The calling describe block's app, started with `opts`, and MCP clients connected to it; all closed after its tests. */
function mcpSuite(opts: Parameters<typeof startCallsApp>[0] = {}) {
  const suite = { clients: [] as Client[] } as { app: CallsApp; clients: Client[] };
  before(async () => {
    suite.app = await startCallsApp(opts);
  });
  after(async () => {
    await Promise.all(suite.clients.map((c) => c.close()));
    await suite.app?.close();
  });
  const mcp = async (apiKey: string, name?: string) => {
    const client = await connect(suite.app, apiKey, name);
    suite.clients.push(client);
    return client;
  };
  return { suite, mcp };
}

describe('MCP server at /mcp', () => {
  const { suite, mcp } = mcpSuite({ controllers: true });

  it('lists the seven call tools and the four campaign tools, with JSON-schema inputs from the REST schemas', async () => {
    const { apiKey } = await suite.app.voiceCompany();
    const { tools } = await (await mcp(apiKey)).listTools();
    expect(tools.map((t) => t.name)).to.have.members(TOOLS);
    const schema = (name: string) => tools.find((t) => t.name === name)!.inputSchema as any;
    expect(schema('place_call')).to.deep.include({ type: 'object', required: ['to'], additionalProperties: false });
    expect(schema('place_call').properties).to.include.keys(
      'to',
      'task',
      'questions',
      'outcomes',
      'callback_url',
      'metadata',
      'max_duration_sec',
      'idempotency_key',
    );
    expect(schema('place_call').properties.task).to.include({ type: 'string', minLength: 1, maxLength: 8000 });
    expect(schema('get_call_result').properties.wait).to.include({ minimum: 1, maximum: 60 });
    expect(schema('steer_call').properties).to.have.all.keys('call_id', 'instruction', 'say');
    expect(schema('list_calls').properties).to.include.keys('status', 'cursor', 'limit');
  });

  it('place_call places a call that get_call and get_call_result (with wait) follow to its result, as REST shows it', async () => {
    const { apiKey, client: rest } = await suite.app.voiceCompany();
    const task = 'MCP: ask Ann about her budget';
    suite.app.script(
      task,
      { content: 'Hi Ann, what is your budget?' },
      { toolCalls: [{ name: 'end_call', arguments: { outcome: 'completed', answers: { budget: '500' }, note: 'Known' } }] },
      { content: 'Thanks, goodbye!' },
    );
    const client = await mcp(apiKey);
    const placed = value(await call(client, 'place_call', { to: NUMBERS.answer, task, metadata: { via: 'mcp' } }));
    expect(placed).to.include({ to: NUMBERS.answer, direction: 'outbound' });
    expect(placed.id).to.match(/^cal_/);
    expect(value(await call(client, 'get_call', { call_id: placed.id })).id).to.equal(placed.id);

    let result = value(await call(client, 'get_call_result', { call_id: placed.id, wait: 5 }));
    for (let i = 0; i < 20 && !result.final; i++) result = value(await call(client, 'get_call_result', { call_id: placed.id, wait: 5 }));
    expect(result).to.deep.include({ call_id: placed.id, final: true, status: 'completed', outcome: 'completed', summary: SUMMARY });
    expect(result.result).to.deep.equal({ outcome: 'completed', answers: { budget: '500' }, note: 'Known' });
    expect((await rest.get(`/v1/calls/${placed.id}/result`)).body).to.deep.equal(result);
    expect((await rest.get(`/v1/calls/${placed.id}`)).body).to.deep.equal(value(await call(client, 'get_call', { call_id: placed.id })));
  });

  it('counts requests and calls placed over MCP under channel mcp and the client name as the app', async () => {
    const { apiKey, client: rest, keyId, tenantId } = await suite.app.voiceCompany();
    const client = await mcp(apiKey, 'Claude Desktop');
    value(await call(client, 'place_call', { to: NUMBERS.busy }));
    const report = await rest.get('/v1/reports/api-usage?group_by=channel,app,key');
    // initialize, notifications/initialized, tools/call; then this report over REST.
    expect(report.body.data).to.deep.equal([
      { channel: 'api', app: null, key_id: keyId, requests: 1, requests_over_limit: 0, calls_placed: 0 },
      { channel: 'mcp', app: 'Claude Desktop', key_id: keyId, requests: 3, requests_over_limit: 0, calls_placed: 1 },
    ]);
    const metrics = await (await fetch(`${suite.app.metricsUrl}/metrics`)).text();
    expect(metrics).to.include(`switchboard_api_requests_total{tenant="${tenantId}",key="${keyId}",channel="mcp"} 3`);
  });

  it('place_call with the same idempotency_key and arguments gives the same call; other arguments are a tool error idempotency_mismatch', async () => {
    const { apiKey, client: rest } = await suite.app.voiceCompany();
    const client = await mcp(apiKey);
    const first = value(await call(client, 'place_call', { to: NUMBERS.busy, idempotency_key: 'order-7' }));
    const again = value(await call(client, 'place_call', { to: NUMBERS.busy, idempotency_key: 'order-7' }));
    expect(again.id).to.equal(first.id);
    toolError(await call(client, 'place_call', { to: NUMBERS.noAnswer, idempotency_key: 'order-7' }), 'idempotency_mismatch');
    expect((await rest.get('/v1/calls')).body.data).to.have.length(1);
  });

  it('refuses arguments the REST endpoint refuses, as tool errors', async () => {
    const { apiKey } = await suite.app.voiceCompany();
    const client = await mcp(apiKey);
    toolError(await call(client, 'place_call', { to: 'not a number' }), 'invalid_to');
    // Refused by the schema itself (a type, a bound, a field it does not take): the REST body's code.
    toolError(await call(client, 'place_call', { to: 15551234567 }), 'invalid_to');
    toolError(await call(client, 'get_call_result', { call_id: 'cal_x', wait: 'soon' }), 'invalid_wait');
    toolError(await call(client, 'steer_call', { call_id: 'cal_x', say: 'x'.repeat(5000) }), 'invalid_say');
    toolError(await call(client, 'get_call', {}), 'invalid_call_id');
    expect(toolError(await call(client, 'place_call', { to: NUMBERS.answer, priority: 'high' }), 'invalid_json')).to.match(/priority/);
    // A tool that does not exist is a protocol error, as the MCP specification has it.
    expect(await call(client, 'fly_me').catch((err: { code?: number }) => err.code)).to.equal(-32602);
    toolError(await call(client, 'steer_call', { call_id: 'cal_01J00000000000000000000000', say: 'Hello' }), 'not_found');
  });

  it('steer_call is not_live before answer; hangup_call cancels a ringing call; both are call_ended after', async () => {
    const { apiKey } = await suite.app.voiceCompany();
    const client = await mcp(apiKey);
    const placed = value(await call(client, 'place_call', { to: NUMBERS.longRing }));
    toolError(await call(client, 'steer_call', { call_id: placed.id, instruction: 'Be brief' }), 'not_live');
    const hung = value(await call(client, 'hangup_call', { call_id: placed.id }));
    expect(hung).to.include({ id: placed.id, status: 'canceled' });
    toolError(await call(client, 'hangup_call', { call_id: placed.id }), 'call_ended');
    toolError(await call(client, 'steer_call', { call_id: placed.id, say: 'Hello?' }), 'call_ended');
  });

  it('steer_call on a live call is accepted', async () => {
    const { apiKey, client: rest } = await suite.app.voiceCompany();
    const client = await mcp(apiKey);
    const placed = value(await call(client, 'place_call', { to: NUMBERS.stays, task: 'MCP: stay on the line' }));
    await eventually('the call answered', async () => (await rest.get(`/v1/calls/${placed.id}`)).body.status === 'in-progress');
    expect(value(await call(client, 'steer_call', { call_id: placed.id, instruction: 'Offer the discount' }))).to.deep.equal({
      call_id: placed.id,
      accepted: true,
    });
    value(await call(client, 'hangup_call', { call_id: placed.id }));
  });

  it("list_calls and list_voices answer as GET /v1/calls and GET /v1/voices; another account's call is not_found", async () => {
    const { apiKey, client: rest } = await suite.app.voiceCompany();
    const client = await mcp(apiKey);
    for (const to of [NUMBERS.busy, NUMBERS.noAnswer, NUMBERS.busy]) value(await call(client, 'place_call', { to }));
    const page = value(await call(client, 'list_calls', { limit: 2 }));
    // The calls move on meanwhile: the same page is the same calls and cursor.
    const same = (await rest.get('/v1/calls?limit=2')).body;
    expect(page.data.map((c: any) => c.id)).to.deep.equal(same.data.map((c: any) => c.id));
    expect(page.next_cursor).to.equal(same.next_cursor).and.be.a('string');
    const rest2 = value(await call(client, 'list_calls', { limit: 2, cursor: page.next_cursor }));
    expect(rest2.data).to.have.length(1);
    expect(value(await call(client, 'list_calls', { to: NUMBERS.noAnswer })).data.map((c: any) => c.to)).to.deep.equal([NUMBERS.noAnswer]);
    expect(value(await call(client, 'list_voices'))).to.deep.equal((await rest.get('/v1/voices')).body);

    const other = await suite.app.voiceCompany();
    toolError(await call(await mcp(other.apiKey), 'get_call', { call_id: page.data[0].id }), 'not_found');
  });

  it('answers 401 unauthorized without a key, with a wrong one, and with a revoked one from the next request', async () => {
    for (const headers of [{}, { authorization: 'Bearer sb_wrongwrongwrong' }, { authorization: 'Basic abc' }] as Record<
      string,
      string
    >[]) {
      const res = await initialize(suite.app, headers);
      expect(res.status).to.equal(401);
      expect(((await res.json()) as any).error.code).to.equal('unauthorized');
    }
    const { apiKey, client: rest, tenantId, keyId } = await suite.app.voiceCompany();
    const client = await mcp(apiKey);
    await rest.request('DELETE', `/v1/tenants/${tenantId}/api-keys/${keyId}`);
    const refused = await client.listTools().catch((err: unknown) => err);
    expect(refused).to.be.instanceOf(StreamableHTTPError);
    expect((refused as StreamableHTTPError).code).to.equal(401);
  });

  it('answers 403 module_off, naming the feature, to an account without voice_api', async () => {
    const { apiKey } = await suite.app.company();
    const res = await initialize(suite.app, { authorization: `Bearer ${apiKey}` });
    expect(res.status).to.equal(403);
    const body = (await res.json()) as any;
    expect(body.error.code).to.equal('module_off');
    expect(body.error.message).to.include('voice_api');
    const failed = await connect(suite.app, apiKey).catch((err: unknown) => err);
    expect((failed as StreamableHTTPError).code).to.equal(403);
  });

  it('answers 413 body_too_large to a request over 128 KB', async () => {
    const { apiKey } = await suite.app.voiceCompany();
    const res = await fetch(`${suite.app.url}/mcp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'place_call', arguments: { to: NUMBERS.answer, task: 'x'.repeat(131_072) } },
      }),
    });
    expect(res.status).to.equal(413);
    expect(((await res.json()) as any).error.code).to.equal('body_too_large');
  });

  it('answers a body that is not JSON, or not UTF-8, with a JSON-RPC parse error', async () => {
    const { apiKey } = await suite.app.voiceCompany();
    for (const [body, contentType, status] of [
      ['{"jsonrpc":"2.0","id":1,', 'application/json', 400],
      ['{"a":1}{"b":2}', 'application/json', 400],
      ['{}', 'application/json; charset=latin1', 415],
    ] as const) {
      const res = await fetch(`${suite.app.url}/mcp`, {
        method: 'POST',
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': contentType, accept: 'application/json, text/event-stream' },
        body,
      });
      expect(res.status, body).to.equal(status);
      expect(await res.json())
        .to.deep.include({ jsonrpc: '2.0', id: null })
        .and.nested.include({ 'error.code': -32700 });
    }
  });

  it('answers arguments nested more than 32 levels deep with a JSON-RPC invalid request, placing nothing', async () => {
    const { apiKey, client: rest } = await suite.app.voiceCompany();
    const nested = `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`;
    const res = await fetch(`${suite.app.url}/mcp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"place_call","arguments":{"to":"${NUMBERS.answer}","metadata":${nested}}}}`,
    });
    expect(res.status).to.equal(400);
    expect(await res.json())
      .to.deep.include({ jsonrpc: '2.0', id: null })
      .and.nested.include({ 'error.code': -32600 });
    expect((await rest.get('/v1/calls')).body.data).to.deep.equal([]);
  });

  it('answers 405 to GET and DELETE: the server is stateless', async () => {
    const { apiKey } = await suite.app.voiceCompany();
    for (const method of ['GET', 'DELETE']) {
      const res = await fetch(`${suite.app.url}/mcp`, {
        method,
        headers: { authorization: `Bearer ${apiKey}`, accept: 'text/event-stream' },
      });
      expect(res.status, method).to.equal(405);
    }
  });
});

describe('MCP request limits', () => {
  const { suite, mcp } = mcpSuite();

  it('over the per-key limit a tool call is a tool error saying when to retry, other requests answer 429; both count as over the limit', async () => {
    const { apiKey, tenantId, keyId } = await suite.app.voiceCompany({ requestsPerMinute: 4 });
    const client = await mcp(apiKey);
    // initialize and notifications/initialized were requests 1 and 2.
    value(await call(client, 'list_voices'));
    value(await call(client, 'list_voices'));
    const text = toolError(await call(client, 'list_voices'), 'rate_limited');
    expect(text).to.match(/Retry after \d+ seconds\.$/);
    expect((await call(client, 'place_call', { to: NUMBERS.answer })).structuredContent).to.deep.include({
      error: { code: 'rate_limited', message: 'Request rate limit exceeded', retry_after_sec: Number(/(\d+) seconds/.exec(text)![1]) },
    });
    const listed = await client.listTools().catch((err: unknown) => err);
    expect((listed as StreamableHTTPError).code).to.equal(429);

    await suite.app.runtime.ctx.usage.flush();
    const row = await suite.app.runtime.ctx.db('api_usage').where({ tenant_id: tenantId, key_id: keyId, channel: 'mcp' }).first();
    expect(row).to.include({ app: 'Test Agent', requests: 7, requests_over_limit: 3, calls_placed: 0 });
    expect(await suite.app.runtime.ctx.db('calls').where({ tenant_id: tenantId })).to.have.length(0);
  });

  it('counts the client name declared at initialize as the app, across keys, on every later request', async () => {
    const company = await suite.app.voiceCompany();
    const made = await company.client.post(`/v1/tenants/${company.tenantId}/api-keys`, { name: 'second' });
    await updateTenant(suite.app.runtime.ctx, company.tenantId, { requestsPerMinute: 4 });
    await mcp(company.apiKey, 'Shared Dialer');
    // The second key's initialize and initialized are the app's requests 3 and 4; its tool call, the fifth.
    const second = await mcp(made.body.key, 'Shared Dialer');
    toolError(await call(second, 'list_voices'), 'rate_limited');
    // That key itself (three requests) is still within its own limit.
    expect((await suite.app.client(made.body.key).get('/v1/voices')).status).to.equal(200);
  });

  it("place_call over the account's calls_per_minute is a tool error rate_limited saying when to retry", async () => {
    const { apiKey } = await suite.app.voiceCompany({ callsPerMinute: 1 });
    const client = await mcp(apiKey);
    value(await call(client, 'place_call', { to: NUMBERS.answer }));
    expect(toolError(await call(client, 'place_call', { to: NUMBERS.answer }), 'rate_limited')).to.match(/Retry after \d+ seconds\.$/);
  });

  it('place_call to a country the account may not call is a tool error country_not_allowed', async () => {
    const { apiKey } = await suite.app.voiceCompany({ allowedCountries: ['CA'] });
    const client = await mcp(apiKey);
    expect(toolError(await call(client, 'place_call', { to: NUMBERS.answer }), 'country_not_allowed')).to.match(/CA/);
  });

  it('place_call over the simultaneous-call cap is a tool error tenant_busy saying when to retry', async () => {
    const { apiKey } = await suite.app.voiceCompany({ maxConcurrentCalls: 1 });
    const client = await mcp(apiKey);
    value(await call(client, 'place_call', { to: NUMBERS.longRing }));
    const text = toolError(await call(client, 'place_call', { to: NUMBERS.answer }), 'tenant_busy');
    expect(text).to.match(/Retry after \d+ seconds\.$/);
  });
});
