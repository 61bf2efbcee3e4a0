// The jobs benchmark's servers, each in a worker thread of its own so the client timing them never
// waits on their event loops: Switchboard (the API with its controllers in-process) or
// graphile-worker running a no-op task, at the given concurrency; and the model stand-in
// Switchboard's jobs call, which answers at once and runs apart from it as a real model would.
import { EventEmitter } from 'node:events';
import { parentPort, workerData } from 'node:worker_threads';
import { Logger, run, type WorkerEvents } from 'graphile-worker';
import { startModelServer } from '../../pkg/agent/openai-server.js';
import { updateTenant } from '../../pkg/store/tenants.js';
import { startTestApp } from '../support/app.js';

export type System = 'switchboard' | 'graphile-worker';

export type JobsServerOptions =
  | { role: System; concurrency: number; databaseUrl: string; modelUrl?: string }
  | { role: 'model' };

/** The first message: where to send work. */
export interface JobsServerReady {
  url?: string;
  apiKey?: string;
  agentId?: string;
}

/** graphile-worker only: one message per job run, times in ms since the epoch. */
export interface GraphileRun {
  i: number;
  start: number;
  end: number;
  ok: boolean;
}

// Production's default pool size, given to both systems.
const POOL_MAX = 20;
const options = workerData as JobsServerOptions;
const port = parentPort!;

async function model(): Promise<() => Promise<void>> {
  // The no-op reply: a job that gets it succeeds after one model call.
  const server = await startModelServer(() => ({ content: 'ok' }));
  port.postMessage({ url: server.url } satisfies JobsServerReady);
  return server.close;
}

async function switchboard(concurrency: number, databaseUrl: string, modelUrl: string): Promise<() => Promise<void>> {
  const app = await startTestApp({
    databaseUrl,
    controllers: true,
    env: {
      // The stand-in of its own thread, not the one startTestApp starts beside the API.
      OPENAI_BASE_URL: modelUrl,
      SWITCHBOARD_DB_POOL_MAX: String(POOL_MAX),
      SWITCHBOARD_CONTROLLER_CONCURRENCY: String(concurrency),
    },
  });
  const company = await app.company({ name: `Jobs benchmark at concurrency ${concurrency}`, credits: 1e9 });
  // The default per-key rate limit would refuse a benchmark's pace.
  await updateTenant(app.runtime.ctx, company.tenantId, { requestsPerMinute: 1_000_000 });
  port.postMessage({ url: app.url, apiKey: company.apiKey, agentId: company.agentId } satisfies JobsServerReady);
  return app.close;
}

async function graphileWorker(concurrency: number, databaseUrl: string): Promise<() => Promise<void>> {
  const started = new Map<string, number>();
  const events: WorkerEvents = new EventEmitter();
  events.on('job:complete', ({ job, error }) => {
    const run: GraphileRun = { i: (job.payload as { i: number }).i, start: started.get(job.id)!, end: Date.now(), ok: !error };
    started.delete(job.id);
    port.postMessage(run);
  });
  const runner = await run({
    connectionString: databaseUrl,
    concurrency,
    maxPoolSize: POOL_MAX,
    noHandleSignals: true,
    events,
    // Its per-job info lines would cost more than the no-op task.
    logger: new Logger(() => () => {}),
    taskList: {
      noop: async (_payload, helpers) => {
        started.set(helpers.job.id, Date.now());
      },
    },
  });
  port.postMessage({} satisfies JobsServerReady);
  return async () => {
    await runner.stop();
    await runner.promise;
  };
}

const close = await (options.role === 'model'
  ? model()
  : options.role === 'switchboard'
    ? switchboard(options.concurrency, options.databaseUrl, options.modelUrl!)
    : graphileWorker(options.concurrency, options.databaseUrl));
port.once('message', () => {
  void close().then(() => port.close());
});
