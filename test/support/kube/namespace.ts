// A fresh namespace of the test cluster holding the controllers' ServiceAccount and the chart's own
// RBAC objects, rendered by `helm template` for that namespace and applied as they are: the
// controllers' permissions there are the chart's and nothing more, so a missing one fails a test.
import { randomBytes } from 'node:crypto';
import YAML from 'yaml';
import { testCluster, type TestCluster } from './cluster.js';
import { helmTemplate, type K8sObject } from './helm.js';
import { writeKubeconfig } from './kubeconfig.js';
import { kubectlOk } from './kubectl.js';

const RBAC_KINDS = ['ServiceAccount', 'Role', 'RoleBinding', 'ClusterRole', 'ClusterRoleBinding'];

export interface ControllerNamespace {
  cluster: TestCluster;
  name: string;
  /** The controllers' user name, system:serviceaccount:<namespace>:<account>. */
  user: string;
  /** A kubeconfig of the controllers' ServiceAccount (a TokenRequest token), namespace `name`. */
  kubeconfig: string;
  /** The same identity reaching the API server at another address (a fault stand-in in front of it). */
  kubeconfigVia(server: string): string;
}

export interface NamespaceOptions {
  /** Changes the chart's rendered RBAC objects before they are applied (to show what a missing rule does). */
  editRbac?: (objects: K8sObject[]) => K8sObject[];
}

/** A namespace of its own for a test, so tests do not see each other's objects; returns its name. */
export async function createNamespace(cluster: TestCluster): Promise<string> {
  const name = `test-${randomBytes(4).toString('hex')}`;
  await kubectlOk(cluster.adminKubeconfig, ['create', 'namespace', name]);
  return name;
}

/** A fresh namespace with the chart's ServiceAccount and RBAC objects in it, and that account's kubeconfig. */
export async function controllerNamespace(options: NamespaceOptions = {}): Promise<ControllerNamespace> {
  const cluster = await testCluster();
  const name = await createNamespace(cluster);
  const { objects } = await helmTemplate({ namespace: name, values: { crds: { enabled: false } } });
  const account = objects.find((o) => o.kind === 'Deployment' && o.metadata.name.endsWith('-controllers'))?.spec.template.spec
    .serviceAccountName;
  if (!account) throw new Error('the chart renders no controllers Deployment with a serviceAccountName');
  const rbac = objects.filter((o) => RBAC_KINDS.includes(o.kind)).map(({ source: _source, ...o }) => o);
  const edited = options.editRbac ? options.editRbac(rbac) : rbac;
  await kubectlOk(cluster.adminKubeconfig, ['apply', '-f', '-'], { input: edited.map((o) => YAML.stringify(o)).join('---\n') });
  const token = (await kubectlOk(cluster.adminKubeconfig, ['create', 'token', account, '--namespace', name, '--duration=4h'])).trim();
  const identity = (server: string) =>
    writeKubeconfig(cluster.dir, `${name}-${new URL(server).port}`, { server, ca: cluster.ca, token, namespace: name });
  return {
    cluster,
    name,
    user: `system:serviceaccount:${name}:${account}`,
    kubeconfig: identity(cluster.url),
    kubeconfigVia: identity,
  };
}
