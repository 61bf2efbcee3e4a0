// Postgres and Redis outside the cluster, as a managed database and cache would be: on the host side
// of the cluster's bridge, each with a password, reached by the pods through a URL in a Secret.
import { randomBytes } from 'node:crypto';
import { appendFileSync, chownSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from '../../pkg/db/embedded.js';
import { daemon, waitUntil } from '../support/kube/cluster.js';
import { sh } from './cluster.js';

export interface ExternalService {
  /** The URL a pod connects with, password included. */
  url: string;
  stop(): Promise<void>;
}

/** The newest Postgres server Debian installed (test/support/setup.sh installs one). */
function postgresBin(): string {
  const versions = readdirSync('/usr/lib/postgresql').sort((a, b) => Number(a) - Number(b));
  if (!versions.length) throw new Error('no Postgres server in /usr/lib/postgresql (test/support/setup.sh installs it)');
  return join('/usr/lib/postgresql', versions.at(-1)!, 'bin');
}

/** A Postgres cluster in `dir` listening on `host`, with a database and a role `switchboard` that signs in by password. */
export async function startExternalPostgres(dir: string, host: string, subnet: string): Promise<ExternalService> {
  const bin = postgresBin();
  const data = join(dir, 'data');
  const sockets = join(dir, 'sockets');
  mkdirSync(data, { recursive: true });
  mkdirSync(sockets, { recursive: true });
  const { uid, gid } = postgresUser();
  for (const path of [dir, data, sockets]) chownSync(path, uid, gid);
  const asPostgres = (command: string, args: string[]) => sh('runuser', ['-u', 'postgres', '--', join(bin, command), ...args]);
  await asPostgres('initdb', ['-D', data, '-U', 'postgres', '--auth-local=trust', '--auth-host=scram-sha-256', '-E', 'UTF8']);
  appendFileSync(join(data, 'pg_hba.conf'), `host switchboard switchboard ${subnet} scram-sha-256\n`);
  const port = await freePort();
  await asPostgres('pg_ctl', [
    'start',
    '-w',
    '-D',
    data,
    '-l',
    join(dir, 'server.log'),
    '-o',
    `-p ${port} -c listen_addresses=${host} -c unix_socket_directories=${sockets} -c fsync=off`,
  ]);
  const stop = async () => void (await asPostgres('pg_ctl', ['stop', '-D', data, '-m', 'fast']).catch(() => undefined));
  try {
    const password = randomBytes(18).toString('base64url');
    await asPostgres('psql', [
      '-h',
      sockets,
      '-p',
      String(port),
      '-U',
      'postgres',
      '-v',
      'ON_ERROR_STOP=1',
      '-c',
      `CREATE ROLE switchboard LOGIN PASSWORD '${password}'`,
      '-c',
      'CREATE DATABASE switchboard OWNER switchboard',
    ]);
    return { url: `postgres://switchboard:${password}@${host}:${port}/switchboard`, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

function postgresUser(): { uid: number; gid: number } {
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((entry) => entry.startsWith('postgres:'));
  if (!line) throw new Error('no postgres user (the postgresql package makes it)');
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

/** A Redis on `host` that asks for a password. */
export async function startExternalRedis(dir: string, host: string): Promise<ExternalService> {
  const port = await freePort();
  const password = randomBytes(18).toString('base64url');
  const log = join(dir, 'redis.log');
  const redis = daemon(
    'redis-server',
    ['--bind', host, '--port', String(port), '--requirepass', password, '--save', '', '--appendonly', 'no', '--dir', dir],
    log,
  );
  await waitUntil(
    'Redis to answer',
    redis.child,
    log,
    async () =>
      (await sh('redis-cli', ['-h', host, '-p', String(port), '-a', password, '--no-auth-warning', 'ping'], 5_000)).trim() === 'PONG',
    30_000,
  );
  return { url: `redis://:${password}@${host}:${port}`, stop: redis.stop };
}
