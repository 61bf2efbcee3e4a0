// Benchmark servers run in worker threads, so the client timing them never waits on their event
// loops. Each thread posts one message when ready and closes on any message back.
import { once } from 'node:events';
import { Worker } from 'node:worker_threads';

export interface Thread<Ready> {
  worker: Worker;
  ready: Ready;
  close(): Promise<void>;
}

export async function startThread<Ready>(script: URL, workerData: unknown): Promise<Thread<Ready>> {
  const worker = new Worker(script, { workerData });
  const exited = new Promise((resolve) => worker.once('exit', resolve));
  const [ready] = (await once(worker, 'message')) as [Ready];
  return {
    worker,
    ready,
    close: async () => {
      worker.postMessage('close');
      await exited;
    },
  };
}
