import { expect } from 'chai';
import { connect } from 'node:net';
import { updateTenant } from '../../../pkg/tenants/settings.js';
import { startTestApp, type TestApp } from '../../support/app.js';

/** The status line and JSON body of a request sent as written, headers repeated as given. */
function rawRequest(
  url: string,
  method: string,
  path: string,
  headers: [string, string][],
  body = '',
): Promise<{ status: number; body: any }> {
  const { hostname, port } = new URL(url);
  const head = [
    `${method} ${path} HTTP/1.1`,
    `Host: ${hostname}`,
    'Connection: close',
    ...headers.map(([name, value]) => `${name}: ${value}`),
    `Content-Length: ${Buffer.byteLength(body)}`,
  ];
  return new Promise((resolve, reject) => {
    // Written, not ended: a client that half-closes may be taken for gone before its answer.
    const socket = connect(Number(port), hostname, () => socket.write(`${head.join('\r\n')}\r\n\r\n${body}`));
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk.toString('utf8')));
    socket.on('error', reject);
    socket.on('end', () => {
      const [top, ...rest] = answer.split('\r\n\r\n');
      const text = rest.join('\r\n\r\n');
      const chunked = /transfer-encoding: chunked/i.test(top!);
      const json = chunked
        ? text
            .split('\r\n')
            .filter((_, i) => i % 2 === 1)
            .join('')
        : text;
      const status = /^HTTP\/1\.1 (\d+)/.exec(top!);
      if (!status) return reject(new Error(`not an HTTP answer to ${method} ${path}: ${JSON.stringify(answer)}`));
      resolve({ status: Number(status[1]), body: JSON.parse(json) });
    });
  });
}

describe('Two Authorization headers', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp();
  });
  after(async () => app.close());

  it("are refused with 400 in each API's own error shape, whichever key comes first, and nothing is done", async () => {
    const ours = await app.company();
    const theirs = await app.company();
    for (const company of [ours, theirs]) await updateTenant(app.runtime.ctx, company.tenantId, { features: ['voice_api'] });
    const both: [string, string][] = [
      ['Authorization', `Bearer ${ours.apiKey}`],
      ['Authorization', `Bearer ${theirs.apiKey}`],
    ];
    const json: [string, string] = ['Content-Type', 'application/json'];

    const agent = await rawRequest(app.url, 'POST', '/api/v1/conversations', [...both, json], JSON.stringify({ agentId: ours.agentId }));
    expect(agent.status, JSON.stringify(agent.body)).to.equal(400);
    expect(agent.body.error).to.match(/one Authorization header/);
    const voice = await rawRequest(app.url, 'GET', '/v1/calls', [...both.reverse()]);
    expect(voice.status).to.equal(400);
    expect(voice.body.error).to.include({ code: 'bad_request' });
    const mcp = await rawRequest(
      app.url,
      'POST',
      '/mcp',
      [...both, json, ['Accept', 'application/json, text/event-stream']],
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    );
    expect(mcp.status, JSON.stringify(mcp.body)).to.equal(400);

    // Nothing was created: each company's key alone still sees no conversation of the refused request.
    for (const company of [ours, theirs])
      expect((await company.client.get('/api/v1/conversations')).body.conversations ?? []).to.deep.equal([]);
    // One header still signs in.
    expect((await rawRequest(app.url, 'GET', '/v1/calls', [both[0]!])).status).to.equal(200);
  });
});
