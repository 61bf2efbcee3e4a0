// A real etcd and kube-apiserver on loopback for the whole test run, as controller-runtime's envtest
// starts them: started the first time a test asks (testCluster()), stopped by the root hooks, data
// in a temp dir. RBAC is on; the admin signs in with a static token; the CRDs of crds/ (and
// prometheus-operator's ServiceMonitor) are installed; every request is written to an audit log,
// which tests read as requests().
import { spawn, type ChildProcess } from 'node:child_process';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { closeSync, mkdtempSync, openSync, readFileSync, readSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually } from '../eventually.js';
import { TLS_DIR } from '../https.js';
import { ROOT } from '../root.js';
import { freePort } from '../../../pkg/db/embedded.js';
import { writeKubeconfig } from './kubeconfig.js';
import { kubectl, kubectlOk } from './kubectl.js';
import { kubeTool, serviceMonitorCrd } from './tools.js';

/** One request as the API server's audit log records it (level Metadata). */
export interface AuditEvent {
  verb: string;
  requestURI: string;
  user: { username: string; groups?: string[] };
  objectRef?: { resource?: string; subresource?: string; namespace?: string; name?: string; apiGroup?: string };
  responseStatus?: { code?: number };
}

export interface TestCluster {
  /** https://127.0.0.1:PORT */
  url: string;
  /** PEM of the CA that signed the API server's certificate (the tests' own, make-cert.ts). */
  ca: string;
  /** A folder for this run's kubeconfigs and files, removed at the end. */
  dir: string;
  /** kubeconfig of the cluster admin (group system:masters), namespace "default". */
  adminKubeconfig: string;
  adminToken: string;
  /** Every request answered so far, from the audit log. */
  requests(): AuditEvent[];
}

const AUDIT_POLICY = `apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: [RequestReceived, ResponseStarted]
rules:
- level: Metadata
`;

/** How long a hook that may start the cluster waits for it (the first one does, on a busy machine). */
export const CLUSTER_START_MS = 180_000;

let started: Promise<RunningCluster> | undefined;

/** The run's cluster, started on first use (tens of seconds). */
export async function testCluster(): Promise<TestCluster> {
  started ??= startCluster();
  return (await started).cluster;
}

/** Stops the cluster if one was started (the root hooks' afterAll). */
export async function stopTestCluster(): Promise<void> {
  if (!started) return;
  const running = await started.catch(() => undefined);
  started = undefined;
  await running?.stop();
}

interface RunningCluster {
  cluster: TestCluster;
  stop(): Promise<void>;
}

/** A child process whose output goes to `log`, killed if the test process exits first. */
export function daemon(binary: string, args: string[], log: string): { child: ChildProcess; stop(): Promise<void> } {
  const out = openSync(log, 'a');
  const child = spawn(binary, args, { stdio: ['ignore', out, out] });
  closeSync(out);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  return {
    child,
    async stop() {
      process.removeListener('exit', killOnExit);
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(killer);
    },
  };
}

const tail = (file: string) => readFileSync(file, 'utf8').split('\n').slice(-30).join('\n');

/** Polls `probe` until it holds; fails with the daemon's log if it exits or `withinMs` pass. */
export async function waitUntil(
  what: string,
  child: ChildProcess,
  log: string,
  probe: () => Promise<boolean>,
  withinMs: number,
): Promise<void> {
  try {
    await eventually(
      what,
      async () => {
        if (child.exitCode !== null) throw new Error(`exited with ${child.exitCode}`);
        return probe().catch(() => false);
      },
      { withinMs, everyMs: 200 },
    );
  } catch (err) {
    throw new Error(`${what}: ${(err as Error).message}; its log (${log}):\n${tail(log)}`);
  }
}

/** The status code of an HTTPS GET. */
function httpsStatus(url: string, options: { ca: string; token: string }): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { ca: options.ca, headers: { Authorization: `Bearer ${options.token}` }, timeout: 5_000 }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', reject);
    req.end();
  });
}

/** The Services' addresses; the API server's own (`kubernetes`) is the first. */
export const SERVICE_RANGE = '10.0.0.0/24';

export interface ControlPlaneOptions {
  /** Where etcd and the API server listen; the API server advertises it. */
  address: string;
  /** PEM files of the API server's certificate, which is its own CA (make-cert.ts's kind). */
  tls: { cert: string; key: string };
  /** Identities signing in with a static token, besides the admin. */
  tokens?: { token: string; user: string; groups: string[] }[];
  /** The API server's authorizers; RBAC alone unless given. */
  authorization?: string;
  /** More kube-apiserver flags. */
  apiServerArgs?: string[];
}

export interface ControlPlane {
  url: string;
  ca: string;
  adminToken: string;
  adminKubeconfig: string;
  /** The private key ServiceAccount tokens are signed with (kube-controller-manager needs it too). */
  serviceAccountKey: string;
  /** Every request answered so far, from the audit log. */
  requests(): AuditEvent[];
}

