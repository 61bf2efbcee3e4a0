// The webhook receivers of the benchmark, in a worker thread of their own: `workerData.receivers`
// loopback HTTPS servers, each answering 200 at once but the last, which never answers. They count
// into `workerData.counters` (shared): events received, order violations (an event of a key whose
// `data.n` is not one more than the last received), and the first and last arrival (ms since the epoch).
import { readFileSync } from 'node:fs';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { COUNTER } from './webhook-counters.js';

const { receivers, counters: shared } = workerData as { receivers: number; counters: SharedArrayBuffer };
const counters = new Float64Array(shared);
const tls = {
  cert: readFileSync(join('.switchboard', 'test-tls', 'cert.pem')),
  key: readFileSync(join('.switchboard', 'test-tls', 'key.pem')),
};
const lastOfKey = new Map<string, number>();

const servers = await Promise.all(
  Array.from({ length: receivers }, async (_, i) => {
    const dead = i === receivers - 1;
    const server = createServer(tls, (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        if (dead) return;
        const { data } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { data: { key: string; n: number } };
        if ((lastOfKey.get(data.key) ?? -1) + 1 !== data.n) counters[COUNTER.violations]!++;
        lastOfKey.set(data.key, data.n);
        const now = Date.now();
        if (!counters[COUNTER.received]) counters[COUNTER.firstMs] = now;
        counters[COUNTER.lastMs] = now;
        counters[COUNTER.received]!++;
        res.writeHead(200).end();
      });
    });
    server.keepAliveTimeout = 60_000;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return server;
  }),
);

parentPort!.postMessage({ urls: servers.map((s) => `https://127.0.0.1:${(s.address() as AddressInfo).port}/hooks`) });
parentPort!.once('message', () => {
  for (const s of servers) s.closeAllConnections();
  void Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve)))).then(() => process.exit(0));
});
