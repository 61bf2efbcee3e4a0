// A controller replica as deployed: `switchboard controllers` in a child process of its own, so its
// RSS and event loop are its own, under the chart's heap limit. Configured as a deployment's defaults
// are, except where the bench's own environment sets SWITCHBOARD_CONTROLLER_CONCURRENCY,
// SWITCHBOARD_CALL_CONCURRENCY or SWITCHBOARD_DB_POOL_MAX (a run at other settings, written under another name).
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import YAML from 'yaml';
import { startTestApp, TEST_ENCRYPTION_KEY, type TestApp } from '../support/app.js';
import { createScratchDatabase } from '../support/database.js';

const SWITCHBOARD = fileURLToPath(new URL('../../cmd/switchboard.js', import.meta.url));
/** The chart's values of a controllers pod: its replica runs under the same V8 settings (NODE_OPTIONS), not Node's defaults for this machine. */
const DEPLOYED = YAML.parse(readFileSync(new URL('../../../charts/switchboard/values.yaml', import.meta.url), 'utf8')).controllers;
/** V8's heap limit and young-generation semi-space, in MiB. */
export const DEPLOYED_HEAP_LIMIT_MB: number = DEPLOYED.heapLimitMB;
export const DEPLOYED_SEMI_SPACE_MB: number = DEPLOYED.semiSpaceMB;
const START_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 10_000;
/** pino's level of a warning. */
const WARN = 40;

/** The capacity settings a run may set from its environment; unset, the deployment's defaults apply. */
export const CAPACITY_SETTINGS = ['SWITCHBOARD_CONTROLLER_CONCURRENCY', 'SWITCHBOARD_CALL_CONCURRENCY', 'SWITCHBOARD_DB_POOL_MAX'] as const;

/** The capacity settings this run overrides (empty: the defaults). */
export function capacityOverrides(): Record<string, string> {
  return Object.fromEntries(CAPACITY_SETTINGS.filter((name) => process.env[name]).map((name) => [name, process.env[name]!]));
}

/** Where a bench's results go: `name`, or `name-overrides` when the capacity settings are not the defaults. */
export const resultsName = (name: string): string => (Object.keys(capacityOverrides()).length ? `${name}-overrides` : name);

export interface Replica {
  pid: number;
  /** Its health and metrics server. */
  url: string;
  /** The replica's event loop delay p99 (prom-client's monitorEventLoopDelay) since the last call, in ms. */
  eventLoopLagP99Ms(): Promise<number>;
  /** Its resident set size now, in MB. */
  rssMB(): number;
  /** Its warnings and errors so far: each message (with its error's) and how many times it was logged. */
  problems(): Record<string, number>;
  stop(): Promise<void>;
}

