// A real HTTPS server on loopback that records what arrives, using the test certificate
// (make-cert.ts) that the product trusts through NODE_EXTRA_CA_CERTS.
import { readFileSync } from 'node:fs';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

export const TLS_DIR = join(process.cwd(), '.switchboard', 'test-tls');

export interface RecordedRequest {
  method: string;
  /** Path and query, as sent. */
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** When it had arrived whole (Date.now()). */
  at: number;
}

export interface TestHttpsServer {
  /** https://127.0.0.1:PORT (or https://[::1]:PORT). */
  url: string;
  port: number;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

export interface HttpsServerOptions {
  /** Loopback by default; else an address of a bridge the test made. */
  host?: string;
  /** PEM files of another certificate than the tests' own, for an address it does not name. */
  tls?: { cert: string; key: string };
}

/** The handler runs after the request body was read and recorded. */
export async function startHttpsServer(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
  options: HttpsServerOptions = {},
): Promise<TestHttpsServer> {
  const host = options.host ?? '127.0.0.1';
  const tls = options.tls ?? { cert: join(TLS_DIR, 'cert.pem'), key: join(TLS_DIR, 'key.pem') };
  const requests: RecordedRequest[] = [];
  const server = createServer({ cert: readFileSync(tls.cert), key: readFileSync(tls.key) }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      requests.push({
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        at: Date.now(),
      });
      handler(req, res);
    });
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://${host.includes(':') ? `[${host}]` : host}:${port}`,
    port,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        // Handlers that never answer leave connections open; the tests are done with them.
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
