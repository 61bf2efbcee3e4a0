// A no-op HTTP proxy in a worker thread of its own, for the Agent API benchmark: it forwards each
// request to `workerData.target` and streams the answer back, doing nothing else. What it adds to
// time to first token is what any gateway adds on this machine before doing any work.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { parentPort, workerData } from 'node:worker_threads';

const target = new URL((workerData as { target: string }).target);
const agent = new http.Agent({ keepAlive: true });
const server = http.createServer((req, res) => {
  const upstream = http.request(
    { host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers, agent },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      res.socket?.setNoDelay(true);
      answer.pipe(res);
    },
  );
  upstream.on('error', () => res.destroy());
  req.pipe(upstream);
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  parentPort!.postMessage({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
});
parentPort!.once('message', () => {
  server.closeAllConnections();
  server.close(() => parentPort!.close());
});
