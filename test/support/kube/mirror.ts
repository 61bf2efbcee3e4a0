// Reading what the CR mirror wrote as an operator does (kubectl as the cluster's admin), and the
// controllers' settings to mirror into a test namespace.
import { expect } from 'chai';
import type { ControllerNamespace } from './namespace.js';
import { kubectl } from './kubectl.js';

/** The controllers' settings to mirror into `ns` as its ServiceAccount, through `kubeconfig` (default: straight to the API server). */
export const mirrorEnv = (ns: ControllerNamespace, extra: Record<string, string> = {}, kubeconfig = ns.kubeconfig) => ({
  KUBECONFIG: kubeconfig,
  SWITCHBOARD_KUBE_NAMESPACE: ns.name,
  SWITCHBOARD_MIRROR_RESYNC_SEC: '1',
  ...extra,
});

/** kubectl as the cluster's admin (an operator), in the namespace. */
export async function run(ns: ControllerNamespace, args: string[]): Promise<string> {
  const result = await kubectl(ns.cluster.adminKubeconfig, [...args, '--namespace', ns.name]);
  expect(result.code, `kubectl ${args.join(' ')}: ${result.stderr}`).to.equal(0);
  return result.stdout;
}

export type Row = Record<string, string>;

/** `kubectl get` table output as rows keyed by column header; cells sit under their header, and empty ones are blank. */
export function table(stdout: string): { header: string[]; rows: Row[] } {
  const [header = '', ...lines] = stdout.trimEnd().split('\n');
  const columns = [...header.matchAll(/\S+(?: \S+)*/g)].map((m) => ({ name: m[0], start: m.index }));
  const cells = (line: string) => columns.map((c, i) => [c.name, line.slice(c.start, columns[i + 1]?.start).trim()]);
  return { header: columns.map((c) => c.name), rows: lines.map((line) => Object.fromEntries(cells(line))) };
}

/** The object `kind/name` as `kubectl get -o json` shows it, or undefined while there is none. */
export async function objectNow(ns: ControllerNamespace, kind: string, name: string): Promise<any> {
  const result = await kubectl(ns.cluster.adminKubeconfig, ['get', kind, name, '--namespace', ns.name, '-o', 'json']);
  return result.code === 0 ? JSON.parse(result.stdout) : undefined;
}

export const eventsOf = async (ns: ControllerNamespace, name: string): Promise<any[]> =>
  JSON.parse(await run(ns, ['get', 'events', '--field-selector', `involvedObject.name=${name}`, '-o', 'json'])).items;

export const condition = (cr: any, type: string) => cr.status?.conditions?.find((c: any) => c.type === type);
