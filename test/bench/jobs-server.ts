// The jobs benchmark's servers, each in a worker thread of its own so the client timing them never
// waits on their event loops: Switchboard's API, Switchboard's controllers (apart from the API, as
// the deployment runs `switchboard api` and `switchboard controllers`), or graphile-worker running
// a task, at the given concurrency: a no-op, or (with `modelUrl`) the work of a Switchboard job without
// Switchboard around it. The model stand-in those jobs call runs in a thread of its own (model-server.ts).
import { EventEmitter } from 'node:events';
import { Writable } from 'node:stream';
import { parentPort, workerData } from 'node:worker_threads';
import { Logger, run, type JobHelpers, type Task, type WorkerEvents } from 'graphile-worker';
import pg from 'pg';
import { startControllers } from '../../controllers/index.js';
import { createModelClient, type ModelClient } from '../../pkg/agent/model.js';
import { loadConfig } from '../../pkg/config.js';
import { createLogger } from '../../pkg/log.js';
import { startRuntime } from '../../pkg/runtime.js';
import { updateTenant } from '../../pkg/tenants/settings.js';
import { startTestApp, TEST_ENCRYPTION_KEY } from '../support/app.js';

/** `graphile-worker-work`: graphile-worker running `work`, a Switchboard job's work in a plain task. */
export type System = 'switchboard' | 'graphile-worker' | 'graphile-worker-work';

export type JobsServerOptions =
  | { role: 'switchboard' | 'switchboard-controllers'; concurrency: number; poolMax: number; databaseUrl: string; modelUrl: string }
  | { role: 'graphile-worker'; concurrency: number; poolMax: number; databaseUrl: string; modelUrl?: string };

/** The tasks graphile-worker runs: a no-op, and, when its thread has a model, `work`. */
export type GraphileTask = 'noop' | 'work';

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

// The `work` task's rows (graphile-worker's own tables are left as they are).
const WORK_TABLE = 'graphile_bench_messages';

async function createWorkTable(databaseUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(
      `create table if not exists ${WORK_TABLE} (id bigserial primary key, job_id text not null, role text not null, content text not null, created_at timestamptz not null default now())`,
    );
  } finally {
    await client.end();
  }
}

/**
 * What a Switchboard job does once claimed, as a plain task would do it: one model call through the
 * same client (Switchboard's model client), and the task and the reply stored as two
 * rows; none of Switchboard's API, context reads, tools, credits or state machine.
 */
async function work(model: ModelClient, payload: { task: string }, helpers: JobHelpers): Promise<void> {
  const completion = await model.complete({
    model: model.defaultModel,
    messages: [{ role: 'user', content: payload.task }],
  });
  await helpers.query(`insert into ${WORK_TABLE} (job_id, role, content) values ($1, 'user', $2), ($1, 'assistant', $3)`, [
    helpers.job.id,
    payload.task,
    completion.choices[0]?.message.content ?? '',
  ]);
}

async function graphileWorker(concurrency: number, poolMax: number, databaseUrl: string, modelUrl?: string): Promise<() => Promise<void>> {
  const started = new Map<string, number>();
  const events: WorkerEvents = new EventEmitter();
  events.on('job:complete', ({ job, error }) => {
    const run: GraphileRun = { i: (job.payload as { i: number }).i, start: started.get(job.id)!, end: Date.now(), ok: !error };
    started.delete(job.id);
    port.postMessage(run);
  });
  const model = modelUrl ? createModelClient({ baseURL: modelUrl, defaultModel: 'bench' }) : null;
  if (model) await createWorkTable(databaseUrl);
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
      work: async (payload, helpers) => {
        started.set(helpers.job.id, Date.now());
        if (!model) throw new Error('this worker has no model to call');
        await work(model, payload as { task: string }, helpers);
      },
    } satisfies Record<GraphileTask, Task>,
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
    : graphileWorker(options.concurrency, options.poolMax, options.databaseUrl, options.modelUrl));
port.once('message', () => {
  void close().then(() => port.close());
});
