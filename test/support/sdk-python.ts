// The Python SDK's toolchain: a venv the repo makes from sdk/python/requirements-dev.txt (kept under
// .switchboard/python, one per hash of that file), the generator run over openapi/*.json, and the
// SDK's wheel built and installed into the venv as a user installs it. `node dist/test/support/sdk-python.js`
// regenerates sdk/python/switchboard/_generated (`make sdk-python`).
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { ROOT } from './root.js';

export const SDK_DIR = join(ROOT, 'sdk', 'python');
export const GENERATED_DIR = join(SDK_DIR, 'switchboard', '_generated');
const REQUIREMENTS = join(SDK_DIR, 'requirements-dev.txt');
const GENERATOR_CONFIG = join(SDK_DIR, 'openapi-python-client.yaml');
/** Each document and the subpackage generated from it. */
const DOCUMENTS = { agent_api: 'agent-api.json', voice_api: 'voice-api.json' } as const;

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

const execFileP = promisify(execFile);

/** Runs a program to its end; never throws for its exit code. */
async function run(
  file: string,
  args: string[],
  opts: { cwd?: string; env?: Record<string, string | undefined> } = {},
): Promise<RunResult> {
  try {
    const { stdout, stderr } = await execFileP(file, args, { cwd: opts.cwd ?? ROOT, env: opts.env ?? process.env, maxBuffer: 64 << 20 });
    return { code: 0, stdout, stderr };
  } catch (err: any) {
    if (typeof err.code !== 'number') throw err;
    return { code: err.code, stdout: err.stdout ?? '', stderr: err.stderr ?? '' };
  }
}

async function mustRun(file: string, args: string[], opts: Parameters<typeof run>[2] = {}): Promise<string> {
  const res = await run(file, args, opts);
  if (res.code !== 0) throw new Error(`${file} ${args.join(' ')} exited ${res.code}\n${res.stdout}\n${res.stderr}`);
  return res.stdout;
}

export interface Venv {
  python: string;
  /** process.env with the venv's bin first on PATH (the generator's post hooks call ruff). */
  env: Record<string, string | undefined>;
}

let venv: Promise<Venv> | undefined;

/** The venv of the pinned requirements, made once per hash of the file and reused after. */
export function sdkVenv(): Promise<Venv> {
  venv ??= makeVenv();
  return venv;
}

async function makeVenv(): Promise<Venv> {
  const hash = createHash('sha256').update(readFileSync(REQUIREMENTS)).digest('hex').slice(0, 16);
  const parent = join(ROOT, '.switchboard', 'python');
  const dir = join(parent, `venv-${hash}`);
  if (!existsSync(join(dir, 'bin', 'python'))) {
    mkdirSync(parent, { recursive: true });
    // Made beside and renamed into place: an interrupted run leaves no half venv. Its tools are run
    // as `python -m`, so the scripts' interpreter paths of the staging folder never matter.
    const staged = mkdtempSync(join(parent, 'staging-'));
    try {
      await mustRun('python3', ['-m', 'venv', staged]);
      await mustRun(join(staged, 'bin', 'python'), ['-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', '-r', REQUIREMENTS]);
      if (!existsSync(join(dir, 'bin', 'python'))) renameSync(staged, dir);
    } finally {
      rmSync(staged, { recursive: true, force: true });
    }
  }
  return { python: join(dir, 'bin', 'python'), env: { ...process.env, PATH: `${join(dir, 'bin')}:${process.env.PATH ?? ''}` } };
}

const pascal = (name: string): string => name.replace(/(^|[^A-Za-z0-9])([A-Za-z0-9])/g, (_m, _sep, c: string) => c.toUpperCase());

/** The webhooks both documents list, each with its payload's generated model. */
function webhookEventsModule(): string {
  const imports: string[] = [];
  const entries: string[] = [];
  const models: string[] = [];
  for (const [pkg, file] of Object.entries(DOCUMENTS)) {
    const doc = JSON.parse(readFileSync(join(ROOT, 'openapi', file), 'utf8'));
    const named: string[] = [];
    for (const [name, item] of Object.entries<any>(doc.webhooks ?? {})) {
      const ref: string | undefined = item.post?.requestBody?.content?.['application/json']?.schema?.$ref;
      if (!ref) continue;
      const model = pascal(ref.split('/').at(-1)!);
      named.push(model);
      entries.push(`    ${JSON.stringify(name)}: ${model}.from_dict,`);
    }
    if (named.length) imports.push(`from .${pkg}.models import ${[...new Set(named)].sort().join(', ')}`);
    models.push(...named);
  }
  return [
    '"""The webhooks of openapi/*.json and their payload models (test/support/sdk-python.ts writes this file)."""',
    '',
    'from collections.abc import Callable, Mapping',
    'from typing import Any',
    '',
    ...imports,
    '',
    `WebhookPayload = ${[...new Set(models)].join(' | ')}`,
    '',
    'WEBHOOK_EVENTS: dict[str, Callable[[Mapping[str, Any]], WebhookPayload]] = {',
    ...entries,
    '}',
    '',
  ].join('\n');
}

