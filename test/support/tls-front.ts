// A TLS front on loopback, as the load balancer before a deployment: it ends TLS with the test
// certificate and passes the bytes to an app's plain HTTP port (requests and WebSocket upgrades
// alike). Before several replicas it takes them in turn, one connection each, and like nginx's
// proxy_next_upstream tries the next when one refuses the connection (a replica killed).
import { readFileSync } from 'node:fs';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { join } from 'node:path';
import { createServer, type TLSSocket } from 'node:tls';
import { TLS_DIR } from './https.js';

export interface TlsFront {
  /** https://127.0.0.1:PORT: the deployment's public address. */
  url: string;
  /** Where the bytes go: the apps' http:// addresses (one app, or every replica), known once they listen. */
  forwardTo(...appUrls: string[]): void;
  /** Connections an app refused (each then tried on the next app). */
  readonly refused: number;
  close(): Promise<void>;
}

export async function startTlsFront(): Promise<TlsFront> {
  let ports: number[] = [];
  let turn = 0;
  let refused = 0;
  /** Connects to the replicas from the next in turn, each tried once; null when none took the connection. */
  const upstream = async (): Promise<Socket | null> => {
    const first = turn++;
    for (const port of ports.map((_, i) => ports[(first + i) % ports.length]!)) {
      const socket = connect(port, '127.0.0.1');
      const connected = await new Promise<boolean>((resolve) => {
        socket.once('connect', () => resolve(true));
        socket.once('error', () => resolve(false));
      });
      if (connected) return socket;
      refused++;
    }
    return null;
  };
  const server = createServer(
    { cert: readFileSync(join(TLS_DIR, 'cert.pem')), key: readFileSync(join(TLS_DIR, 'key.pem')) },
    (socket: TLSSocket) => {
      // Nothing is read from the client until a replica took the connection: its first bytes go there.
      socket.on('error', () => undefined);
      void upstream().then((app) => {
        // The client may have gone meanwhile.
        if (!app || socket.destroyed) {
          app?.destroy();
          return void socket.destroy();
        }
        socket.pipe(app).pipe(socket);
        socket.on('error', () => app.destroy());
        app.on('error', () => socket.destroy());
      });
    },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
    forwardTo: (...appUrls) => void (ports = appUrls.map((url) => Number(new URL(url).port))),
    get refused() {
      return refused;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
