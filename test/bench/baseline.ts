// A benchmark's "before": Switchboard at an earlier revision, checked out beside the working tree
// (a git worktree under .switchboard/, which is ignored) and built there, so one run measures
// before and after on the same machine state. Its modules resolve from the working tree's
// node_modules (Node looks in each parent folder), so the revision's dependencies must be a subset
// of the working tree's; a revision that needs others is refused.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

export interface Baseline {
  /** The full commit. */
  commit: string;
  /** The revision's dist/ folder, as a file URL ending in a slash. */
  dist: URL;
}

/** What a benchmark's baseline stands for in its results: the default's, or a revision asked for by its run. */
export const baselineMeaning = (revision: string, byDefault: string): string =>
  revision === byDefault ? "main before issue #38's rework" : 'a revision this run was asked to compare with';

const git = (...args: string[]): string => execFileSync('git', ['-C', ROOT, ...args], { encoding: 'utf8' }).trim();

type Manifest = { dependencies?: Record<string, string>; devDependencies?: Record<string, string> };
const dependencies = (m: Manifest): Record<string, string> => ({ ...m.dependencies, ...m.devDependencies });

/** Refuses a revision whose package.json asks for a package, or a version range, the working tree's does not. */
function checkDependencies(dir: string): void {
  const ours = dependencies(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Manifest);
  const theirs = dependencies(JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest);
  const differing = Object.entries(theirs).filter(([name, range]) => ours[name] !== range);
  if (differing.length)
    throw new Error(`the baseline needs dependencies the working tree lacks: ${differing.map(([n, r]) => `${n}@${r}`).join(', ')}`);
}

/** `revision` checked out and built (reused when an earlier run built it). */
export function buildBaseline(revision: string): Baseline {
  const commit = git('rev-parse', '--verify', `${revision}^{commit}`);
  const dir = join(ROOT, '.switchboard', 'bench-baseline', commit);
  if (!existsSync(join(dir, 'package.json'))) {
    mkdirSync(join(ROOT, '.switchboard', 'bench-baseline'), { recursive: true });
    git('worktree', 'add', '--force', '--detach', dir, commit);
  }
  checkDependencies(dir);
  if (!existsSync(join(dir, 'dist', 'test', 'bench', 'jobs-server.js'))) {
    execFileSync(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(dir, 'tsconfig.json')], {
      stdio: 'inherit',
    });
  }
  return { commit, dist: pathToFileURL(`${join(dir, 'dist')}/`) };
}
