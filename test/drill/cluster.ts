// The fault drills' deployment on loopback: a Postgres and a Redis of the drill's own (so restarting
// or flushing them disturbs no other run), two `switchboard api` and two `switchboard controllers`
// replicas as child processes of the built app, a model stand-in, and a company with its API key.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chownSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { loadConfig } from '../../pkg/config.js';
import { createDb, migrate } from '../../pkg/db/index.js';
import { createLogger } from '../../pkg/log.js';
import { startRuntime } from '../../pkg/runtime.js';
import { bootstrapTenant } from '../../pkg/store/bootstrap.js';
import { systemClock } from '../../pkg/clock.js';
import { Writable } from 'node:stream';
import { TEST_ENCRYPTION_KEY } from '../support/app.js';
import { startScriptedModel, type ScriptedModel } from '../support/model.js';
import { startProcess, type SwitchboardProcess } from '../support/processes.js';

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Debian's newest Postgres binaries, as test/support/setup.sh finds them. */
function pgBin(): string {
  const found = spawnSync('sh', ['-c', "find /usr/lib/postgresql -path '*/bin/initdb' | sort -V | tail -n 1 | xargs -r dirname"], { encoding: 'utf8' }).stdout.trim();
  if (!found) throw new Error('no Postgres binaries under /usr/lib/postgresql (run test/support/setup.sh once)');
  return found;
}

/** Runs a Postgres binary as the postgres user when this is root (Postgres refuses to run as root). */
function asPostgres(bin: string, args: string[]): void {
  const [cmd, argv] = process.getuid?.() === 0 ? ['runuser', ['-u', 'postgres', '--', bin, ...args]] : [bin, args];
  const r = spawnSync(cmd, argv, { encoding: 'utf8', cwd: '/' });
  if (r.status !== 0) throw new Error(`${bin} ${args.join(' ')}: ${r.stderr || r.stdout}`);
}

export interface PrivatePostgres {
  /** The server's `postgres` database. */
  url: string;
  stop(mode?: 'fast' | 'immediate'): void;
  start(): void;
  close(): void;
}

/** A Postgres cluster of the drill's own in a temp folder, on a free port; trust auth, fsync off. */
export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const bin = pgBin();
  const data = mkdtempSync(join(tmpdir(), 'switchboard-drill-pg-'));
  if (process.getuid?.() === 0) {
    const pw = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).stdout.trim();
    chownSync(data, Number(pw), Number(pw));
  }
  const port = await freePort();
  asPostgres(`${bin}/initdb`, ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8']);
  const start = () =>
    asPostgres(`${bin}/pg_ctl`, ['start', '-w', '-D', data, '-l', `${data}/server.log`, '-o', `-p ${port} -c listen_addresses=127.0.0.1 -c unix_socket_directories='' -c fsync=off -c max_connections=200`]);
  const stop = (mode: 'fast' | 'immediate' = 'fast') => asPostgres(`${bin}/pg_ctl`, ['stop', '-w', '-m', mode, '-D', data]);
  start();
  let running = true;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop(mode) {
      stop(mode);
      running = false;
    },
    start() {
      start();
      running = true;
    },
    close() {
      if (running) stop('immediate');
      running = false;
      rmSync(data, { recursive: true, force: true });
    },
  };
}

/** A migrated database `name` on the server. */
export async function createDatabase(serverUrl: string, name: string): Promise<string> {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const db = createDb(url.toString(), 2);
  await migrate(db);
  await db.destroy();
  return url.toString();
}

export interface PrivateRedis {
  url: string;
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Runs a command through redis-cli; its output. */
  cli(...args: string[]): string;
}

