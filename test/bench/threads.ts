// Benchmark servers run in worker threads, so the client timing them never waits on their event
// loops. Each thread posts one message when ready and closes on any message back.
import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import { ownThreads, threadsCpuMs } from './cpu-time.js';

export interface Thread<Ready> {
  worker: Worker;
  ready: Ready;
  /** The CPU ms its threads (those that appeared while it started) have spent; null where that cannot be read. */
  cpuMs(): number | null;
  close(): Promise<void>;
}

export async function startThread<Ready>(script: URL, workerData: unknown): Promise<Thread<Ready>> {
  const before = ownThreads();
  const worker = new Worker(script, { workerData });
  const exited = new Promise((resolve) => worker.once('exit', resolve));
  const [ready] = (await once(worker, 'message')) as [Ready];
  const threads = [...ownThreads()].filter((id) => !before.has(id));
  return {
    worker,
    ready,
    cpuMs: () => threadsCpuMs(threads),
    close: async () => {
      worker.postMessage('close');
      await exited;
    },
  };
}
