// A Postgres and a Redis of a test's or drill's own, on free loopback ports, that it may stop,
// restart or flush without disturbing other runs sharing the test services. Processes are ended by PID.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chownSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../pkg/db/embedded.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Debian's newest Postgres binaries, as test/support/setup.sh finds them. */
function pgBin(): string {
  const found = spawnSync('sh', ['-c', "find /usr/lib/postgresql -path '*/bin/initdb' | sort -V | tail -n 1 | xargs -r dirname"], {
    encoding: 'utf8',
  }).stdout.trim();
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
    asPostgres(`${bin}/pg_ctl`, [
      'start',
      '-w',
      '-D',
      data,
      '-l',
      `${data}/server.log`,
      '-o',
      `-p ${port} -c listen_addresses=127.0.0.1 -c unix_socket_directories='' -c fsync=off -c max_connections=200`,
    ]);
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
  const cli = (...args: string[]) =>
    spawnSync('redis-cli', ['-h', '127.0.0.1', '-p', String(port), ...args], { encoding: 'utf8' }).stdout.trim();
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

/** Leases under `prefix` (model slots `sb:model`, call slots `sb:calls:slots`) Redis holds live now (their scores are lease ends); of `ids` only, if given. */
export function liveLeases(redis: PrivateRedis, prefix: string, ids?: string[]): number {
  const keys = redis.cli('--scan', '--pattern', `${prefix}:*`).split('\n').filter(Boolean);
  const live = (key: string) => Number(redis.cli('zcount', key, `(${Date.now()}`, '+inf'));
  if (!ids) return keys.reduce((n, key) => n + live(key), 0);
  const liveId = (key: string, id: string) => Number(redis.cli('zscore', key, id) || 0) > Date.now();
  return keys.reduce((n, key) => n + ids.filter((id) => liveId(key, id)).length, 0);
}

/** switchboard_rate_limiter_fallback_total of the server whose metrics port is at `metricsUrl`, by scope. */
export async function limitFallbacks(metricsUrl: string): Promise<Record<string, number>> {
  const text = await (await fetch(`${metricsUrl}/metrics`)).text();
  const out: Record<string, number> = {};
  for (const m of text.matchAll(/^switchboard_rate_limiter_fallback_total\{scope="(\w+)"\} (\d+)$/gm))
    out[m[1]!] = (out[m[1]!] ?? 0) + Number(m[2]);
  return out;
}
