import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { loadConfig } from '../../../pkg/config.js';
import { customToolSchema, sealTools } from '../../../pkg/tools/custom-tools.js';
import type { StoredTool } from '../../../pkg/store/tools.js';
import { callHttpTool } from '../../../pkg/tools/http-tool.js';
import { createOutbound } from '../../../pkg/outbound/client.js';
import { SecretBox } from '../../../pkg/tools/secrets.js';
import { startHttpsServer, type TestHttpsServer } from '../../support/https.js';

const SECRET = 'tok-never-in-messages';
const signing = { secret: `whsec_${randomBytes(32).toString('base64')}`, timestamp: Math.floor(Date.now() / 1000) };
const box = new SecretBox(randomBytes(32).toString('base64'));
const ctx = {
  outbound: createOutbound(loadConfig({ SWITCHBOARD_OUTBOUND_ALLOW: '127.0.0.1/32', SWITCHBOARD_OUTBOUND_MAX_BYTES: '1024' })),
  secrets: box,
};

/** A tool as the API would store it: parsed by the contract's schema, credentials sealed. */
const tool = (definition: Record<string, unknown>): StoredTool =>
  sealTools([customToolSchema.parse({ name: 'lookup', description: 'Look something up', ...definition })], box)[0]!;

describe('callHttpTool', () => {
  let server: TestHttpsServer;
  before(async () => {
    server = await startHttpsServer((req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(req.url === '/big' ? JSON.stringify({ data: 'x'.repeat(5000) }) : '{"ok":true}');
    });
  });
  after(() => server.close());
  beforeEach(() => {
    server.requests.length = 0;
  });

  it('fills {param} placeholders and sends the other parameters of a GET as a query string', async () => {
    const getItem = tool({
      url: `${server.url}/items/{id}?v=1`,
      method: 'GET',
      parameters: [{ name: 'id', required: true }, { name: 'q' }, { name: 'limit', type: 'integer' }],
    });
    const output = await callHttpTool(ctx, getItem, { id: 'a/b c', q: 'hello world', limit: 5 }, signing);
    expect(output).to.equal('HTTP 200\n{"ok":true}');
    expect(server.requests).to.have.length(1);
    expect(server.requests[0]).to.include({ method: 'GET', url: '/items/a%2Fb%20c?v=1&q=hello+world&limit=5', body: '' });
  });

  it('sends the parameters of a DELETE as a query string', async () => {
    const remove = tool({ url: `${server.url}/items`, method: 'DELETE', parameters: [{ name: 'id', type: 'integer' }] });
    await callHttpTool(ctx, remove, { id: 7 }, signing);
    expect(server.requests[0]).to.include({ method: 'DELETE', url: '/items?id=7' });
  });

  for (const method of ['POST', 'PUT'] as const) {
    it(`sends the parameters of a ${method} as a JSON body`, async () => {
      const save = tool({
        url: `${server.url}/items/{id}`,
        method,
        parameters: [{ name: 'id', required: true }, { name: 'name' }, { name: 'tags', type: 'array' }],
      });
      const output = await callHttpTool(ctx, save, { id: 42, name: 'Ann', tags: ['a', 'b'] }, signing);
      expect(output).to.equal('HTTP 200\n{"ok":true}');
      const [received] = server.requests;
      expect(received).to.include({ method, url: '/items/42' });
      expect(received!.headers['content-type']).to.equal('application/json');
      expect(JSON.parse(received!.body)).to.deep.equal({ name: 'Ann', tags: ['a', 'b'] });
    });
  }

  it('returns an error and sends nothing when a required parameter is missing', async () => {
    const getItem = tool({ url: `${server.url}/items/{id}`, method: 'GET', parameters: [{ name: 'id' }, { name: 'q', required: true }] });
    const output = await callHttpTool(ctx, getItem, { q: null }, signing);
    expect(output).to.equal('Tool call failed: missing required parameter(s): q, id');
    expect(server.requests).to.be.empty;
  });

  describe('authentication', () => {
    const cases = [
      {
        authType: 'basic',
        authConfig: { username: 'ann', password: SECRET },
        header: 'authorization',
        value: `Basic ${Buffer.from(`ann:${SECRET}`).toString('base64')}`,
      },
      { authType: 'apikey', authConfig: { headerName: 'X-Api-Key', apiKey: SECRET }, header: 'x-api-key', value: SECRET },
      { authType: 'bearer', authConfig: { token: SECRET }, header: 'authorization', value: `Bearer ${SECRET}` },
    ];
    for (const { authType, authConfig, header, value } of cases) {
      it(`sends ${authType} credentials to the tool's endpoint`, async () => {
        await callHttpTool(ctx, tool({ url: `${server.url}/me`, method: 'GET', authType, authConfig }), {}, signing);
        expect(server.requests[0]!.headers[header]).to.equal(value);
      });

      it(`keeps ${authType} credentials out of a failure the model sees`, async () => {
        const output = await callHttpTool(ctx, tool({ url: 'https://10.0.0.1/me', method: 'GET', authType, authConfig }), {}, signing);
        expect(output).to.equal('Tool call failed: refused: 10.0.0.1 is not a public address');
        expect(output).not.to.include(SECRET);
      });
    }
  });

  it('says so when the response was cut at the size limit', async () => {
    const output = await callHttpTool(ctx, tool({ url: `${server.url}/big`, method: 'GET' }), {}, signing);
    const [status, body, note] = output.split('\n');
    expect(status).to.equal('HTTP 200');
    expect(body).to.have.length(1024);
    expect(note).to.match(/truncated/);
  });

  it('returns an outbound failure as text for the model', async () => {
    const gone = await startHttpsServer(() => {});
    await gone.close();
    const output = await callHttpTool(ctx, tool({ url: `${gone.url}/x`, method: 'POST' }), {}, signing);
    expect(output).to.equal('Tool call failed: request to 127.0.0.1 failed (ECONNREFUSED)');
  });
});
