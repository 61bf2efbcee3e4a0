// How the jobs benchmarks drive a system: Switchboard's jobs created and awaited over REST (long
// polls), graphile-worker's added with addJob and reported by its worker thread (jobs-server.ts).
import type { Worker } from 'node:worker_threads';
import { makeWorkerUtils, type WorkerUtils } from 'graphile-worker';
import { benchClient } from './http-client.js';
import { inParallel } from './parallel.js';
// Types only: importing a value would run the server thread's script here.
import type { GraphileRun, GraphileTask, JobsServerReady } from './jobs-server.js';

const WAIT_SECONDS = 30;
// A job that is not done after this many long polls is reported as stuck.
const MAX_POLLS = 10;
const TASK = 'Reply with ok.';

/** One job's times, in ms since the epoch. */
export interface Job {
  /** Switchboard: the trigger's createdAt; graphile-worker: when addJob was called. */
  enqueued: number;
  /** When the submitter had the answer (202 received, addJob resolved). */
  acknowledged: number;
  started: number;
  finished: number;
}

export interface Enqueued {
  handle: string;
  /** When the submitter asked (ms since the epoch). */
  submitted: number;
  acknowledged: number;
}

/** How a phase drives one system: enqueue a job, and wait for an enqueued job to finish. */
export interface Driver {
  enqueue(): Promise<Enqueued>;
  finished(job: Enqueued): Promise<Job>;
  close(): Promise<void>;
}

export function switchboardDriver(ready: JobsServerReady): Driver {
  const client = benchClient(ready.url!, ready.apiKey!);
  return {
    async enqueue() {
      const submitted = Date.now();
      const res = await client.request('POST', '/api/v1/triggers', { agentId: ready.agentId, task: TASK });
      const acknowledged = Date.now();
      if (res.status !== 202) throw new Error(`creating a job answered ${res.status}: ${JSON.stringify(res.body)}`);
      return { handle: res.body.triggerId as string, submitted, acknowledged };
    },
    async finished({ handle: id, acknowledged }) {
      for (let poll = 0; poll < MAX_POLLS; poll++) {
        const res = await client.request('GET', `/api/v1/triggers/${id}?wait=${WAIT_SECONDS}`);
        if (res.status !== 200) throw new Error(`reading job ${id} answered ${res.status}`);
        const t = res.body as { status: string; createdAt: string; startedAt: string; completedAt: string; errorMessage: string | null };
        if (t.status === 'succeeded') {
          return { enqueued: Date.parse(t.createdAt), acknowledged, started: Date.parse(t.startedAt), finished: Date.parse(t.completedAt) };
        }
        if (!['queued', 'running'].includes(t.status)) throw new Error(`job ${id} ended ${t.status}: ${t.errorMessage}`);
      }
      throw new Error(`job ${id} did not finish`);
    },
    close: async () => {},
  };
}

/** graphile-worker: jobs of `task` added from the benchmark's own pool; runs reported by the worker thread. */
export async function graphileDriver(worker: Worker, databaseUrl: string, task: GraphileTask, poolMax: number): Promise<Driver> {
  const utils: WorkerUtils = await makeWorkerUtils({ connectionString: databaseUrl, maxPoolSize: poolMax });
  const runs = new Map<number, GraphileRun>();
  const waiters = new Map<number, (run: GraphileRun) => void>();
  let seq = 0;
  worker.on('message', (run: GraphileRun) => {
    runs.set(run.i, run);
    waiters.get(run.i)?.(run);
    waiters.delete(run.i);
  });
  const ran = (i: number) =>
    new Promise<GraphileRun>((resolve, reject) => {
      const early = runs.get(i);
      if (early) return resolve(early);
      const timer = setTimeout(() => reject(new Error(`graphile-worker job ${i} did not finish`)), WAIT_SECONDS * 1000);
      waiters.set(i, (run) => {
        clearTimeout(timer);
        resolve(run);
      });
    });
  return {
    async enqueue() {
      const i = seq++;
      const submitted = Date.now();
      await utils.addJob(task, { i, task: TASK });
      return { handle: String(i), submitted, acknowledged: Date.now() };
    },
    async finished({ handle, submitted, acknowledged }) {
      const run = await ran(Number(handle));
      if (!run.ok) throw new Error(`graphile-worker job ${handle} failed`);
      return { enqueued: submitted, acknowledged, started: run.start, finished: run.end };
    },
    close: async () => {
      await utils.release();
    },
  };
}

/** `parallel` submitters, each enqueueing a job and waiting for it to finish before the next. */
export function closedLoop(driver: Driver, jobs: number, parallel: number): Promise<Job[]> {
  return inParallel(jobs, parallel, async () => driver.finished(await driver.enqueue()));
}

export async function burst(driver: Driver, jobs: number, submitters: number): Promise<Job[]> {
  const enqueued = await inParallel(jobs, submitters, () => driver.enqueue());
  // Jobs start in creation order, so the last one ends about last: waiting on it alone keeps the
  // reads of the others (times stamped when they happened) out of the timed window.
  await driver.finished(enqueued.at(-1)!);
  return inParallel(enqueued.length, submitters, (i) => driver.finished(enqueued[i]!));
}
