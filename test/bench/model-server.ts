// The model stand-in of the benchmarks, in a worker thread of its own so it never shares an event
// loop with the server it answers, as a real model server would not: it answers at once, in
// `workerData.chunks` when given.
import { parentPort, workerData } from 'node:worker_threads';
import { startModelServer } from '../../pkg/agent/openai-server.js';

const { chunks } = (workerData ?? {}) as { chunks?: string[] };
const server = await startModelServer(() => (chunks ? { chunks, content: chunks.join('') } : { content: 'ok' }));
parentPort!.once('message', () => {
  void server.close().then(() => parentPort!.close());
});
parentPort!.postMessage({ url: server.url });
