// The TypeScript SDK as a user gets it: built with tsc, packed with `npm pack`, and installed from
// the tarball into a project of its own (not from the source folder), where TypeScript files are
// type-checked against the installed .d.ts and run with node. Made once per process.
import { rmSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { mustRun, runCommand, type CommandResult } from './commands.js';
import { ROOT } from './root.js';

const SDK = join(ROOT, 'sdk', 'typescript');
const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');

/** A user's settings: strict, ESM on Node; Node's types from the repository's devDependencies. */
const PROJECT_TSC_OPTIONS = [
  '--strict',
  '--target',
  'es2022',
  '--module',
  'nodenext',
  '--moduleResolution',
  'nodenext',
  '--types',
  'node',
  '--typeRoots',
  join(ROOT, 'node_modules', '@types'),
  // Checking @types/node whole takes four times as long as the file: the SDK's own .d.ts is tsc's output.
  '--skipLibCheck',
];

export interface TypescriptSdkProject {
  /** The project: its node_modules holds @switchboard/sdk installed from the packed tarball. */
  dir: string;
  /** Type-checks `file` (a self-contained .ts file anywhere: it is copied into the project) against the installed SDK, compiles it and runs it with node; a type error is its answer, with tsc's code. */
  run(file: string, env: Record<string, string>): Promise<CommandResult>;
  /** Type-checks and compiles the test files together and runs them with `node --test`. */
  test(files: string[], env: Record<string, string>): Promise<CommandResult>;
}

/** A new folder under the system's temporary one, removed when the process exits. */
async function temporaryDir(name: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), `switchboard-sdk-ts-${name}-`));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Builds the package into a folder of its own and packs it there: the tarball's path. */
async function pack(): Promise<string> {
  const stage = await temporaryDir('pack');
  await mustRun(process.execPath, [TSC, '-p', join(SDK, 'tsconfig.json'), '--outDir', join(stage, 'dist')], { cwd: ROOT });
  for (const file of ['package.json', 'README.md']) await copyFile(join(SDK, file), join(stage, file));
  const [packed] = JSON.parse(await mustRun('npm', ['pack', '--json', '--pack-destination', stage], { cwd: stage }));
  return join(stage, packed.filename);
}

async function makeProject(): Promise<TypescriptSdkProject> {
  const tarball = await pack();
  const dir = await temporaryDir('project');
  await writeFile(join(dir, 'package.json'), JSON.stringify({ name: 'sdk-user', private: true, type: 'module' }));
  // openapi-fetch is in the npm cache once the repository's devDependencies are installed.
  await mustRun('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', tarball], { cwd: dir });
  let builds = 0;

  /** `files` copied into the project and compiled together: their compiled paths, or tsc's failure. */
  const compile = async (files: string[]): Promise<{ compiled: string[] } | { failed: CommandResult }> => {
    const n = ++builds;
    const src = join(dir, 'src', String(n));
    const out = join(dir, 'out', String(n));
    await mkdir(src, { recursive: true });
    const copies = files.map((file) => join(src, basename(file)));
    await Promise.all(files.map((file, i) => copyFile(file, copies[i]!)));
    const checked = await runCommand(process.execPath, [TSC, ...PROJECT_TSC_OPTIONS, '--rootDir', src, '--outDir', out, ...copies], {
      cwd: dir,
    });
    if (checked.code !== 0) return { failed: checked };
    return { compiled: copies.map((copy) => join(out, basename(copy).replace(/\.ts$/, '.js'))) };
  };
  // The project is the programs' working directory: a certificate file named relative to ours is found from there too.
  const trusted = process.env.NODE_EXTRA_CA_CERTS;
  const envOf = (env: Record<string, string>) => ({
    ...process.env,
    ...(trusted ? { NODE_EXTRA_CA_CERTS: resolve(trusted) } : {}),
    ...env,
  });

  return {
    dir,
    async run(file, env) {
      const built = await compile([file]);
      if ('failed' in built) return built.failed;
      return runCommand(process.execPath, built.compiled, { cwd: dir, env: envOf(env) });
    },
    async test(files, env) {
      const built = await compile(files);
      if ('failed' in built) return built.failed;
      return runCommand(process.execPath, ['--test', ...built.compiled], { cwd: dir, env: envOf(env) });
    },
  };
}

let project: Promise<TypescriptSdkProject> | undefined;

/** The project with the packed SDK installed, made on first need and shared by the process's tests. */
export function typescriptSdkProject(): Promise<TypescriptSdkProject> {
  project ??= makeProject();
  return project;
}