/** Generates the SDK's `_generated` package from openapi/*.json into `target` (which it replaces). */
export async function generatePythonSdk(target: string): Promise<void> {
  const { env, python } = await sdkVenv();
  const work = mkdtempSync(join(tmpdir(), 'switchboard-sdk-py-'));
  try {
    for (const [pkg, file] of Object.entries(DOCUMENTS)) {
      const args = ['generate', '--path', join(ROOT, 'openapi', file), '--meta', 'none', '--config', GENERATOR_CONFIG];
      await mustRun(python, ['-m', 'openapi_python_client', ...args, '--output-path', join(work, pkg)], { cwd: work, env });
    }
    writeFileSync(
      join(work, '__init__.py'),
      '"""Generated by openapi-python-client from openapi/*.json: do not edit (make sdk-python)."""\n',
    );
    writeFileSync(join(work, 'webhook_events.py'), webhookEventsModule());
    await mustRun(python, ['-m', 'ruff', 'format', '--quiet', '--no-cache', '--line-length', '120', 'webhook_events.py'], {
      cwd: work,
      env,
    });
    rmSync(target, { recursive: true, force: true });
    cpSync(work, target, { recursive: true });
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** Every file below `dir` (paths relative to it) and its text, without Python's caches. */
export function treeOf(dir: string, prefix = ''): Map<string, string> {
  const files = new Map<string, string>();
  for (const entry of readdirSync(join(dir, prefix), { withFileTypes: true })) {
    const path = join(prefix, entry.name);
    if (entry.name === '__pycache__') continue;
    if (entry.isDirectory()) for (const [p, text] of treeOf(dir, path)) files.set(p, text);
    else files.set(path, readFileSync(join(dir, path), 'utf8'));
  }
  return files;
}

export interface PythonWithSdk {
  python: string;
  run(file: string, env: Record<string, string>): Promise<RunResult>;
}

let installed: Promise<PythonWithSdk> | undefined;

/** The venv's python with the SDK's freshly built wheel installed (once per process). */
export function pythonWithSdk(): Promise<PythonWithSdk> {
  installed ??= installWheel();
  return installed;
}

async function installWheel(): Promise<PythonWithSdk> {
  const { python, env } = await sdkVenv();
  const out = mkdtempSync(join(tmpdir(), 'switchboard-wheel-'));
  try {
    // The venv holds the pinned build backend: no isolated build env fetched each time.
    await mustRun(python, ['-m', 'build', '--wheel', '--no-isolation', '--outdir', out, SDK_DIR], { env });
    const wheel = readdirSync(out).find((f) => f.endsWith('.whl'));
    if (!wheel) throw new Error(`no wheel built in ${out}`);
    const pip = ['-m', 'pip', 'install', '--quiet', '--disable-pip-version-check'];
    await mustRun(python, [...pip, '--force-reinstall', '--no-deps', join(out, wheel)], { env });
    // Its declared dependencies are the venv's pinned ones: say so if they ever disagree.
    await mustRun(python, ['-m', 'pip', 'check'], { env });
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
  return { python, run: (file, extra) => run(python, [file], { env: { ...env, ...extra } }) };
}

const MYPY_CACHE = join(ROOT, '.switchboard', 'python', 'mypy-cache');

/** mypy --strict (sdk/python/pyproject.toml) over the SDK's package and its tests. */
export async function typeCheckPythonSdk(): Promise<RunResult> {
  const { python, env } = await sdkVenv();
  return run(python, ['-m', 'mypy', '--cache-dir', MYPY_CACHE, 'switchboard', 'tests'], { cwd: SDK_DIR, env });
}

/** The SDK's pytest suite with `env`, importing the SDK from its installed wheel (-P: never the source folder). */
export async function testPythonSdk(env: Record<string, string>): Promise<RunResult> {
  const { python } = await pythonWithSdk();
  const { env: base } = await sdkVenv();
  const args = ['-P', '-m', 'pytest', '-p', 'no:cacheprovider', '-q', join(SDK_DIR, 'tests')];
  return run(python, args, { cwd: SDK_DIR, env: { ...base, ...env, PYTHONDONTWRITEBYTECODE: '1' } });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await generatePythonSdk(GENERATED_DIR);
  console.log(`wrote ${GENERATED_DIR}`);
}