/** A redis-server of the drill's own on a free port, started and stopped (SIGKILL) by its PID. */
export async function startPrivateRedis(): Promise<PrivateRedis> {
  const port = await freePort();
  let child: ChildProcess | undefined;
  const cli = (...args: string[]) => spawnSync('redis-cli', ['-h', '127.0.0.1', '-p', String(port), ...args], { encoding: 'utf8' }).stdout.trim();
  const start = async () => {
    child = spawn('redis-server', ['--bind', '127.0.0.1', '--port', String(port), '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    for (let i = 0; i < 50 && cli('ping') !== 'PONG'; i++) await sleep(100);
    if (cli('ping') !== 'PONG') throw new Error(`redis-server on ${port} did not start`);
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    async stop() {
      const c = child!;
      if (c.exitCode !== null || c.signalCode !== null) return;
      const exited = new Promise((r) => c.once('exit', r));
      c.kill('SIGKILL');
      await exited;
    },
    start,
    cli,
  };
}

export interface Company {
  tenantId: string;
  agentId: string;
  apiKey: string;
}

/** A company made on the database directly, as `switchboard admin tenant create` does. */
export async function makeCompany(databaseUrl: string, opts: { credits?: number } = {}): Promise<Company> {
  const quiet = new Writable({ write: (_c, _e, done) => done() });
  const config = loadConfig({ DATABASE_URL: databaseUrl, SWITCHBOARD_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY, SWITCHBOARD_DB_POOL_MAX: '3' });
  const runtime = await startRuntime(config, createLogger('warn', quiet), systemClock);
  try {
    const made = await bootstrapTenant(runtime.ctx, { name: 'Drill Company', credits: opts.credits ?? 1_000_000 });
    // The drill's load is above the default 300 requests a minute of a key.
    await runtime.ctx.db('tenants').where({ id: made.tenantId }).update({ requests_per_minute: 100_000 });
    return { tenantId: made.tenantId, agentId: made.agentId, apiKey: made.apiKey };
  } finally {
    await runtime.close();
  }
}

export interface Replica {
  process: SwitchboardProcess;
  /** The API's base URL (api replicas). */
  url?: string;
}

/**
 * Replicas of one deployment: `api` and `controllers` processes sharing env (database, Redis,
 * model, encryption key); each may be killed and started again in its place.
 */
export class Deployment {
  readonly api: Replica[] = [];
  readonly controllers: Replica[] = [];
  private readonly all: SwitchboardProcess[] = [];

  constructor(readonly env: Record<string, string>) {}

  async startApi(extra: Record<string, string> = {}): Promise<Replica> {
    const p = await startProcess('api', { ...this.env, ...extra });
    this.all.push(p);
    const { address } = p.logs.find((l) => l.msg === 'listening')!;
    const replica = { process: p, url: `http://127.0.0.1:${address.port}` };
    this.api.push(replica);
    return replica;
  }

  async startControllers(extra: Record<string, string> = {}): Promise<Replica> {
    const p = await startProcess('controllers', { ...this.env, ...extra }, 'controllers started');
    this.all.push(p);
    const replica = { process: p };
    this.controllers.push(replica);
    return replica;
  }

  /** kill -9 of the replica, and a new one started in its place (same role, same env). */
  async replace(replica: Replica): Promise<Replica> {
    await replica.process.kill();
    const list = replica.url ? this.api : this.controllers;
    list.splice(list.indexOf(replica), 1);
    return replica.url ? this.startApi() : this.startControllers();
  }

  async close(): Promise<void> {
    for (const p of this.all) await p.kill();
  }
}

export interface World {
  model: ScriptedModel;
  databaseUrl: string;
  company: Company;
  deployment: Deployment;
  close(): Promise<void>;
}

/** A model stand-in, a fresh database on `serverUrl`, a company, and a deployment of both roles. */
export async function startWorld(opts: { serverUrl: string; name: string; redisUrl?: string; env?: Record<string, string>; apis?: number; controllers?: number }): Promise<World> {
  const model = await startScriptedModel();
  const databaseUrl = await createDatabase(opts.serverUrl, opts.name);
  const company = await makeCompany(databaseUrl);
  const deployment = new Deployment({
    DATABASE_URL: databaseUrl,
    OPENAI_BASE_URL: model.url,
    SWITCHBOARD_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
    SWITCHBOARD_OUTBOUND_ALLOW: '127.0.0.1/32',
    SWITCHBOARD_LEASE_SEC: '2',
    SWITCHBOARD_DB_POOL_MAX: '10',
    ...(opts.redisUrl ? { REDIS_URL: opts.redisUrl } : {}),
    ...opts.env,
  });
  await Promise.all([
    ...Array.from({ length: opts.apis ?? 2 }, () => deployment.startApi()),
    ...Array.from({ length: opts.controllers ?? 2 }, () => deployment.startControllers()),
  ]);
  return {
    model,
    databaseUrl,
    company,
    deployment,
    async close() {
      await deployment.close();
      await model.close();
    },
  };
}
