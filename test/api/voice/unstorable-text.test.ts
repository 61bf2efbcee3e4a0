import { expect } from 'chai';
import { NUMBERS, startCallsApp, type CallsApp } from '../../support/calls.js';
import { expectVoiceError } from '../../support/errors.js';

const UNSTORABLE = ['a\u0000b', 'a\ud800b'];

// No controllers: a call placed stays queued.
describe('Voice API text that cannot be stored: NUL characters and unpaired surrogates', () => {
  let app: CallsApp;
  before(async () => {
    app = await startCallsApp();
  });
  after(async () => app.close());

  it('refuses a call with either in task, context or metadata as 422 invalid_<field>, placing nothing and counting nothing', async () => {
    const { client } = await app.voiceCompany();
    for (const text of UNSTORABLE) {
      expectVoiceError(await client.post('/v1/calls', { to: NUMBERS.answer, task: text }), 422, 'invalid_task');
      expectVoiceError(await client.post('/v1/calls', { to: NUMBERS.answer, context: { name: text } }), 422, 'invalid_context');
      expectVoiceError(await client.post('/v1/calls', { to: NUMBERS.answer, metadata: { [text]: 1 } }), 422, 'invalid_metadata');
    }
    expect((await client.get('/v1/calls')).body.data).to.deep.equal([]);
    expect((await client.get('/v1/reports/api-usage')).body.data[0].calls_placed).to.equal(0);
  });

  it("refuses a steer with either in say or instruction as 422 invalid_<field>, and an API key's name as 422 invalid_name", async () => {
    const { client, tenantId } = await app.voiceCompany();
    const placed = await client.post('/v1/calls', { to: NUMBERS.answer, task: 'Say hello' });
    expect(placed.status).to.equal(201);
    const keys = `/v1/tenants/${tenantId}/api-keys`;
    const before = (await client.get(keys)).body.data;
    for (const text of UNSTORABLE) {
      expectVoiceError(await client.post(`/v1/calls/${placed.body.id}/steer`, { say: text }), 422, 'invalid_say');
      expectVoiceError(await client.post(`/v1/calls/${placed.body.id}/steer`, { instruction: text }), 422, 'invalid_instruction');
      expectVoiceError(await client.post(keys, { name: text }), 422, 'invalid_name');
    }
    expect((await client.get(keys)).body.data).to.deep.equal(before);
  });

  it('refuses a NUL in a query value as 422 invalid_<field>', async () => {
    const { client } = await app.voiceCompany();
    expectVoiceError(await client.get('/v1/calls?to=%00'), 422, 'invalid_to');
    expectVoiceError(await client.get('/v1/calls?cursor=a%00b'), 422, 'invalid_cursor');
  });

  it('answers the MCP tools place_call and get_call a tool error invalid_<field> for either, placing nothing', async () => {
    const { client, apiKey } = await app.voiceCompany();
    const callTool = async (name: string, args: Record<string, unknown>) => {
      const res = await fetch(`${app.url}/mcp`, {
        method: 'POST',
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }),
      });
      expect(res.status).to.equal(200);
      return (await res.json()).result;
    };
    for (const text of UNSTORABLE) {
      const placed = await callTool('place_call', { to: NUMBERS.answer, task: text });
      expect(placed.isError, JSON.stringify(placed)).to.equal(true);
      expect(placed.structuredContent.error.code).to.equal('invalid_task');
      const read = await callTool('get_call', { call_id: text });
      expect(read.structuredContent.error.code, JSON.stringify(read)).to.equal('invalid_call_id');
    }
    expect((await client.get('/v1/calls')).body.data).to.deep.equal([]);
  });
});
