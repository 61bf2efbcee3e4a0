// `make e2e` (named .e2e.ts so that `make test` leaves it out): the chart installed as a user installs it. The image is built from the Dockerfile by
// buildah (images.sh) and imported into the containerd of a real single-node cluster (cluster.ts);
// Postgres and Redis run outside the cluster with passwords, their URLs and the encryption key in a
// Secret made with kubectl; `helm install` must bring the migration Job and the pods up through
// their own probes. Then, as a user would, through the api Service: a streamed reply, a job, a
// simulated call's signed webhook, a campaign run, /metrics, kubectl's printer columns; day 2: a
// rolling `helm upgrade` while jobs run and the deletion of the controller holding the Lease
// mid-job, counted (nothing lost, nothing run twice); `helm uninstall` keeping CRDs and data; and
// a chart whose readiness probe is wrong failing with the kubelet's reason.
import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import YAML from 'yaml';
import { freePort } from '../../pkg/db/embedded.js';
import { clientFor, openConversation, type Client } from '../support/app.js';
import { startCustomerSystem, noonZone, SIGN_IN, type CustomerSystem } from '../support/campaigns.js';
import { eventually } from '../support/eventually.js';
import { CHART_DIR, helm } from '../support/kube/helm.js';
import { kubectl } from '../support/kube/kubectl.js';
import { kubeTool } from '../support/kube/tools.js';
import { jobIn, startScriptedModel, type ScriptedModel } from '../support/model.js';
import { ROOT } from '../support/root.js';
import { startReceiver, type Receiver } from '../support/webhooks.js';
import { GATEWAY, kubectlIn, sh, startNodeCluster, type NodeCluster } from './cluster.js';
import { startExternalPostgres, startExternalRedis, type ExternalService } from './services.js';

const NAMESPACE = 'switchboard';
const RELEASE = 'switchboard';
const IMAGE = 'switchboard:e2e';
const NEXT_IMAGE = `${IMAGE}-next`;
const SELECTOR = (component: string) => `app.kubernetes.io/instance=${RELEASE},app.kubernetes.io/component=${component}`;
// Where images.sh keeps its archives between runs (and buildah its layers).
const IMAGES_DIR = process.env.SWITCHBOARD_E2E_IMAGES ?? '/var/cache/switchboard/e2e-images';
// A job of the day-2 steps stays with the model this long, so that it is in flight when pods go.
const DAY_TWO_MODEL_MS = 3_000;
const CHAT_REPLY = 'Hello from inside the cluster.';

/** The attempt a job's model request says it is (the brief's "attempt N of M"). */
function attemptOf(content: string): number {
  return Number(/\(attempt (\d+) of \d+\)/.exec(content)?.[1] ?? 0);
}

