// A program run to its end with its output kept: the SDK harnesses and the docs' samples.
import { spawn } from 'node:child_process';
import { ROOT } from './root.js';

export interface CommandResult {
  code: number;
  stdout: string;
  stderr: string;
}

interface CommandOptions {
  /** Default: the repository's root. */
  cwd?: string;
  /** Default: this process's environment. */
  env?: Record<string, string | undefined>;
}

/** Runs `command` to its end; never throws for its exit code. */
export function runCommand(command: string, args: string[], opts: CommandOptions = {}): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: opts.cwd ?? ROOT, env: opts.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code: code ?? 1, stdout, stderr }));
  });
}

/** Its standard output; throws with all it printed when it exits non-zero. */
export async function mustRun(command: string, args: string[], opts: CommandOptions = {}): Promise<string> {
  const result = await runCommand(command, args, opts);
  if (result.code !== 0) throw new Error(`${command} ${args.join(' ')} exited ${result.code}\n${result.stdout}\n${result.stderr}`);
  return result.stdout;
}
