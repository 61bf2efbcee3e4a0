// Long-running `switchboard <command>` child processes of the built dist, with their JSON log lines
// kept, for tests that signal, kill and replace real replicas. Every wait is bounded.
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { testDatabaseUrl } from './hooks.js';

const ENTRY = fileURLToPath(new URL('../../cmd/switchboard.js', import.meta.url));

export interface LogLine {
  msg?: string;
  [field: string]: any;
}

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

type Match = string | ((line: LogLine) => boolean);

export class SwitchboardProcess {
  readonly child: ChildProcess;
  /** Every JSON line the process wrote to stdout, parsed. */
  readonly logs: LogLine[] = [];
  /** What it wrote to stdout that is not a JSON log line (dev's welcome). */
  stdout = '';
  stderr = '';
  readonly exited: Promise<Exit>;
  private exit: Exit | null = null;
  private readonly listeners = new Set<() => void>();

  constructor(
    readonly command: string,
    env: Record<string, string>,
  ) {
    this.child = spawn(process.execPath, [ENTRY, command], {
      env: {
        ...process.env,
        DATABASE_URL: env.DATABASE_URL ?? testDatabaseUrl(),
        HOST: '127.0.0.1',
        PORT: '0',
        SWITCHBOARD_METRICS_PORT: '0',
        SWITCHBOARD_LOG_LEVEL: 'info',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child.stderr!.on('data', (chunk: Buffer) => (this.stderr += chunk.toString('utf8')));
    createInterface({ input: this.child.stdout! }).on('line', (text) => {
      if (!text.startsWith('{')) return void (this.stdout += `${text}\n`);
      this.logs.push(JSON.parse(text) as LogLine);
      for (const listener of this.listeners) listener();
    });
    this.exited = new Promise((resolve) => {
      this.child.once('exit', (code, signal) => {
        this.exit = { code, signal };
        for (const listener of this.listeners) listener();
        resolve(this.exit);
      });
    });
  }

  get pid(): number {
    return this.child.pid!;
  }

  /** Where its /metrics is, once it has logged `listening`. */
  get metricsUrl(): string {
    const listening = this.logs.find((line) => line.msg === 'listening');
    if (!listening) throw new Error(`switchboard ${this.command} has not logged listening yet`);
    return `http://127.0.0.1:${listening.metrics.port}`;
  }

  get running(): boolean {
    return this.exit === null;
  }

  /** The first log line matching (a `msg`, or a predicate), waiting up to `timeoutMs` for it. */
  waitForLog(match: Match, timeoutMs = 20_000): Promise<LogLine> {
    const test = typeof match === 'string' ? (l: LogLine) => l.msg === match : match;
    return this.until(() => this.logs.find(test), `log line ${String(match)}`, timeoutMs);
  }

  /** The exit, waiting up to `timeoutMs` for it. */
  waitForExit(timeoutMs = 20_000): Promise<Exit> {
    return this.until(() => this.exit ?? undefined, 'exit', timeoutMs, true);
  }

  private until<T>(found: () => T | undefined, what: string, timeoutMs: number, orExit = false): Promise<T> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const value = found();
        if (value === undefined && (orExit || this.exit === null)) return;
        clearTimeout(timer);
        this.listeners.delete(check);
        if (value !== undefined) resolve(value);
        else
          reject(
            new Error(`switchboard ${this.command} (pid ${this.pid}) exited ${JSON.stringify(this.exit)} before ${what}: ${this.stderr}`),
          );
      };
      const timer = setTimeout(() => {
        this.listeners.delete(check);
        reject(new Error(`switchboard ${this.command} (pid ${this.pid}): no ${what} within ${timeoutMs} ms`));
      }, timeoutMs);
      this.listeners.add(check);
      check();
    });
  }

  /** SIGKILL if still running, and wait for the exit. */
  async kill(): Promise<void> {
    if (this.exit) return;
    this.child.kill('SIGKILL');
    await this.waitForExit();
  }
}

/** Start `switchboard <command>`; resolves once it logs `ready` (default: `listening`). */
export async function startProcess(command: string, env: Record<string, string>, ready = 'listening'): Promise<SwitchboardProcess> {
  const p = new SwitchboardProcess(command, env);
  try {
    await p.waitForLog(ready, 30_000);
  } catch (err) {
    await p.kill();
    throw err;
  }
  return p;
}