describe('helm install into a real cluster (make e2e)', function () {
  this.timeout(10 * 60_000);
  const top = mkdtempSync(join(tmpdir(), 'switchboard-e2e-'));
  // Postgres runs as its own user, who must be able to enter it.
  chmodSync(top, 0o755);
  let cluster: NodeCluster;
  let k: ReturnType<typeof kubectlIn>;
  let postgres: ExternalService;
  let redis: ExternalService;
  let model: ScriptedModel;
  let receiver: Receiver;
  let crm: CustomerSystem;
  let apiUrl: string;
  let client: Client;
  let company: { tenantId: string; agentId: string; apiKey: string };
  const forwards: ChildProcess[] = [];

  const helmIn = (args: string[], timeoutMs = 6 * 60_000) => helm(args, { kubeconfig: cluster.adminKubeconfig, timeoutMs });
  const admin = async (args: string[]) =>
    JSON.parse(await k(['exec', `deploy/${RELEASE}-api`, '--', 'node', 'dist/cmd/switchboard.js', 'admin', ...args, '--json']));
  const podsOf = async (component: string) =>
    JSON.parse(await k(['get', 'pods', '-l', SELECTOR(component), '-o', 'json'])).items.filter(
      (pod: any) => !pod.metadata.deletionTimestamp,
    );
  const ready = (pod: any) => pod.status.conditions?.some((c: any) => c.type === 'Ready' && c.status === 'True') === true;
  const leaseHolder = async () =>
    (
      await kubectl(cluster.adminKubeconfig, [
        '-n',
        NAMESPACE,
        'get',
        'lease',
        'switchboard-mirror',
        '-o',
        'jsonpath={.spec.holderIdentity}',
      ])
    ).stdout.split(':')[0] ?? '';

  /** Why the release's pods are not up: the namespace's warnings (probe failures with the kubelet's words) and unready pods. */
  async function whyNotUp(namespace: string): Promise<string> {
    const events = JSON.parse(
      (await kubectl(cluster.adminKubeconfig, ['-n', namespace, 'get', 'events', '--field-selector', 'type=Warning', '-o', 'json']))
        .stdout || '{"items":[]}',
    );
    // No cluster DNS here (the chart needs none): the kubelet's warning of it on every pod is noise.
    const warnings = new Set<string>(
      events.items
        .filter((e: any) => e.reason !== 'MissingClusterDNS')
        .map((e: any) => `${e.involvedObject.kind} ${e.involvedObject.name}: ${e.reason}: ${e.message}`),
    );
    const pods = JSON.parse(
      (await kubectl(cluster.adminKubeconfig, ['-n', namespace, 'get', 'pods', '-o', 'json'])).stdout || '{"items":[]}',
    );
    const unready = pods.items.filter((pod: any) => !ready(pod)).map((pod: any) => `${pod.metadata.name} (${pod.status.phase})`);
    return `pods not Ready: ${unready.join(', ') || 'none'}\n${[...warnings].join('\n') || 'no warning events'}`;
  }

  /** `helm install|upgrade … --wait`; fails with why the pods are not up. */
  async function helmWait(args: string[], namespace: string, timeout: string): Promise<void> {
    const result = await helmIn([...args, '--namespace', namespace, '--wait', '--timeout', timeout]);
    if (result.code !== 0) throw new Error(`helm ${args[0]} failed: ${result.stderr.trim()}\n${await whyNotUp(namespace)}`);
  }

  /** A job created over the Agent API (retried on a dropped connection with the same idempotency key); its id. */
  async function createJob(task: string, key: string): Promise<string> {
    for (let tries = 1; ; tries++) {
      try {
        const created = await client.post('/api/v1/triggers', { agentId: company.agentId, task, idempotencyKey: key });
        expect(created.status, JSON.stringify(created.body)).to.be.oneOf([200, 202]);
        return created.body.triggerId;
      } catch (err) {
        if (tries === 3 || !(err instanceof TypeError)) throw err;
      }
    }
  }

  /** Every job's status by REST, and what the model saw of each: requests and the attempts they named. */
  async function jobsOutcome(ids: string[]): Promise<{ statuses: Record<string, number>; lost: string[]; twice: string[] }> {
    const statuses: Record<string, number> = {};
    const lost: string[] = [];
    for (const id of ids) {
      const job = await client.get(`/api/v1/triggers/${id}`);
      statuses[job.body.status] = (statuses[job.body.status] ?? 0) + 1;
      if (job.body.status !== 'succeeded') lost.push(`${id}: ${job.body.status}`);
    }
    const seen = new Map<string, number[]>();
    for (const request of model.requests) {
      const job = jobIn(request);
      if (!job || !ids.includes(job.id)) continue;
      const brief = request.messages.find((m) => m.role === 'system' && typeof m.content === 'string' && m.content.includes(job.id));
      seen.set(job.id, [...(seen.get(job.id) ?? []), attemptOf(String(brief?.content ?? ''))]);
    }
    const twice = [...seen]
      .filter(([, attempts]) => attempts.length !== 1 || attempts[0] !== 1)
      .map(([id, attempts]) => `${id}: attempts ${attempts.join(', ')}`);
    lost.push(...ids.filter((id) => !seen.has(id)).map((id) => `${id}: never reached the model`));
    return { statuses, lost, twice };
  }

  const allSettled = (ids: string[]) =>
    eventually(
      `${ids.length} jobs to end`,
      async () => {
        for (const id of ids)
          if (!['succeeded', 'failed', 'cancelled'].includes((await client.get(`/api/v1/triggers/${id}`)).body.status)) return false;
        return true;
      },
      { withinMs: 180_000, everyMs: 1_000 },
    );

  /** The model requests of jobs whose task starts with `prefix`, with the pod address they came from. */
  const jobRequestsFrom = (prefix: string) =>
    model.requests.flatMap((request, i) =>
      jobIn(request)?.task?.startsWith(prefix) ? [{ job: jobIn(request)!.id, from: model.sources[i]! }] : [],
    );

  afterEach(async function () {
    if (this.currentTest?.state !== 'failed' || !cluster) return;
    const pods = await kubectl(cluster.adminKubeconfig, ['-n', NAMESPACE, 'get', 'pods,jobs,deploy', '-o', 'wide']);
    const logs = await kubectl(cluster.adminKubeconfig, [
      '-n',
      NAMESPACE,
      'logs',
      '-l',
      `app.kubernetes.io/instance=${RELEASE}`,
      '--all-containers',
      '--prefix',
      '--tail=20',
    ]);
    console.log(`diagnostics:\n${pods.stdout}${pods.stderr}\n${await whyNotUp(NAMESPACE)}\n${logs.stdout.slice(-6000)}`);
  });

  after(async function () {
    this.timeout(5 * 60_000);
    for (const forward of forwards) forward.kill();
    await cluster?.stop();
    await crm?.close();
    await receiver?.close();
    await model?.close();
    await redis?.stop();
    await postgres?.stop();
    rmSync(top, { recursive: true, force: true });
  });

  it('builds the image from the Dockerfile with buildah, and the base and pause images it needs', async function () {
    this.timeout(30 * 60_000);
    await sh(join(ROOT, 'test/e2e/images.sh'), [IMAGE, IMAGES_DIR], 30 * 60_000);
    const config = JSON.parse(await sh('buildah', ['inspect', '--type', 'image', IMAGE])).OCIv1.config;
    expect(config.User).to.equal('1000:1000');
  });

  it('starts a single-node cluster: a kubelet on containerd and runc, a CNI bridge, kube-proxy; the images imported', async function () {
    this.timeout(5 * 60_000);
    cluster = await startNodeCluster(mkdtempSync(join(top, 'cluster-')));
    k = kubectlIn(cluster, NAMESPACE);
    for (const archive of ['pause', 'switchboard', 'switchboard-next']) await cluster.importImage(join(IMAGES_DIR, `${archive}.tar`));
    const node = JSON.parse(await k(['get', 'nodes', '-o', 'json'])).items[0];
    expect(node.status.nodeInfo.containerRuntimeVersion).to.match(/^containerd:\/\//);
    expect(node.status.conditions.find((c: any) => c.type === 'Ready').status).to.equal('True');
  });

  it('creates the Secret and the CA a user would: Postgres and Redis outside the cluster, with passwords', async function () {
    this.timeout(2 * 60_000);
    postgres = await startExternalPostgres(mkdtempSync(join(top, 'postgres-')), GATEWAY, '10.244.0.0/24');
    redis = await startExternalRedis(mkdtempSync(join(top, 'redis-')), GATEWAY);
    model = await startScriptedModel(GATEWAY);
    model.setDefault((request) => {
      const task = jobIn(request)?.task ?? '';
      return task.startsWith('Day two') ? { content: 'Done.', delayMs: DAY_TWO_MODEL_MS } : { content: CHAT_REPLY };
    });
    await k(['create', 'namespace', NAMESPACE]);
    await k([
      'create',
      'secret',
      'generic',
      'switchboard',
      `--from-literal=DATABASE_URL=${postgres.url}`,
      `--from-literal=REDIS_URL=${redis.url}`,
      `--from-literal=SWITCHBOARD_ENCRYPTION_KEY=${randomBytes(32).toString('base64')}`,
    ]);
    // The test's receivers present a certificate of a private CA, which the pods are told to trust.
    await k(['create', 'configmap', 'e2e-ca', `--from-file=ca.crt=${cluster.tls.cert}`]);
  });

  it('helm install: the migration Job completes, the api and controllers pods become Ready through their own probes', async () => {
    const values = join(top, 'values.yaml');
    writeFileSync(
      values,
      YAML.stringify({
        image: { repository: 'switchboard', tag: 'e2e', pullPolicy: 'Never' },
        redis: { existingSecret: 'switchboard' },
        encryption: { existingSecret: 'switchboard' },
        model: { baseUrl: model.url },
        api: { replicas: 2, service: { type: 'NodePort' } },
        controllers: { replicas: 2 },
        config: { SWITCHBOARD_OUTBOUND_ALLOW: GATEWAY, SWITCHBOARD_MIRROR_RESYNC_SEC: 1 },
        extraEnv: [{ name: 'NODE_EXTRA_CA_CERTS', value: '/etc/switchboard-ca/ca.crt' }],
        extraVolumes: [{ name: 'e2e-ca', configMap: { name: 'e2e-ca' } }],
        extraVolumeMounts: [{ name: 'e2e-ca', mountPath: '/etc/switchboard-ca', readOnly: true }],
      }),
    );
    await helmWait(['install', RELEASE, CHART_DIR, '-f', values], NAMESPACE, '5m');
    const completed = await k([
      'get',
      'events',
      '--field-selector',
      `involvedObject.name=${RELEASE}-migrate,reason=Completed`,
      '-o',
      'name',
    ]);
    expect(completed.trim(), 'the migration Job never completed').to.not.equal('');
    for (const component of ['api', 'controllers']) {
      const pods = await podsOf(component);
      expect(pods.map(ready), `${component} pods Ready`).to.deep.equal([true, true]);
      expect(pods.map((pod: any) => pod.spec.containers[0].image)).to.deep.equal([IMAGE, IMAGE]);
    }
    // The image's user, as the chart declares it, on a root filesystem it cannot write.
    expect((await k(['exec', `deploy/${RELEASE}-controllers`, '--', 'id', '-u'])).trim()).to.equal('1000');
    const write = await kubectl(cluster.adminKubeconfig, ['-n', NAMESPACE, 'exec', `deploy/${RELEASE}-api`, '--', 'touch', '/app/written']);
    expect(write.stderr).to.match(/Read-only file system/);
    const nodePort = JSON.parse(await k(['get', 'service', `${RELEASE}-api`, '-o', 'json'])).spec.ports.find(
      (p: any) => p.name === 'http',
    ).nodePort;
    apiUrl = `http://${GATEWAY}:${nodePort}`;
  });

  it('two controllers replicas elect one mirror writer', async () => {
    const pods = (await podsOf('controllers')).map((pod: any) => pod.metadata.name);
    const holder = await eventually('the switchboard-mirror Lease to have a holder', async () => (await leaseHolder()) || undefined);
    expect(pods).to.include(holder);
    const leaders = [];
    for (const pod of pods) if ((await k(['logs', pod])).includes('"msg":"became leader"')) leaders.push(pod);
    expect(leaders).to.deep.equal([holder]);
  });

  it('through the api Service: a company, and a conversation whose reply streams', async () => {
    company = await admin(['bootstrap', '--name', 'E2E Company']);
    // The day-2 tests poll dozens of jobs a second: above the default 300 requests a minute, which is not what they test.
    await admin([
      'tenant',
      'update',
      '--tenant',
      company.tenantId,
      '--features',
      'voice_api,campaigns,ai_agents',
      '--requests-per-minute',
      '100000',
    ]);
    client = clientFor(apiUrl, company.apiKey);
    const conversation = await openConversation(client, company.agentId);
    const streamed = await client.stream(`/api/v1/conversations/${conversation}/messages`, { message: 'Hello?', stream: true });
    expect(streamed.status).to.equal(200);
    expect(
      streamed.events
        .filter((e) => e.type === 'content')
        .map((e) => e.content)
        .join(''),
    ).to.equal(CHAT_REPLY);
    expect(streamed.events.at(-1)).to.include({ type: 'done' });
  });

  it('through the api Service: the documentation site the image built, and its API reference', async () => {
    const page = await fetch(`${apiUrl}/docs/reference/voice-api/calls`);
    expect(page.status).to.equal(200);
    expect(await page.text()).to.include('id="placeCall"');
    expect((await fetch(`${apiUrl}/docs/api/`)).status).to.equal(200);
  });

  it('a job succeeds, and kubectl get triggers shows it with its printer columns', async () => {
    const id = await createJob('Say hello', 'e2e-first-job');
    await eventually('the job to succeed', async () => (await client.get(`/api/v1/triggers/${id}`)).body.status === 'succeeded', {
      withinMs: 60_000,
    });
    const table = await eventually(
      'the Trigger to show succeeded',
      async () => {
        const printed = await k(['get', 'triggers']);
        return new RegExp(`^${id} +${company.tenantId} +succeeded +1/\\d+ `, 'm').test(printed) && printed;
      },
      { withinMs: 60_000 },
    );
    console.log(table);
    expect(table.split('\n')[0]).to.match(/^NAME +TENANT +STATUS +ATTEMPTS +NEXT RUN +AGE$/);
  });

  it('kubectl annotate of a waiting job cancels it', async () => {
    const created = await client.post('/api/v1/triggers', {
      agentId: company.agentId,
      task: 'Follow up tomorrow',
      delayMinutes: 60,
      idempotencyKey: 'e2e-wait',
    });
    expect(created.body.status).to.equal('waiting');
    const id = created.body.triggerId;
    const phase = async () =>
      (await kubectl(cluster.adminKubeconfig, ['-n', NAMESPACE, 'get', 'trigger', id, '-o', 'jsonpath={.status.phase}'])).stdout;
    await eventually('the Trigger to be mirrored', async () => (await phase()) === 'waiting', { withinMs: 60_000 });
    await k(['annotate', 'trigger', id, 'switchboard.dev/cancel=cancelled with kubectl']);
    await eventually('the job to be cancelled', async () => (await client.get(`/api/v1/triggers/${id}`)).body.status === 'cancelled', {
      withinMs: 60_000,
    });
    await eventually('the Trigger to show cancelled', async () => (await phase()) === 'cancelled', { withinMs: 60_000 });
  });

  it("a simulated call's result arrives at its callback_url, signed", async () => {
    const secret = (await admin(['tenant', 'show', '--tenant', company.tenantId])).webhookSecret;
    receiver = await startReceiver(secret, { host: GATEWAY, tls: cluster.tls });
    const placed = await client.post('/v1/calls', { to: '+12025550123', task: 'Ask how they are', callback_url: receiver.url });
    expect(placed.status, JSON.stringify(placed.body)).to.equal(201);
    const result = await eventually(
      'call.result at the receiver',
      async () => receiver.events.find((e) => e.type === 'call.result' && e.data.call_id === placed.body.id),
      { withinMs: 120_000 },
    );
    expect(result.data).to.include({ final: true });
    expect(receiver.rejected).to.deep.equal([]);
  });

  it('a campaign run shows in kubectl get campaignruns with its printer columns', async () => {
    const secret = (await admin(['tenant', 'show', '--tenant', company.tenantId])).webhookSecret;
    crm = await startCustomerSystem(secret, Date.now, { host: GATEWAY, tls: cluster.tls });
    crm.lists.push({
      status: 200,
      body: {
        contacts: [
          { contact_id: 'ann', name: 'Ann', phone: '+12025550101' },
          { contact_id: 'dee', phone: '12345' },
        ],
      },
    });
    const connection = await client.post('/v1/connections', { name: 'CRM', base_url: crm.url, sign_in_header: SIGN_IN });
    expect(connection.status, JSON.stringify(connection.body)).to.equal(201);
    const campaign = await client.post('/v1/campaigns', {
      name: 'Renewals',
      connection_id: connection.body.id,
      task: 'Offer the renewal',
      timezone: noonZone(),
    });
    expect(campaign.status, JSON.stringify(campaign.body)).to.equal(201);
    const run = await client.post(`/v1/campaigns/${campaign.body.id}/runs`, {});
    expect(run.status, JSON.stringify(run.body)).to.equal(202);
    let printed = '';
    const table = await eventually(
      'the CampaignRun to show done',
      async () => {
        printed = await k(['get', 'campaignruns']);
        // The object's name is the run's id made a DNS name.
        const name = run.body.id.toLowerCase().replace('_', '-');
        return new RegExp(`^${name} +${campaign.body.id} +done +2 +1 +0 +1 `, 'm').test(printed) && printed;
      },
      { withinMs: 120_000 },
    ).catch(async (err: Error) => {
      throw new Error(
        `${err.message}; kubectl get campaignruns:\n${printed}\nGET the run: ${JSON.stringify((await client.get(`/v1/campaign-runs/${run.body.id}`)).body)}`,
      );
    });
    console.log(table);
    expect(table.split('\n')[0]).to.match(/^NAME +CAMPAIGN +STATUS +TOTAL +DONE +NO ANSWER +SKIPPED +AGE$/);
    expect(crm.summaries).to.have.length(1);
  });

  /** `kubectl port-forward <target> <free port>:<port>` (`svc/…` or `pod/…`); its local address once it answers `path`. */
  async function portForward(target: string, port: number, path: string): Promise<string> {
    const local = await freePort();
    const forward = spawn(
      kubeTool('kubectl'),
      ['--kubeconfig', cluster.adminKubeconfig, '-n', NAMESPACE, 'port-forward', target, `${local}:${port}`],
      { stdio: 'ignore' },
    );
    forwards.push(forward);
    const url = `http://127.0.0.1:${local}`;
    await eventually(
      `the port-forward to ${target} to answer ${path}`,
      async () => (await fetch(`${url}${path}`).catch(() => undefined))?.ok,
    );
    return url;
  }

  it('kubectl port-forward: /readyz through the api Service; /metrics only on the metrics port, never through the api Service', async () => {
    const api = await portForward(`svc/${RELEASE}-api`, 80, '/readyz');
    expect((await fetch(`${api}/metrics`)).status).to.equal(404);
    expect((await fetch(`${apiUrl}/metrics`)).status).to.equal(404);
    const served = await portForward(`svc/${RELEASE}-api-metrics`, 9464, '/metrics');
    expect(await (await fetch(`${served}/metrics`)).text()).to.match(/^# TYPE switchboard_api_requests_total counter$/m);
    // A Service forwards to one pod, and a kept-alive connection went to one pod: the company's requests are on some api pod.
    const scraped: string[] = [];
    for (const pod of await podsOf('api'))
      scraped.push(await (await fetch(`${await portForward(`pod/${pod.metadata.name}`, 9464, '/metrics')}/metrics`)).text());
    expect(scraped.join('\n')).to.match(new RegExp(`^switchboard_api_requests_total\\{[^}]*tenant="${company.tenantId}"`, 'm'));
    for (const forward of forwards) forward.kill();
  });

  it('day 2: helm upgrade to a changed image rolls every pod while jobs run; none lost, none run twice', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) ids.push(await createJob(`Day two, before the upgrade ${i}`, `upgrade-before-${i}`));
    await eventually('jobs to be with the model', async () => jobRequestsFrom('Day two, before').length > 0);
    const upgrade = helmWait(['upgrade', RELEASE, CHART_DIR, '--reuse-values', '--set', 'image.tag=e2e-next'], NAMESPACE, '5m');
    let upgrading = true;
    void upgrade.finally(() => (upgrading = false)).catch(() => undefined);
    for (let i = 0; upgrading; i++) {
      ids.push(await createJob(`Day two, during the upgrade ${i}`, `upgrade-during-${i}`));
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    await upgrade;
    for (const component of ['api', 'controllers']) {
      expect(
        (await podsOf(component)).map((pod: any) => pod.spec.containers[0].image),
        component,
      ).to.deep.equal([NEXT_IMAGE, NEXT_IMAGE]);
    }
    await allSettled(ids);
    const outcome = await jobsOutcome(ids);
    console.log(
      `      ${ids.length} jobs across the upgrade: ${JSON.stringify(outcome.statuses)}; lost ${outcome.lost.length}, run twice ${outcome.twice.length}`,
    );
    expect(outcome.lost, 'lost').to.deep.equal([]);
    expect(outcome.twice, 'run twice').to.deep.equal([]);
  });

  it('day 2: deleting the controller that holds the Lease mid-job loses nothing and runs nothing twice; the other takes the Lease', async () => {
    const holder = await leaseHolder();
    const pod = (await podsOf('controllers')).find((p: any) => p.metadata.name === holder);
    expect(pod, `the Lease holder ${holder} is a running controllers pod`).to.not.equal(undefined);
    const ids: string[] = [];
    await eventually(
      `a job in flight on ${holder}`,
      async () => {
        ids.push(await createJob(`Day two, failover ${ids.length}`, `failover-${ids.length}`));
        return jobRequestsFrom('Day two, failover').some((r) => r.from.endsWith(pod.status.podIP));
      },
      { withinMs: 60_000, everyMs: 300 },
    );
    await k(['delete', 'pod', holder, '--wait=false']);
    for (let i = 0; i < 4; i++) ids.push(await createJob(`Day two, after the deletion ${i}`, `failover-after-${i}`));
    await eventually(
      'another controllers pod to hold the Lease',
      async () => {
        const now = await leaseHolder();
        return now !== '' && now !== holder && (await podsOf('controllers')).some((p: any) => p.metadata.name === now);
      },
      { withinMs: 90_000, everyMs: 1_000 },
    );
    await allSettled(ids);
    const outcome = await jobsOutcome(ids);
    console.log(
      `      ${ids.length} jobs across the deletion of ${holder}: ${JSON.stringify(outcome.statuses)}; lost ${outcome.lost.length}, run twice ${outcome.twice.length}`,
    );
    expect(outcome.lost, 'lost').to.deep.equal([]);
    expect(outcome.twice, 'run twice').to.deep.equal([]);
  });

  it('helm uninstall leaves the CRDs, the Trigger objects and the data', async () => {
    const jobs = (await k(['get', 'triggers', '-o', 'name'])).trim().split('\n');
    const uninstall = await helmIn(['uninstall', RELEASE, '--namespace', NAMESPACE, '--wait']);
    expect(uninstall.code, uninstall.stderr).to.equal(0);
    expect(await podsOf('api')).to.deep.equal([]);
    await k(['get', 'crd', 'triggers.switchboard.dev', 'campaignruns.switchboard.dev']);
    expect((await k(['get', 'triggers', '-o', 'name'])).trim().split('\n')).to.deep.equal(jobs);
    const count = await sh('psql', [postgres.url, '-tAc', `SELECT count(*) FROM triggers WHERE tenant_id = '${company.tenantId}'`]);
    expect(Number(count.trim())).to.be.greaterThan(jobs.length - 1);
  });

  it("a chart whose readiness probe asks the wrong path fails the install with the kubelet's reason", async () => {
    const chart = join(top, 'broken-chart');
    cpSync(CHART_DIR, chart, { recursive: true });
    const helpers = join(chart, 'templates/_helpers.tpl');
    writeFileSync(helpers, readFileSync(helpers, 'utf8').replace('path: /readyz', 'path: /ready'));
    await kubectl(cluster.adminKubeconfig, ['create', 'namespace', 'broken']);
    await kubectl(cluster.adminKubeconfig, [
      '-n',
      'broken',
      'create',
      'secret',
      'generic',
      'switchboard',
      `--from-literal=DATABASE_URL=${postgres.url}`,
    ]);
    const failure = await helmWait(
      [
        'install',
        'broken',
        chart,
        '--set',
        'image.tag=e2e',
        '--set',
        'image.pullPolicy=Never',
        '--set',
        'api.replicas=1',
        '--set',
        'controllers.replicas=1',
        '--set',
        'crds.enabled=false',
      ],
      'broken',
      '60s',
    ).then(
      () => undefined,
      (err: Error) => err.message,
    );
    console.log(
      `      ${failure
        ?.split('\n')
        .filter((line) => !/Startup probe failed/.test(line))
        .join('\n      ')}`,
    );
    for (const component of ['api', 'controllers']) {
      expect(failure).to.match(
        new RegExp(`Pod broken-switchboard-${component}-\\S+: Unhealthy: Readiness probe failed: HTTP probe failed with statuscode: 404`),
      );
    }
  });
});