/** Starts a replica on `databaseUrl` calling the model at `modelUrl`; `env` adds settings that are not capacity (the sim's scenarios). */
export async function startReplica(databaseUrl: string, modelUrl: string, env: Record<string, string> = {}): Promise<Replica> {
  // Nothing of the bench's own environment but the basics: no cluster, no Redis, no stray settings.
  const child: ChildProcess = spawn(
    process.execPath,
    [`--max-old-space-size=${DEPLOYED_HEAP_LIMIT_MB}`, `--max-semi-space-size=${DEPLOYED_SEMI_SPACE_MB}`, SWITCHBOARD, 'controllers'],
    {
      env: {
        PATH: process.env.PATH ?? '',
        ...(process.env.NODE_EXTRA_CA_CERTS && { NODE_EXTRA_CA_CERTS: process.env.NODE_EXTRA_CA_CERTS }),
        DATABASE_URL: databaseUrl,
        OPENAI_BASE_URL: modelUrl,
        SWITCHBOARD_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
        HOST: '127.0.0.1',
        PORT: '0',
        SWITCHBOARD_METRICS_PORT: '0',
        ...env,
        ...capacityOverrides(),
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const exited = once(child, 'exit');
  const lines = createInterface({ input: child.stdout! });
  const problems: Record<string, number> = {};
  lines.on('line', (line) => {
    const entry = JSON.parse(line) as { level?: number; msg?: string; err?: { message?: string } | string };
    if ((entry.level ?? 0) < WARN) return;
    const err = typeof entry.err === 'string' ? entry.err : entry.err?.message;
    const key = err ? `${entry.msg}: ${err}` : String(entry.msg);
    problems[key] = (problems[key] ?? 0) + 1;
  });
  const [port, metricsPort] = await new Promise<[number, number]>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the replica did not listen within ${START_TIMEOUT_MS} ms`)), START_TIMEOUT_MS);
    void exited.then(([code]) => reject(new Error(`the replica exited with ${code} before listening`)));
    lines.on('line', (line) => {
      const entry = JSON.parse(line) as { msg?: string; address?: { port: number }; metrics?: { port: number } };
      if (entry.msg !== 'listening') return;
      clearTimeout(timer);
      resolve([entry.address!.port, entry.metrics!.port]);
    });
  });
  const url = `http://127.0.0.1:${port}`;
  const replica: Replica = {
    pid: child.pid!,
    url,
    async eventLoopLagP99Ms() {
      // prom-client resets its histogram on each collection: each reading covers the time since the last.
      const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
      const p99 = /^switchboard_nodejs_eventloop_lag_p99_seconds (\S+)$/m.exec(text);
      if (!p99) throw new Error('the replica exports no event loop lag p99');
      return Math.round(Number(p99[1]) * 1e5) / 100;
    },
    rssMB() {
      if (child.exitCode !== null) return 0;
      const kB = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
      return Math.round(Number(kB![1]) / 1024);
    },
    problems: () => ({ ...problems }),
    async stop() {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
      await exited;
      clearTimeout(timer);
    },
  };
  // The lag before this point (start-up) is not the run's.
  await replica.eventLoopLagP99Ms();
  return replica;
}

/** Runs `work` while sampling the replica's RSS; its peak RSS and event loop lag p99 meanwhile, and what it warned of. */
export async function watchReplica<T>(
  replica: Replica,
  work: () => Promise<T>,
): Promise<{ result: T; eventLoopLagP99Ms: number; rssPeakMB: number; problems: Record<string, number> }> {
  await replica.eventLoopLagP99Ms();
  let rssPeak = replica.rssMB();
  const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, replica.rssMB())), 250);
  try {
    const result = await work();
    return { result, eventLoopLagP99Ms: await replica.eventLoopLagP99Ms(), rssPeakMB: rssPeak, problems: replica.problems() };
  } finally {
    clearInterval(sampler);
  }
}

/**
 * A scratch database, the API in this process and a replica of its own, all calling the model at
 * `modelUrl`; `run` measures on them, given what `prepare` made on the API before the replica started.
 */
export async function onFreshReplica<T, P = undefined>(
  modelUrl: string,
  env: Record<string, string>,
  run: (app: TestApp, replica: Replica, prepared: P) => Promise<T>,
  prepare?: (app: TestApp) => Promise<P>,
): Promise<T> {
  const database = await createScratchDatabase();
  let app: TestApp | undefined;
  let replica: Replica | undefined;
  try {
    app = await startTestApp({ databaseUrl: database.url, env: { OPENAI_BASE_URL: modelUrl } });
    const prepared = (await prepare?.(app)) as P;
    replica = await startReplica(database.url, modelUrl, env);
    return await run(app, replica, prepared);
  } finally {
    await replica?.stop();
    await app?.close();
    await database.drop();
  }
}

/** Reads `count` every second until it reaches `want` or `boundS` seconds pass; whether it did. */
export async function reaches(count: () => Promise<number>, want: number, boundS: number): Promise<boolean> {
  const deadline = Date.now() + boundS * 1000;
  while (Date.now() < deadline) {
    if ((await count()) >= want) return true;
    await sleep(1000);
  }
  return (await count()) >= want;
}
