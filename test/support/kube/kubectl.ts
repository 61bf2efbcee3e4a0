// The real kubectl (built by tools.sh, the API server's minor) with one kubeconfig, a discovery
// cache beside it (kubectl otherwise caches discovery for hours under ~/.kube/cache), bounded.
import { execFile } from 'node:child_process';
import { dirname, join } from 'node:path';
import { kubeTool } from './tools.js';

interface KubectlResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `kubectl <args>` to its end (`input` on its stdin), killed after `timeoutMs`. */
export function kubectl(
  kubeconfig: string,
  args: string[],
  { input, timeoutMs = 30_000 }: { input?: string; timeoutMs?: number } = {},
): Promise<KubectlResult> {
  const env = { ...process.env, KUBECONFIG: kubeconfig, KUBECACHEDIR: join(dirname(kubeconfig), 'kubectl-cache') };
  return new Promise((resolve) => {
    const child = execFile(kubeTool('kubectl'), args, { env, timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr });
    });
    child.stdin!.end(input);
  });
}

/** kubectl's stdout; rejects with its stderr when it fails. */
export async function kubectlOk(kubeconfig: string, args: string[], options: { input?: string } = {}): Promise<string> {
  const result = await kubectl(kubeconfig, args, options);
  if (result.code !== 0) throw new Error(`kubectl ${args.join(' ')} failed (${result.code}): ${result.stderr}`);
  return result.stdout;
}
