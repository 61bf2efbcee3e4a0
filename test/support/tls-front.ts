// A TLS front on loopback, as the load balancer before a deployment: it ends TLS with the test
// certificate and passes the bytes to the app's plain HTTP port (requests and WebSocket upgrades alike).
import { readFileSync } from 'node:fs';
import { connect, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createServer } from 'node:tls';
import { TLS_DIR } from './https.js';

export interface TlsFront {
  /** https://127.0.0.1:PORT: the deployment's public address. */
  url: string;
  /** Where the bytes go: the app's http:// address, known once it listens. */
  forwardTo(appUrl: string): void;
  close(): Promise<void>;
}

export async function startTlsFront(): Promise<TlsFront> {
  let port = 0;
  const server = createServer({ cert: readFileSync(join(TLS_DIR, 'cert.pem')), key: readFileSync(join(TLS_DIR, 'key.pem')) }, (socket) => {
    const upstream = connect(port, '127.0.0.1');
    socket.pipe(upstream).pipe(socket);
    socket.on('error', () => upstream.destroy());
    upstream.on('error', () => socket.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
    forwardTo: (appUrl) => void (port = Number(new URL(appUrl).port)),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
