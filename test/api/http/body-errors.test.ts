import { expect } from 'chai';
import { connect } from 'node:net';
import { updateTenant } from '../../../pkg/tenants/settings.js';
import { startTestApp, type TestApp } from '../../support/app.js';
import { eventually } from '../../support/eventually.js';

/** Where each surface reads a JSON body, and the shape of its errors. */
const SURFACES = [
  { name: 'the Agent API', path: '/api/v1/conversations', shape: 'agent' },
  { name: "the Agent API's turns", path: '/api/v1/conversations/00000000-0000-4000-8000-000000000000/messages', shape: 'agent' },
  { name: 'the Voice API', path: '/v1/calls', shape: 'voice' },
  { name: 'MCP', path: '/mcp', shape: 'json-rpc' },
] as const;

const errorLines = (app: TestApp) => app.logs.filter((line) => JSON.parse(line).level >= 50);

describe('Request bodies that cannot be read', () => {
  let app: TestApp;
  let apiKey: string;
  before(async () => {
    app = await startTestApp();
    const company = await app.company();
    apiKey = company.apiKey;
    await updateTenant(app.runtime.ctx, company.tenantId, { features: ['voice_api'] });
  });
  after(async () => app.close());

  const post = (path: string, headers: Record<string, string>, body: string | Blob = '{"message":"hi"}') =>
    fetch(`${app.url}${path}`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${apiKey}`,
        accept: 'application/json, text/event-stream',
        'content-type': 'application/json',
        ...headers,
      },
      body,
    });

  for (const surface of SURFACES) {
    describe(`on ${surface.name} (POST ${surface.path})`, () => {
      async function expectRefused(res: Response, status: number): Promise<void> {
        const body = await res.json();
        expect(res.status, JSON.stringify(body)).to.equal(status);
        if (surface.shape === 'voice') {
          expect(body.error.code).to.equal(status === 415 ? 'unsupported_media_type' : 'invalid_json');
          expect(body.error.message).to.be.a('string').and.not.equal('');
        } else if (surface.shape === 'json-rpc') {
          // A body MCP cannot read is a JSON-RPC parse error, whatever the HTTP status says of why.
          expect(body).to.deep.include({ jsonrpc: '2.0', id: null });
          expect(body.error.code).to.equal(-32700);
          expect(body.error.message).to.be.a('string').and.not.equal('');
        } else {
          expect(body.error).to.be.a('string').and.not.equal('');
        }
      }

      it('answers 415 for a charset other than UTF-8, known or not, without an error in the log', async () => {
        await expectRefused(await post(surface.path, { 'content-type': 'application/json; charset=latin1' }), 415);
        await expectRefused(await post(surface.path, { 'content-type': 'application/json; charset=x-no-such-charset' }), 415);
        expect(errorLines(app)).to.deep.equal([]);
      });

      it('answers 400 for a body whose bytes are not UTF-8, rather than reading U+FFFD in their place', async () => {
        // "café" with é as the one Latin-1 byte 0xE9: no UTF-8 sequence starts so and ends there.
        const res = await post(surface.path, {}, new Blob([Buffer.from('{"message":"caf\xe9"}', 'latin1')]));
        const copy = res.clone();
        await expectRefused(res, 400);
        if (surface.shape !== 'json-rpc') expect(JSON.stringify(await copy.json())).to.include('not UTF-8');
        expect(errorLines(app)).to.deep.equal([]);
      });

      it('answers 415 for an unknown Content-Encoding, and 400 for a body that is not what its Content-Encoding says', async () => {
        await expectRefused(await post(surface.path, { 'content-encoding': 'x-no-such-encoding' }), 415);
        await expectRefused(await post(surface.path, { 'content-encoding': 'gzip' }), 400);
        expect(errorLines(app)).to.deep.equal([]);
      });
    });
  }

  it('logs a client that aborts its request while its body is read at info level, not as an error', async () => {
    const { tenantId, apiKey: key } = await app.company();
    const socket = connect(Number(new URL(app.url).port), '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(
      `POST /v1/calls HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"to":`,
    );
    // Metered once its key is checked; its body is read next.
    const metered = async () =>
      (await (await fetch(`${app.metricsUrl}/metrics`)).text()).includes(`switchboard_api_requests_total{tenant="${tenantId}"`);
    await eventually('the request to be metered', metered);
    socket.destroy();

    await eventually('the abort to be logged', async () => app.logs.some((line) => line.includes('client aborted its request')));
    expect(errorLines(app)).to.deep.equal([]);
  });
});
