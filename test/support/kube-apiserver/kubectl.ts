// The real kubectl against a stand-in API server: its generated kubeconfig, and a discovery cache of
// its own (kubectl otherwise caches discovery for hours under ~/.kube/cache). Every run is bounded.
import { execFile, spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import type { KubeApiServer } from './index.js';

export interface KubectlResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

function environment(server: KubeApiServer): NodeJS.ProcessEnv {
  return { ...process.env, KUBECONFIG: server.kubeconfigPath, KUBECACHEDIR: join(dirname(server.kubeconfigPath), 'cache') };
}

/** `kubectl <args>` to its end, killed after `timeoutMs`. */
export function kubectl(server: KubeApiServer, args: string[], timeoutMs = 30_000): Promise<KubectlResult> {
  return new Promise((resolve) => {
    execFile('kubectl', args, { env: environment(server), timeout: timeoutMs }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr });
    });
  });
}

export interface RunningKubectl {
  /** Output so far. */
  readonly stdout: string;
  /** Resolves once stdout satisfies `condition`; rejects if kubectl exits first or `timeoutMs` passes. */
  waitFor(condition: (stdout: string) => boolean, timeoutMs?: number): Promise<string>;
  stop(): Promise<void>;
}

/** A long-running kubectl (`get -w`); stop() it when done. */
export function startKubectl(server: KubeApiServer, args: string[]): RunningKubectl {
  const child = spawn('kubectl', args, { env: environment(server), stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  const waiters = new Set<() => void>();
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8');
    waiters.forEach((check) => check());
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  return {
    get stdout() {
      return stdout;
    },
    waitFor(condition, timeoutMs = 20_000) {
      return new Promise((resolve, reject) => {
        const finish = (error?: Error) => {
          waiters.delete(check);
          clearTimeout(timer);
          if (error) reject(error);
          else resolve(stdout);
        };
        const check = () => condition(stdout) && finish();
        const timer = setTimeout(() => finish(new Error(`kubectl ${args.join(' ')}: condition not met in ${timeoutMs} ms; stdout: ${stdout}; stderr: ${stderr}`)), timeoutMs);
        waiters.add(check);
        exited.then(() => finish(new Error(`kubectl ${args.join(' ')} exited; stdout: ${stdout}; stderr: ${stderr}`)));
        check();
      });
    },
    async stop() {
      child.kill();
      await exited;
    },
  };
}
