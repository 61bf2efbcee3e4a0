import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { generate } from 'selfsigned';
import { ConfigError, loadConfig } from '../../../pkg/config.js';
import { createOutbound, OutboundError, type Outbound } from '../../../pkg/outbound/client.js';
import { startHttpsServer, TLS_DIR, type TestHttpsServer } from '../../support/https.js';

const SECRET = 'sk-live-never-in-messages';

const outbound = (env: Record<string, string> = {}): Outbound => createOutbound(loadConfig(env));
const allowing = (allow: string, env: Record<string, string> = {}) => outbound({ SWITCHBOARD_OUTBOUND_ALLOW: allow, ...env });

async function failure(promise: Promise<unknown>): Promise<OutboundError> {
  try {
    await promise;
  } catch (err) {
    expect(err).to.be.instanceOf(OutboundError);
    return err as OutboundError;
  }
  expect.fail('expected an OutboundError');
}

/** Routes: /redirect?status=&to= answers a redirect, /big 100 KB, /hang never answers, else "hello". */
function route(req: { url?: string }, res: import('node:http').ServerResponse): void {
  const url = new URL(req.url ?? '/', 'https://test');
  if (url.pathname === '/redirect') {
    res.writeHead(Number(url.searchParams.get('status') ?? 302), { location: url.searchParams.get('to')! }).end();
  } else if (url.pathname === '/big') {
    res.end('x'.repeat(100_000));
  } else if (url.pathname !== '/hang') {
    res.end('hello');
  }
}

const redirect = (server: TestHttpsServer, to: string, status = 302) =>
  `${server.url}/redirect?status=${status}&to=${encodeURIComponent(to)}`;