/** etcd and kube-apiserver on `address`, in `dir`; each started daemon's stop is pushed to `stops`. */
export async function startControlPlane(dir: string, options: ControlPlaneOptions, stops: (() => Promise<void>)[]): Promise<ControlPlane> {
  const { address } = options;
  const [etcdPort, peerPort, apiPort] = [await freePort(), await freePort(), await freePort()];
  const etcdUrl = `http://${address}:${etcdPort}`;
  const etcdLog = join(dir, 'etcd.log');
  const etcd = daemon(
    kubeTool('etcd'),
    [
      '--name=test',
      `--data-dir=${join(dir, 'etcd')}`,
      `--listen-client-urls=${etcdUrl}`,
      `--advertise-client-urls=${etcdUrl}`,
      `--listen-peer-urls=http://${address}:${peerPort}`,
      `--initial-advertise-peer-urls=http://${address}:${peerPort}`,
      `--initial-cluster=test=http://${address}:${peerPort}`,
      // Throwaway data: no fsync, as envtest runs it.
      '--unsafe-no-fsync',
      '--log-level=warn',
    ],
    etcdLog,
  );
  stops.push(etcd.stop);
  await waitUntil('etcd to be healthy', etcd.child, etcdLog, async () => (await fetch(`${etcdUrl}/health`)).ok, 30_000);

  const adminToken = randomBytes(24).toString('base64url');
  const tokens = [{ token: adminToken, user: 'admin', groups: ['system:masters'] }, ...(options.tokens ?? [])];
  writeFileSync(join(dir, 'tokens.csv'), tokens.map((t) => `${t.token},${t.user},${t.user},"${t.groups.join(',')}"\n`).join(''), {
    mode: 0o600,
  });
  // The keys ServiceAccount tokens are signed and checked with (TokenRequest: `kubectl create token`).
  const serviceAccountKeys = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const serviceAccountKey = join(dir, 'sa.key');
  writeFileSync(serviceAccountKey, serviceAccountKeys.privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
  writeFileSync(join(dir, 'sa.pub'), serviceAccountKeys.publicKey.export({ type: 'spki', format: 'pem' }));
  writeFileSync(join(dir, 'audit-policy.yaml'), AUDIT_POLICY);
  const url = `https://${address}:${apiPort}`;
  const apiLog = join(dir, 'kube-apiserver.log');
  const apiserver = daemon(
    kubeTool('kube-apiserver'),
    [
      `--advertise-address=${address}`,
      `--bind-address=${address}`,
      `--secure-port=${apiPort}`,
      `--etcd-servers=${etcdUrl}`,
      `--tls-cert-file=${options.tls.cert}`,
      `--tls-private-key-file=${options.tls.key}`,
      `--cert-dir=${join(dir, 'certs')}`,
      `--token-auth-file=${join(dir, 'tokens.csv')}`,
      `--authorization-mode=${options.authorization ?? 'RBAC'}`,
      '--service-account-issuer=https://kubernetes.default.svc.cluster.local',
      `--service-account-key-file=${join(dir, 'sa.pub')}`,
      `--service-account-signing-key-file=${serviceAccountKey}`,
      `--service-cluster-ip-range=${SERVICE_RANGE}`,
      `--audit-policy-file=${join(dir, 'audit-policy.yaml')}`,
      `--audit-log-path=${join(dir, 'audit.log')}`,
      ...(options.apiServerArgs ?? []),
    ],
    apiLog,
  );
  stops.push(apiserver.stop);
  const ca = readFileSync(options.tls.cert, 'utf8');
  await waitUntil(
    'kube-apiserver to be ready',
    apiserver.child,
    apiLog,
    async () => (await httpsStatus(`${url}/readyz`, { ca, token: adminToken })) === 200,
    120_000,
  );
  const adminKubeconfig = writeKubeconfig(dir, 'admin', { server: url, ca, token: adminToken, namespace: 'default' });
  return { url, ca, adminToken, adminKubeconfig, serviceAccountKey, requests: auditReader(join(dir, 'audit.log')) };
}

/** Applies the CRDs in `crds` (a file or folder) and waits until they are established. */
export async function installCrds(kubeconfig: string, crds: string): Promise<void> {
  await kubectlOk(kubeconfig, ['apply', '--server-side', '-f', crds]);
  // kubectl wait fails at once, rather than waiting, on a CRD that has no conditions yet.
  const established = () => kubectl(kubeconfig, ['wait', '--for=condition=Established', '--timeout=10s', '-f', crds]);
  await eventually(`the CRDs in ${crds} to be established`, async () => (await established()).code === 0, {
    withinMs: 60_000,
    everyMs: 200,
  });
}

async function startCluster(): Promise<RunningCluster> {
  const dir = mkdtempSync(join(tmpdir(), 'switchboard-kube-'));
  const stops: (() => Promise<void>)[] = [];
  const stop = async () => {
    for (const stopOne of stops.reverse()) await stopOne();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const plane = await startControlPlane(
      dir,
      { address: '127.0.0.1', tls: { cert: join(TLS_DIR, 'cert.pem'), key: join(TLS_DIR, 'key.pem') } },
      stops,
    );
    // Ours, and the ServiceMonitor kind a cluster running prometheus-operator has (the chart's dry run).
    for (const crds of [join(ROOT, 'crds'), serviceMonitorCrd()]) await installCrds(plane.adminKubeconfig, crds);
    const { url, ca, adminKubeconfig, adminToken, requests } = plane;
    return { cluster: { url, ca, dir, adminKubeconfig, adminToken, requests }, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

/** The audit log's events so far, read on from where the last call stopped. */
function auditReader(file: string): () => AuditEvent[] {
  const events: AuditEvent[] = [];
  let offset = 0;
  let partial = '';
  return () => {
    const fd = openSync(file, 'r');
    try {
      const buffer = Buffer.alloc(1 << 20);
      for (let read: number; (read = readSync(fd, buffer, 0, buffer.length, offset)) > 0; offset += read) {
        const lines = (partial + buffer.toString('utf8', 0, read)).split('\n');
        partial = lines.pop()!;
        for (const line of lines) if (line) events.push(JSON.parse(line) as AuditEvent);
      }
    } finally {
      closeSync(fd);
    }
    return events;
  };
}
