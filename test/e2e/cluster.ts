// A single-node Kubernetes cluster on this machine, for `make e2e`: etcd, kube-apiserver,
// kube-controller-manager and kube-scheduler (built by kube/tools.sh), a kubelet registered with
// the API server running pods on Debian's containerd and runc, pod networking on a CNI bridge the
// cluster makes (BRIDGE, GATEWAY/24), and kube-proxy (iptables) so that pods reach Services by
// ClusterIP, the API server's among them. The host side of the bridge, GATEWAY, is where the
// control plane listens and where the test serves what a cluster reaches outside itself.
// Everything (data, mounts, iptables chains, the bridge) is removed by stop().
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { stringify } from 'yaml';
import { freePort } from '../../pkg/db/embedded.js';
import { selfSignedCa } from '../support/certificate.js';
import { eventually } from '../support/eventually.js';
import { daemon, SERVICE_RANGE, startControlPlane, waitUntil, type ControlPlane } from '../support/kube/cluster.js';
import { writeKubeconfig } from '../support/kube/kubeconfig.js';
import { kubectl, kubectlOk } from '../support/kube/kubectl.js';
import { kubeTool, kubeVersions } from '../support/kube/tools.js';

export const BRIDGE = 'sbe2e0';
export const GATEWAY = '10.244.0.1';
const POD_SUBNET = '10.244.0.0/24';
// The API server's Service (`kubernetes`) takes the first address of the Service range.
const API_SERVICE_IP = SERVICE_RANGE.replace(/0\/24$/, '1');
export const NODE_NAME = 'switchboard-e2e';
// containerd's sandbox image, built and imported by images.sh.
const PAUSE_IMAGE = `localhost/pause:${kubeVersions().KUBERNETES_VERSION}`;

const run = promisify(execFile);

/** `command args…`, its stdout; rejects with its stderr. */
export async function sh(command: string, args: string[], timeout = 120_000): Promise<string> {
  try {
    return (await run(command, args, { timeout, maxBuffer: 64 * 1024 * 1024 })).stdout;
  } catch (err) {
    const { stderr, message } = err as { stderr?: string; message: string };
    throw new Error(`${command} ${args.join(' ')}: ${stderr?.trim() || message}`);
  }
}

export interface NodeCluster extends ControlPlane {
  dir: string;
  /** PEM files of a certificate for GATEWAY, its own CA, for the test's servers there. */
  tls: { cert: string; key: string };
  /** Imports a docker-archive into the node's containerd. */
  importImage(archive: string): Promise<void>;
  stop(): Promise<void>;
}

/** The cluster's certificate, for `ips` and the API server's Service names; its own CA. */
async function clusterCertificate(dir: string, ips: string[]): Promise<{ cert: string; key: string }> {
  const names = ['localhost', 'kubernetes', 'kubernetes.default', 'kubernetes.default.svc', 'kubernetes.default.svc.cluster.local'];
  const pems = await selfSignedCa({ commonName: 'switchboard-e2e', dns: names, ips, days: 30 });
  const files = { cert: join(dir, 'cluster.crt'), key: join(dir, 'cluster.key') };
  writeFileSync(files.key, pems.key, { mode: 0o600 });
  writeFileSync(files.cert, pems.cert);
  return files;
}

/** Removes the bridge (its address and routes go with it) and kube-proxy's iptables chains. */
async function removeNetwork(): Promise<void> {
  await run(kubeTool('kube-proxy'), ['--cleanup']).catch(() => undefined);
  await run('ip', ['link', 'delete', BRIDGE]).catch(() => undefined);
}

/** Unmounts every mount under `dir`, deepest first. */
async function unmountUnder(dir: string): Promise<void> {
  const mounts = readFileSync('/proc/self/mounts', 'utf8')
    .split('\n')
    .map((line) => line.split(' ')[1]?.replace(/\\040/g, ' '))
    .filter((path): path is string => !!path && path.startsWith(`${dir}/`))
    .sort((a, b) => b.length - a.length);
  for (const path of mounts) await run('umount', ['-l', path]).catch(() => undefined);
}

