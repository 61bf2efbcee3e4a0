// The real built `switchboard` command as a child process, against the test database.
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { TEST_ENCRYPTION_KEY, type TestApp } from './app.js';
import { testDatabaseUrl } from './hooks.js';

const ENTRY = fileURLToPath(new URL('../../cmd/switchboard.js', import.meta.url));

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
  /** stdout parsed as JSON; undefined when it is not JSON. */
  json: any;
}

/** The test database and quiet logs, then `env` (an empty string unsets a variable). */
function environment(env: Record<string, string>): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: testDatabaseUrl(), SWITCHBOARD_LOG_LEVEL: 'silent', ...env };
  for (const [name, value] of Object.entries(out)) if (value === '') delete out[name];
  return out;
}

function start(args: string[], env: Record<string, string>, stdin: 'ignore' | 'pipe' = 'ignore'): ChildProcess {
  return spawn(process.execPath, [ENTRY, ...args], { env: environment(env), stdio: [stdin, 'pipe', 'pipe'] });
}

/** Run `switchboard <args>` to its end, `input` written to its stdin (none when not given). */
export async function switchboard(args: string[], env: Record<string, string> = {}, input?: string): Promise<CliResult> {
  const child = start(args, env, input === undefined ? 'ignore' : 'pipe');
  child.stdin?.end(input);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const code = await new Promise<number | null>((resolve, reject) => child.once('error', reject).once('close', resolve));
  let json: any;
  try {
    json = JSON.parse(stdout);
  } catch {
    json = undefined;
  }
  return { code, stdout, stderr, json };
}

/** `switchboard admin <args> --json` with the test servers' encryption key, on the test database; `env` adds to that or overrides it. */
export function adminCli(env: Record<string, string> = {}): (...args: string[]) => Promise<CliResult> {
  return (...args) => switchboard(['admin', ...args, '--json'], { SWITCHBOARD_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY, ...env });
}

/** adminCli on `app`'s database (the jobs and calls apps each have their own). */
export const adminOn = (app: TestApp, env: Record<string, string> = {}) =>
  adminCli({ DATABASE_URL: app.runtime.ctx.config.DATABASE_URL!, ...env });

/** The command exited 0 and printed a JSON object; that object. */
export function expectSuccess(r: CliResult): any {
  expect(r.code, r.stderr).to.equal(0);
  expect(r.json, r.stdout).to.be.an('object');
  return r.json;
}

export interface RunningSwitchboard {
  url: string;
  child: ChildProcess;
  /** Resolves with the exit code. */
  exited: Promise<number | null>;
}

/** Start a server command (`api`, `dev`) on a free port; resolves once it logs `listening`. */
export async function startSwitchboard(args: string[], env: Record<string, string> = {}): Promise<RunningSwitchboard> {
  const child = start(args, { HOST: '127.0.0.1', PORT: '0', SWITCHBOARD_METRICS_PORT: '0', SWITCHBOARD_LOG_LEVEL: 'info', ...env });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const lines = createInterface({ input: child.stdout! });
  const port = await new Promise<number>((resolve, reject) => {
    lines.on('line', (line) => {
      const entry = line.startsWith('{') ? JSON.parse(line) : {};
      if (entry.msg === 'listening') resolve(entry.address.port);
    });
    exited.then((code) => reject(new Error(`switchboard ${args.join(' ')} exited ${code} before listening: ${stderr}`)));
  });
  return { url: `http://127.0.0.1:${port}`, child, exited };
}
