// A stand-in Kubernetes API server for tests (no kube-apiserver can run here). It serves, over HTTPS
// on loopback with the test certificate, the parts of the API the product and the real kubectl use:
// discovery, CRUD/list/watch of the custom resources in crds/, server-side apply, the status
// subresource, Leases, Events, namespaces and Table output. A generated kubeconfig (token user,
// CA data embedded) points kubectl and @kubernetes/client-node at it.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:https';
import type { ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { TLS_DIR } from '../https.js';
import { BUILTIN_TYPES, CRDS } from './builtins.js';
import { crdTypes, readCrds } from './crd.js';
import { Discovery } from './discovery.js';
import { statusError, type Obj } from './errors.js';
import { handle, type HandlerContext } from './handler.js';
import { Store } from './store.js';
import type { ResourceType } from './resources.js';
import { nowTime } from './time.js';
import { Api } from './verbs.js';

export interface KubeApiServerOptions {
  /** CustomResourceDefinition YAML files; every file in crds/ by default. */
  crdFiles?: string[];
  /** How often watches that allow bookmarks get one (the real server: about a minute). */
  bookmarkIntervalMs?: number;
  /** Changes kept for watches; a watch from an older resourceVersion gets 410 Expired. */
  historyLimit?: number;
}

export interface RecordedKubeRequest {
  method: string;
  /** Path and query, as sent. */
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** Read access to what is stored, as the API shows it. `resource` is a plural ("triggers") or plural.group. */
export interface StoredObjects {
  get(resource: string, namespace: string | undefined, name: string): Obj | undefined;
  list(resource: string, namespace?: string): Obj[];
}

export type Outage = 'unavailable' | 'hang';

export interface KubeApiServer {
  /** https://127.0.0.1:PORT */
  url: string;
  /** A kubeconfig file (in a temp dir) for this server, current context namespace "default". */
  kubeconfigPath: string;
  token: string;
  objects: StoredObjects;
  requests: RecordedKubeRequest[];
  /** Forgets the watch history, as etcd compaction does: older resourceVersions now get 410. */
  compact(): void;
  /** 'unavailable' answers 503, 'hang' never answers; both drop open watches. null ends the outage. */
  setOutage(outage: Outage | null): void;
  /** Requests a hang holds: how many the client closed while waiting, and how many are still open. */
  hung(): { abandoned: number; open: number };
  close(): Promise<void>;
}

const DEFAULT_NAMESPACES = ['default', 'kube-system', 'kube-public', 'kube-node-lease'];

function defaultCrdFiles(): string[] {
  const dir = join(process.cwd(), 'crds');
  return readdirSync(dir)
    .filter((file) => file.endsWith('.yaml'))
    .map((file) => join(dir, file));
}

function writeKubeconfig(url: string, token: string): string {
  const path = join(mkdtempSync(join(tmpdir(), 'kube-apiserver-')), 'kubeconfig');
  const name = 'switchboard-test';
  const config = {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name, cluster: { server: url, 'certificate-authority-data': readFileSync(join(TLS_DIR, 'cert.pem')).toString('base64') } }],
    users: [{ name, user: { token } }],
    contexts: [{ name, context: { cluster: name, user: name, namespace: 'default' } }],
    'current-context': name,
  };
  writeFileSync(path, stringify(config), { mode: 0o600 });
  return path;
}

export async function startKubeApiServer(options: KubeApiServerOptions = {}): Promise<KubeApiServer> {
  const crds = readCrds(options.crdFiles ?? defaultCrdFiles());
  const types: ResourceType[] = [...BUILTIN_TYPES, ...crds.flatMap(crdTypes)];
  const store = new Store(options.historyLimit ?? 1000);
  const api = new Api(store);
  for (const namespace of DEFAULT_NAMESPACES) api.ensureNamespace(namespace);
  for (const crd of crds) store.put(CRDS.storage, { ...crd, metadata: { ...crd.metadata, creationTimestamp: nowTime() }, status: { acceptedNames: crd.spec.names } });

  const token = randomBytes(24).toString('base64url');
  const requests: RecordedKubeRequest[] = [];
  const watches = new Set<() => void>();
  let outage: { kind: Outage; release: Promise<void>; end(): void } | null = null;
  // Requests held by a hang, and how many of them the client closed.
  const held = new Set<ServerResponse>();
  let abandoned = 0;
  let address = '';
  const context: HandlerContext = {
    api,
    store,
    discovery: new Discovery(types, () => address),
    types,
    token,
    bookmarkIntervalMs: options.bookmarkIntervalMs ?? 5_000,
    trackWatch(end, res) {
      watches.add(end);
      res.on('close', () => watches.delete(end));
    },
  };

  const server = createServer({ cert: readFileSync(join(TLS_DIR, 'cert.pem')), key: readFileSync(join(TLS_DIR, 'key.pem')) }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      const body = Buffer.concat(chunks).toString('utf8');
      requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      if (outage?.kind === 'hang') {
        held.add(res);
        res.once('close', () => {
          if (held.delete(res)) abandoned++;
        });
        while (outage?.kind === 'hang') await outage.release;
        held.delete(res);
      }
      if (outage?.kind === 'unavailable') {
        res.writeHead(503, { 'Content-Type': 'application/json' }).end(JSON.stringify(statusError.unavailable().status()));
        return;
      }
      handle(context, req, res, body);
    });
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  address = `127.0.0.1:${port}`;
  const url = `https://${address}`;
  const kubeconfigPath = writeKubeconfig(url, token);

  const resolveType = (resource: string) => {
    const found = types.find((type) => resource === type.plural || resource === `${type.plural}.${type.group}`);
    if (!found) throw new Error(`unknown resource ${resource}`);
    return found;
  };
  const endOutage = () => {
    outage?.end();
    outage = null;
  };

  return {
    url,
    kubeconfigPath,
    token,
    requests,
    objects: {
      get(resource, namespace, name) {
        const type = resolveType(resource);
        const stored = store.get(type.storage, type.namespaced ? namespace : undefined, name);
        return stored && api.present(type, stored);
      },
      list(resource, namespace) {
        const type = resolveType(resource);
        return store.list(type.storage, namespace).map((stored) => api.present(type, stored));
      },
    },
    compact: () => store.compact(),
    hung: () => ({ abandoned, open: held.size }),
    setOutage(kind) {
      endOutage();
      if (!kind) return;
      let end = () => {};
      const release = new Promise<void>((resolve) => (end = resolve));
      outage = { kind, release, end };
      for (const stop of [...watches]) stop();
    },
    async close() {
      for (const stop of [...watches]) stop();
      endOutage();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(join(kubeconfigPath, '..'), { recursive: true, force: true });
    },
  };
}