export async function startNodeCluster(dir: string): Promise<NodeCluster> {
  chmodSync(dir, 0o755);
  const stops: (() => Promise<void>)[] = [];
  const containerdDir = join(dir, 'containerd');
  const socket = join(containerdDir, 'containerd.sock');
  const ctr = (args: string[], timeout?: number) => sh('ctr', ['--address', socket, '--namespace', 'k8s.io', ...args], timeout);
  let plane: ControlPlane | undefined;

  const stop = async () => {
    // Pods first, while the kubelet runs: it stops their sandboxes, which releases their addresses and network namespaces.
    // What makes pods goes before them, or it makes them anew.
    if (plane) {
      await kubectl(plane.adminKubeconfig, [
        'delete',
        'deployments,replicasets,statefulsets,daemonsets,jobs',
        '--all',
        '--all-namespaces',
        '--wait=false',
      ]);
      await kubectl(plane.adminKubeconfig, ['delete', 'pods', '--all', '--all-namespaces', '--grace-period=0', '--force', '--wait=false']);
      await eventually(
        'the node to run no container',
        async () => (await ctr(['tasks', 'list', '--quiet']).catch(() => '')).trim() === '',
        { withinMs: 60_000, everyMs: 500 },
      ).catch(() => undefined);
    }
    for (const stopOne of stops.reverse()) await stopOne().catch(() => undefined);
    // A shim outlives containerd; it is ours when its command line names our socket.
    await run('pkill', ['-KILL', '-f', `containerd-shim-runc-v2 .*-address ${socket}`]).catch(() => undefined);
    await unmountUnder(dir);
    await removeNetwork();
    rmSync(dir, { recursive: true, force: true });
  };

  try {
    // What an earlier run that did not end left; then the bridge, made here rather than by the CNI
    // plugin so that the host side has its address before any pod.
    await removeNetwork();
    await sh('ip', ['link', 'add', BRIDGE, 'type', 'bridge']);
    await sh('ip', ['addr', 'add', `${GATEWAY}/24`, 'dev', BRIDGE]);
    await sh('ip', ['link', 'set', BRIDGE, 'up']);

    const tls = await clusterCertificate(dir, [GATEWAY, API_SERVICE_IP, '127.0.0.1']);
    const nodeToken = randomBytes(24).toString('base64url');
    plane = await startControlPlane(
      dir,
      {
        address: GATEWAY,
        tls,
        tokens: [{ token: nodeToken, user: `system:node:${NODE_NAME}`, groups: ['system:nodes'] }],
        authorization: 'Node,RBAC',
        apiServerArgs: ['--enable-admission-plugins=NodeRestriction', '--kubelet-preferred-address-types=InternalIP'],
      },
      stops,
    );
    const { adminKubeconfig, url, ca } = plane;

    // The control loops, each on its own loopback port, alone (no leader election).
    for (const [name, args] of [
      [
        'kube-controller-manager',
        [
          `--root-ca-file=${tls.cert}`,
          `--service-account-private-key-file=${plane.serviceAccountKey}`,
          `--service-cluster-ip-range=${SERVICE_RANGE}`,
        ],
      ],
      ['kube-scheduler', [`--authentication-kubeconfig=${adminKubeconfig}`, `--authorization-kubeconfig=${adminKubeconfig}`]],
    ] as const) {
      const loop = daemon(
        kubeTool(name),
        [
          `--kubeconfig=${adminKubeconfig}`,
          '--leader-elect=false',
          '--bind-address=127.0.0.1',
          `--secure-port=${await freePort()}`,
          `--cert-dir=${join(dir, name)}`,
          ...args,
        ],
        join(dir, `${name}.log`),
      );
      stops.push(loop.stop);
    }

    const cniDir = join(dir, 'cni');
    mkdirSync(cniDir, { recursive: true });
    writeFileSync(
      join(cniDir, '10-switchboard-e2e.conflist'),
      JSON.stringify(
        {
          cniVersion: '0.4.0',
          name: 'switchboard-e2e',
          plugins: [
            {
              type: 'bridge',
              bridge: BRIDGE,
              isGateway: true,
              ipMasq: false,
              hairpinMode: true,
              ipam: {
                type: 'host-local',
                ranges: [[{ subnet: POD_SUBNET, gateway: GATEWAY }]],
                routes: [{ dst: '0.0.0.0/0' }],
                dataDir: join(dir, 'cni-ipam'),
              },
            },
            { type: 'portmap', capabilities: { portMappings: true } },
          ],
        },
        null,
        2,
      ),
    );
    mkdirSync(containerdDir, { recursive: true });
    const cri = 'plugins."io.containerd.grpc.v1.cri"';
    writeFileSync(
      join(containerdDir, 'config.toml'),
      `version = 2
root = "${join(containerdDir, 'root')}"
state = "${join(containerdDir, 'state')}"
disabled_plugins = ["io.containerd.snapshotter.v1.aufs", "io.containerd.snapshotter.v1.btrfs", "io.containerd.snapshotter.v1.zfs", "io.containerd.snapshotter.v1.devmapper"]
[grpc]
  address = "${socket}"
[ttrpc]
  address = "${socket}.ttrpc"
[plugins."io.containerd.internal.v1.opt"]
  path = "${join(containerdDir, 'opt')}"
[${cri}]
  sandbox_image = "${PAUSE_IMAGE}"
  # This machine refuses writes that lower oom_score_adj; without it every sandbox fails to start.
  restrict_oom_score_adj = true
[${cri}.containerd]
  snapshotter = "overlayfs"
  default_runtime_name = "runc"
[${cri}.containerd.runtimes.runc]
  runtime_type = "io.containerd.runc.v2"
[${cri}.containerd.runtimes.runc.options]
  SystemdCgroup = false
[${cri}.cni]
  bin_dir = "/usr/lib/cni"
  conf_dir = "${cniDir}"
`,
    );
    const containerdLog = join(dir, 'containerd.log');
    const containerd = daemon('containerd', ['--config', join(containerdDir, 'config.toml')], containerdLog);
    stops.push(containerd.stop);
    await waitUntil(
      'containerd to answer',
      containerd.child,
      containerdLog,
      async () => {
        await ctr(['version'], 5_000);
        return true;
      },
      30_000,
    );

    const nodeKubeconfig = writeKubeconfig(dir, 'node', { server: url, ca, token: nodeToken, namespace: 'default' });
    const kubeletConfig = join(dir, 'kubelet.yaml');
    writeFileSync(
      kubeletConfig,
      stringify({
        apiVersion: 'kubelet.config.k8s.io/v1beta1',
        kind: 'KubeletConfiguration',
        address: GATEWAY,
        port: await freePort(),
        readOnlyPort: 0,
        healthzBindAddress: '127.0.0.1',
        healthzPort: await freePort(),
        // The API server's requests (logs, exec, port-forward) come over the bridge only.
        authentication: { anonymous: { enabled: true }, webhook: { enabled: false } },
        authorization: { mode: 'AlwaysAllow' },
        // What this machine allows: cgroups v1, no per-QoS hierarchy, swap left on.
        failCgroupV1: false,
        cgroupDriver: 'cgroupfs',
        cgroupsPerQOS: false,
        enforceNodeAllocatable: [],
        failSwapOn: false,
        containerRuntimeEndpoint: `unix://${socket}`,
        resolvConf: '/etc/resolv.conf',
        // A shared machine's disk and memory: never evict the test's pods, never collect its images.
        evictionHard: { 'memory.available': '1Mi', 'nodefs.available': '1%', 'imagefs.available': '1%' },
        imageGCHighThresholdPercent: 100,
        imageGCLowThresholdPercent: 99,
        serializeImagePulls: false,
      }),
    );
    const kubeletLog = join(dir, 'kubelet.log');
    const kubelet = daemon(
      kubeTool('kubelet'),
      [
        `--config=${kubeletConfig}`,
        `--kubeconfig=${nodeKubeconfig}`,
        `--root-dir=${join(dir, 'kubelet')}`,
        `--cert-dir=${join(dir, 'kubelet-pki')}`,
        `--hostname-override=${NODE_NAME}`,
        `--node-ip=${GATEWAY}`,
      ],
      kubeletLog,
    );
    stops.push(kubelet.stop);

    const proxyConfig = join(dir, 'kube-proxy.yaml');
    writeFileSync(
      proxyConfig,
      stringify({
        apiVersion: 'kubeproxy.config.k8s.io/v1alpha1',
        kind: 'KubeProxyConfiguration',
        clientConnection: { kubeconfig: adminKubeconfig },
        hostnameOverride: NODE_NAME,
        mode: 'iptables',
        clusterCIDR: POD_SUBNET,
        healthzBindAddress: `127.0.0.1:${await freePort()}`,
        metricsBindAddress: `127.0.0.1:${await freePort()}`,
        // Leave the machine's conntrack settings as they are.
        conntrack: { maxPerCore: 0, min: 0, tcpEstablishedTimeout: '0s', tcpCloseWaitTimeout: '0s' },
      }),
    );
    const proxyLog = join(dir, 'kube-proxy.log');
    const proxy = daemon(kubeTool('kube-proxy'), [`--config=${proxyConfig}`], proxyLog);
    stops.push(proxy.stop);

    const nodeReady = async () =>
      (await kubectl(adminKubeconfig, ['get', 'node', NODE_NAME, '-o', 'jsonpath={.status.conditions[?(@.type=="Ready")].status}']))
        .stdout === 'True';
    await waitUntil(`node ${NODE_NAME} to be Ready`, kubelet.child, kubeletLog, nodeReady, 120_000);
    return {
      ...plane,
      dir,
      tls,
      importImage: async (archive) => void (await ctr(['images', 'import', archive], 600_000)),
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}

/** kubectl with the admin's kubeconfig, in `namespace`; rejects on failure. */
export const kubectlIn =
  (cluster: NodeCluster, namespace: string) =>
  (args: string[], options: { input?: string } = {}) =>
    kubectlOk(cluster.adminKubeconfig, ['--namespace', namespace, ...args], options);