describe('outbound requests', () => {
  let server: TestHttpsServer;
  before(async () => {
    server = await startHttpsServer(route);
  });
  after(() => server.close());
  beforeEach(() => {
    server.requests.length = 0;
  });

  describe('destinations', () => {
    it('refuses http:// URLs, even to an allowed address', async () => {
      const err = await failure(allowing('127.0.0.1/32').request({ method: 'GET', url: server.url.replace('https:', 'http:') }));
      expect(err.message).to.match(/only https/);
    });

    it('refuses loopback, private, link-local and other non-public addresses when nothing is allowed', async () => {
      const refused = [
        server.url,
        `https://localhost:${server.port}/`,
        `https://[::1]:${server.port}/`,
        `https://[::ffff:127.0.0.1]:${server.port}/`,
        'https://10.0.0.1/',
        'https://172.16.0.1/',
        'https://192.168.1.1/',
        'https://169.254.169.254/latest/meta-data/',
        'https://100.64.0.1/',
        'https://0.0.0.0/',
        'https://224.0.0.1/',
        'https://[fc00::1]/',
        'https://[fe80::1]/',
        'https://[64:ff9b::a00:1]/',
      ];
      for (const url of refused) {
        const err = await failure(outbound().request({ method: 'GET', url }));
        expect(err.message, url).to.match(/^refused: /);
      }
      expect(server.requests).to.be.empty;
    });

    it('allows addresses in a CIDR of SWITCHBOARD_OUTBOUND_ALLOW', async () => {
      const res = await allowing('10.0.0.0/8, 127.0.0.0/8').request({ method: 'GET', url: `${server.url}/` });
      expect(res).to.include({ status: 200, body: 'hello', truncated: false });
    });

    it('allows a host name of SWITCHBOARD_OUTBOUND_ALLOW', async () => {
      const res = await allowing('localhost').request({ method: 'GET', url: `https://localhost:${server.port}/` });
      expect(res.body).to.equal('hello');
    });

    it('allows an IPv6 CIDR of SWITCHBOARD_OUTBOUND_ALLOW', async () => {
      const v6 = await startHttpsServer(route, { host: '::1' });
      try {
        const res = await allowing('::1/128').request({ method: 'GET', url: `${v6.url}/` });
        expect(res.body).to.equal('hello');
      } finally {
        await v6.close();
      }
    });

    it('refuses a loopback address the allowed CIDR does not cover', async () => {
      const err = await failure(allowing('127.0.0.1/32').request({ method: 'GET', url: `https://127.0.0.2:${server.port}/` }));
      expect(err.message).to.equal('refused: 127.0.0.2 is not a public address');
    });

    it('rejects a malformed CIDR in SWITCHBOARD_OUTBOUND_ALLOW', () => {
      expect(() => allowing('10.0.0.0/33')).to.throw(ConfigError, /SWITCHBOARD_OUTBOUND_ALLOW/);
    });

    it('does not trust a certificate outside the CA store', async () => {
      const pems = await generate([{ name: 'commonName', value: 'localhost' }], { keyType: 'ec', algorithm: 'sha256' });
      const stranger = createServer({ cert: pems.cert, key: pems.private }, (_req, res) => res.end('hello'));
      await new Promise<void>((resolve) => stranger.listen(0, '127.0.0.1', resolve));
      try {
        const { port } = stranger.address() as AddressInfo;
        const err = await failure(allowing('localhost').request({ method: 'GET', url: `https://localhost:${port}/` }));
        expect(err.message).to.match(/^request to localhost failed \(/);
      } finally {
        stranger.closeAllConnections();
        await new Promise((resolve) => stranger.close(resolve));
      }
    });
  });

  describe('redirects', () => {
    const client = () => allowing('127.0.0.1/32');

    it('follows a redirect and returns the final response', async () => {
      const res = await client().request({ method: 'GET', url: redirect(server, `${server.url}/done`, 301) });
      expect(res).to.include({ status: 200, body: 'hello' });
      expect(server.requests.map((r) => r.url))
        .to.have.length(2)
        .and.to.include('/done');
    });

    it('refuses a redirect to a non-public or non-allowed address before connecting', async () => {
      for (const to of [
        'https://10.0.0.1/',
        'https://169.254.169.254/',
        `https://127.0.0.2:${server.port}/`,
        `https://[::1]:${server.port}/`,
      ]) {
        const err = await failure(client().request({ method: 'GET', url: redirect(server, to) }));
        expect(err.message, to).to.match(/^refused: .* is not a public address$/);
      }
      expect(server.requests).to.have.length(4);
    });

    it('refuses a redirect to http://', async () => {
      const err = await failure(client().request({ method: 'GET', url: redirect(server, server.url.replace('https:', 'http:')) }));
      expect(err.message).to.match(/only https/);
      expect(server.requests).to.have.length(1);
    });

    it('follows 5 redirects and refuses a sixth', async () => {
      const chain = (hops: number) => {
        let url = `${server.url}/done`;
        for (let i = 0; i < hops; i++) url = redirect(server, url);
        return url;
      };
      expect((await client().request({ method: 'GET', url: chain(5) })).body).to.equal('hello');
      const err = await failure(client().request({ method: 'GET', url: chain(6) }));
      expect(err.message).to.equal('refused: more than 5 redirects');
      expect(server.requests).to.have.length(6 + 6);
    });

    it('turns a POST into a GET without body on 303, and repeats it with its body on 307', async () => {
      const post = { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":1}' } as const;
      await client().request({ ...post, url: redirect(server, `${server.url}/after-303`, 303) });
      await client().request({ ...post, url: redirect(server, `${server.url}/after-307`, 307) });
      const [, after303, , after307] = server.requests;
      expect(after303).to.include({ method: 'GET', url: '/after-303', body: '' });
      expect(after303!.headers).not.to.have.property('content-type');
      expect(after307).to.include({ method: 'POST', url: '/after-307', body: '{"a":1}' });
      expect(after307!.headers).to.include({ 'content-type': 'application/json' });
    });

    it('sends the caller headers to the same origin only', async () => {
      const both = allowing('127.0.0.1/32,localhost');
      const headers = { authorization: `Bearer ${SECRET}` };
      await both.request({ method: 'GET', headers, url: redirect(server, `${server.url}/same`) });
      await both.request({ method: 'GET', headers, url: redirect(server, `https://localhost:${server.port}/other`) });
      const [first, same, , other] = server.requests;
      expect(first!.headers.authorization).to.equal(`Bearer ${SECRET}`);
      expect(same!.headers.authorization).to.equal(`Bearer ${SECRET}`);
      expect(other!.url).to.equal('/other');
      expect(other!.headers).not.to.have.property('authorization');
    });
  });

  describe('limits', () => {
    it('gives up after SWITCHBOARD_OUTBOUND_TIMEOUT_MS', async () => {
      const started = Date.now();
      const err = await failure(
        allowing('127.0.0.1/32', { SWITCHBOARD_OUTBOUND_TIMEOUT_MS: '300' }).request({ method: 'GET', url: `${server.url}/hang` }),
      );
      expect(err.message).to.equal('timed out after 300 ms');
      expect(Date.now() - started).to.be.below(5000);
    });

    it('reads at most SWITCHBOARD_OUTBOUND_MAX_BYTES and marks the body truncated', async () => {
      const res = await allowing('127.0.0.1/32', { SWITCHBOARD_OUTBOUND_MAX_BYTES: '1024' }).request({
        method: 'GET',
        url: `${server.url}/big`,
      });
      expect(res).to.include({ status: 200, truncated: true });
      expect(res.body).to.equal('x'.repeat(1024));
    });
  });

  describe('kept-alive connections', () => {
    it("closes a pooled connection before the server's Keep-Alive hint runs out, and sends the next request on a new one", async () => {
      // A server that says it closes idle connections after 2 s but never does: only the client's own timer closes them.
      const connections = new Set<object>();
      const hinting = createServer(
        { cert: readFileSync(join(TLS_DIR, 'cert.pem')), key: readFileSync(join(TLS_DIR, 'key.pem')) },
        (req, res) => {
          connections.add(req.socket);
          res.setHeader('keep-alive', 'timeout=2');
          res.end('hello');
        },
      );
      hinting.keepAliveTimeout = 0;
      await new Promise<void>((resolve) => hinting.listen(0, '127.0.0.1', resolve));
      const url = `https://127.0.0.1:${(hinting.address() as AddressInfo).port}/`;
      const firstClosed = new Promise((resolve) => hinting.once('secureConnection', (socket) => socket.once('close', resolve)));
      try {
        const client = allowing('127.0.0.1/32');
        expect((await client.request({ method: 'POST', url, body: '{}' })).status).to.equal(200);
        await firstClosed;
        expect((await client.request({ method: 'POST', url, body: '{}' })).status).to.equal(200);
        expect(connections.size, 'connections used').to.equal(2);
      } finally {
        hinting.closeAllConnections();
        await new Promise((resolve) => hinting.close(resolve));
      }
    });
  });

  describe('error messages', () => {
    it('never contain request headers', async () => {
      const closedPort = await new Promise<number>((resolve) => {
        const probe = createServer().listen(0, '127.0.0.1', () => {
          const { port } = probe.address() as AddressInfo;
          probe.close(() => resolve(port));
        });
      });
      const client = allowing('127.0.0.1/32', { SWITCHBOARD_OUTBOUND_TIMEOUT_MS: '300' });
      const headers = { authorization: `Bearer ${SECRET}`, 'x-api-key': SECRET };
      const errors = await Promise.all(
        [
          client.request({ method: 'GET', headers, url: 'https://10.0.0.1/' }),
          client.request({ method: 'GET', headers, url: `${server.url}/hang` }),
          client.request({ method: 'GET', headers, url: `https://127.0.0.1:${closedPort}/` }),
          client.request({ method: 'GET', headers: { 'x-api-key': `${SECRET}\r\nx-injected: 1` }, url: `${server.url}/` }),
          client.request({ method: 'GET', headers: { [`x-${SECRET}`]: undefined as unknown as string }, url: `${server.url}/` }),
        ].map(failure),
      );
      for (const err of errors) {
        expect(err.message).not.to.include(SECRET);
        expect(err.stack).not.to.include(SECRET);
      }
    });
  });
});
