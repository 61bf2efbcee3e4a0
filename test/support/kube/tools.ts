// Where the test cluster's binaries and files are: SWITCHBOARD_KUBE_TOOLS (setup.sh exports it),
// else the folder tools.sh builds or reuses (quick once built).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../root.js';

type KubeTool = 'kube-apiserver' | 'etcd' | 'kubectl' | 'helm' | 'kubelet' | 'kube-controller-manager' | 'kube-scheduler' | 'kube-proxy';

let dir: string | undefined;

function toolsDir(): string {
  dir ??=
    process.env.SWITCHBOARD_KUBE_TOOLS ||
    execFileSync(join(ROOT, 'test/support/kube/tools.sh'), { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }).trim();
  return dir;
}

export const kubeTool = (name: KubeTool): string => join(toolsDir(), 'bin', name);

/** prometheus-operator's ServiceMonitor CRD, for the chart's optional ServiceMonitor. */
export const serviceMonitorCrd = (): string => join(toolsDir(), 'crds', 'monitoring.coreos.com_servicemonitors.yaml');

/** The versions the tools are built at, as versions.env sets them (KUBERNETES_VERSION, …). */
export function kubeVersions(): Record<string, string> {
  const lines = readFileSync(join(ROOT, 'test/support/kube/versions.env'), 'utf8').split('\n');
  return Object.fromEntries(
    lines.flatMap((line) => {
      const found = /^([A-Z_]+)=(.*)$/.exec(line);
      return found ? [[found[1]!, found[2]!]] : [];
    }),
  );
}
