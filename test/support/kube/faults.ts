// The faults a real API server cannot be made to show on demand: a stand-in in front of the test
// cluster's kube-apiserver that passes every request through, until told to answer 503 or to hang
// (and then drops the connections it is streaming, as a restarting server drops watches).
import { readFileSync } from 'node:fs';
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import { createServer, request } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { TLS_DIR } from '../https.js';

type Outage = 'unavailable' | 'hang';

export interface FaultyKubeApi {
  /** https://127.0.0.1:PORT, with the same certificate as the test cluster's API server. */
  url: string;
  /** 'unavailable' answers 503, 'hang' never answers; both drop the connections in flight. null ends the outage. */
  setOutage(outage: Outage | null): void;
  /** Requests a hang holds: how many the client closed while waiting, and how many are still open. */
  hung(): { abandoned: number; open: number };
  close(): Promise<void>;
}

const UNAVAILABLE = JSON.stringify({
  kind: 'Status',
  apiVersion: 'v1',
  metadata: {},
  status: 'Failure',
  message: 'the server is currently unable to handle the request',
  reason: 'ServiceUnavailable',
  code: 503,
});

export async function startFaultyKubeApi(upstream: string, ca: string): Promise<FaultyKubeApi> {
  let outage: { kind: Outage; ended: Promise<void>; end(): void } | null = null;
  const held = new Set<ServerResponse>();
  const passing = new Set<ServerResponse>();
  let abandoned = 0;

  const pass = (method: string, url: string, headers: IncomingHttpHeaders, body: Buffer, res: ServerResponse) => {
    passing.add(res);
    res.once('close', () => passing.delete(res));
    const forward = request(new URL(url, upstream), { method, headers: { ...headers, host: new URL(upstream).host }, ca }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    forward.on('error', () => res.destroy());
    res.once('close', () => forward.destroy());
    forward.end(body);
  };

  const server = createServer(
    { cert: readFileSync(join(TLS_DIR, 'cert.pem')), key: readFileSync(join(TLS_DIR, 'key.pem')) },
    (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', async () => {
        if (outage?.kind === 'hang') {
          held.add(res);
          res.once('close', () => {
            if (held.delete(res)) abandoned++;
          });
          while (outage?.kind === 'hang') await outage.ended;
          held.delete(res);
          if (res.destroyed) return;
        }
        if (outage?.kind === 'unavailable') {
          res.writeHead(503, { 'Content-Type': 'application/json' }).end(UNAVAILABLE);
          return;
        }
        pass(req.method ?? 'GET', req.url ?? '/', req.headers, Buffer.concat(chunks), res);
      });
    },
  );
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const endOutage = () => {
    outage?.end();
    outage = null;
  };
  return {
    url: `https://127.0.0.1:${port}`,
    setOutage(kind) {
      endOutage();
      if (!kind) return;
      let end = () => {};
      const ended = new Promise<void>((resolve) => (end = resolve));
      outage = { kind, ended, end };
      for (const res of passing) res.destroy();
    },
    hung: () => ({ abandoned, open: held.size }),
    async close() {
      endOutage();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
