// The jobs benchmark's servers, each in a worker thread of its own so the client timing them never
// waits on their event loops: Switchboard's API, Switchboard's controllers (apart from the API, as
// the deployment runs `switchboard api` and `switchboard controllers`), or graphile-worker running
// a no-op task, at the given concurrency. The model stand-in Switchboard's jobs call runs in a thread
// of its own too (model-server.ts).
import { EventEmitter } from 'node:events';
import { Writable } from 'node:stream';
import { parentPort, workerData } from 'node:worker_threads';
import { Logger, run, type WorkerEvents } from 'graphile-worker';
import { startControllers } from '../../controllers/index.js';
import { loadConfig } from '../../pkg/config.js';
import { createLogger } from '../../pkg/log.js';
import { startRuntime } from '../../pkg/runtime.js';
import { updateTenant } from '../../pkg/store/tenants.js';
import { startTestApp, TEST_ENCRYPTION_KEY } from '../support/app.js';

export type System = 'switchboard' | 'graphile-worker';

export type JobsServerOptions =
  | { role: 'switchboard' | 'switchboard-controllers'; concurrency: number; poolMax: number; databaseUrl: string; modelUrl: string }
  | { role: 'graphile-worker'; concurrency: number; poolMax: number; databaseUrl: string };

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

const options = workerData as JobsServerOptions;
const port = parentPort!;

// Both Switchboard threads: the model stand-in of its own thread.
const switchboardEnv = (concurrency: number, poolMax: number, modelUrl: string) => ({
  OPENAI_BASE_URL: modelUrl,
  SWITCHBOARD_DB_POOL_MAX: String(poolMax),
  SWITCHBOARD_CONTROLLER_CONCURRENCY: String(concurrency),
});

async function switchboard(concurrency: number, poolMax: number, databaseUrl: string, modelUrl: string): Promise<() => Promise<void>> {
  const app = await startTestApp({ databaseUrl, env: switchboardEnv(concurrency, poolMax, modelUrl) });
  const company = await app.company({ name: `Jobs benchmark at concurrency ${concurrency}`, credits: 1e9 });
  // The default per-key rate limit would refuse a benchmark's pace.
  await updateTenant(app.runtime.ctx, company.tenantId, { requestsPerMinute: 1_000_000 });
  port.postMessage({ url: app.url, apiKey: company.apiKey, agentId: company.agentId } satisfies JobsServerReady);
  return app.close;
}

/** The controllers alone, as `switchboard controllers` runs them; their log lines are written and dropped. */
async function switchboardControllers(
  concurrency: number,
  poolMax: number,
  databaseUrl: string,
  modelUrl: string,
): Promise<() => Promise<void>> {
  const env = switchboardEnv(concurrency, poolMax, modelUrl);
  const config = loadConfig({ DATABASE_URL: databaseUrl, SWITCHBOARD_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY, ...env });
  const sink = new Writable({ write: (_chunk, _enc, done) => done() });
  const runtime = await startRuntime(config, createLogger('debug', sink));
  const controllers = await startControllers(runtime.ctx);
  port.postMessage({} satisfies JobsServerReady);
  return async () => {
    await controllers.stop();
    await runtime.close();
  };
}

async function graphileWorker(concurrency: number, poolMax: number, databaseUrl: string): Promise<() => Promise<void>> {
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
    maxPoolSize: poolMax,
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

const close = await (options.role === 'switchboard'
  ? switchboard(options.concurrency, options.poolMax, options.databaseUrl, options.modelUrl)
  : options.role === 'switchboard-controllers'
    ? switchboardControllers(options.concurrency, options.poolMax, options.databaseUrl, options.modelUrl)
    : graphileWorker(options.concurrency, options.poolMax, options.databaseUrl));
port.once('message', () => {
  void close().then(() => port.close());
});
