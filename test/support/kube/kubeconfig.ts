// A kubeconfig file for one identity on one API server, the way kubectl and client-node read it.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';

interface KubeIdentity {
  /** https://127.0.0.1:PORT */
  server: string;
  /** PEM of the CA that signed the server's certificate. */
  ca: string;
  token: string;
  /** The current context's namespace. */
  namespace: string;
}

/** Writes `<dir>/<name>.kubeconfig` (mode 600) and returns its path. */
export function writeKubeconfig(dir: string, name: string, identity: KubeIdentity): string {
  const path = join(dir, `${name}.kubeconfig`);
  const config = {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [
      { name: 'test', cluster: { server: identity.server, 'certificate-authority-data': Buffer.from(identity.ca).toString('base64') } },
    ],
    users: [{ name, user: { token: identity.token } }],
    contexts: [{ name, context: { cluster: 'test', user: name, namespace: identity.namespace } }],
    'current-context': name,
  };
  writeFileSync(path, stringify(config), { mode: 0o600 });
  return path;
}
