import { CoordinationV1Api, KubeConfig, V1MicroTime, type V1LeaseSpec } from '@kubernetes/client-node';
import { expect } from 'chai';
import type { ModelReply } from '../../pkg/agent/openai-server.js';
import { startTestApp, type Client, type TestApp } from '../support/app.js';
import { createScratchDatabase, type ScratchDatabase } from '../support/database.js';
import { eventually } from '../support/eventually.js';
import { CLUSTER_START_MS, type AuditEvent } from '../support/kube/cluster.js';
import { startFaultyKubeApi, type FaultyKubeApi } from '../support/kube/faults.js';
import { condition, eventsOf, mirrorEnv, objectNow, run, table, type Row } from '../support/kube/mirror.js';
import { controllerNamespace, type ControllerNamespace, type NamespaceOptions } from '../support/kube/namespace.js';
import { heldReply, startJobsApp, waitForStatus } from '../support/triggers.js';

const TABLE_COLUMNS = ['NAME', 'TENANT', 'STATUS', 'ATTEMPTS', 'NEXT RUN', 'AGE'];
const parkCall: ModelReply = { toolCalls: [{ name: 'request_human_input', arguments: { reason: 'Approve the refund of 40 EUR?' } }] };
const pastDeadlineCall: ModelReply = {
  toolCalls: [{ name: 'schedule_trigger_retry', arguments: { delayMinutes: 25 * 60, reason: 'Check again tomorrow' } }],
};

/** Probes that run kubectl are polled a quarter second apart. */
const KUBECTL_POLL = { everyMs: 250 };

/**
 * A jobs app with its controllers mirroring into a fresh namespace of the test cluster, as the
 * chart's ServiceAccount, and a company of it, started in the calling describe block's before hook.
 */
function mirroredJobs(options: NamespaceOptions = {}) {
  const m = {} as { ns: ControllerNamespace; app: TestApp; client: Client; agentId: string; tenantId: string };
  before(async function () {
    this.timeout(CLUSTER_START_MS);
    m.ns = await controllerNamespace(options);
    m.app = await startJobsApp({ controllers: true, env: mirrorEnv(m.ns) });
    const { client, agentId, tenantId } = await m.app.company();
    Object.assign(m, { client, agentId, tenantId });
  });
  after(async () => {
    await m.app?.close();
  });
  return m;
}

/** The trigger's row in `kubectl get triggers`, once `accept` holds for it. */
const rowOf = (ns: ControllerNamespace, id: string, accept: (row: Row) => boolean = () => true, extra: string[] = []) =>
  eventually(
    `kubectl get triggers to show ${id} as expected`,
    async () => {
      const row = table(await run(ns, ['get', 'triggers', ...extra])).rows.find((r) => r.NAME === id);
      return row && accept(row) ? row : undefined;
    },
    KUBECTL_POLL,
  );

/** The Trigger object as `kubectl get -o json` shows it, once `accept` holds for it. */
const objectOf = (ns: ControllerNamespace, id: string, accept: (cr: any) => boolean) =>
  eventually(
    `Trigger ${id} to be mirrored as expected`,
    async () => {
      const cr = await objectNow(ns, 'trigger', id);
      return cr && accept(cr) ? cr : undefined;
    },
    KUBECTL_POLL,
  );

/** The controllers' requests in the namespace so far, from the API server's audit log. */
const requestsOf = (ns: ControllerNamespace, match: (event: AuditEvent) => boolean) =>
  ns.cluster.requests().filter((e) => e.user.username === ns.user && e.objectRef?.namespace === ns.name && match(e)).length;
const statusPatches = (ns: ControllerNamespace, id: string) =>
  requestsOf(
    ns,
    (e) => e.verb === 'patch' && e.objectRef?.resource === 'triggers' && e.objectRef.subresource === 'status' && e.objectRef.name === id,
  );
/** The mirror's syncs so far: each starts by listing the objects it manages. */
const mirrorLists = (ns: ControllerNamespace) => requestsOf(ns, (e) => e.verb === 'list' && e.objectRef?.resource === 'triggers');

async function afterSyncs(ns: ControllerNamespace, n: number): Promise<void> {
  const target = mirrorLists(ns) + n;
  await eventually(`${n} more mirror syncs`, async () => mirrorLists(ns) >= target);
}

describe('Trigger objects: kubectl get triggers follows jobs created over REST', () => {
  const m = mirroredJobs();

  it('lists each job by id with its tenant, status, attempts and age, and the status follows the job from queued through running to succeeded', async () => {
    const held = heldReply({ content: 'Refund settled' });
    m.app.model.reply(held.reply);
    const first = (await m.client.post('/api/v1/triggers', { agentId: m.agentId, task: 'Settle the refund for order A-17' })).body;
    await waitForStatus(m.client, first.triggerId, 'running');
    // Behind a running job on its conversation, the second one stays queued.
    const second = (await m.client.post(`/api/v1/conversations/${first.conversationId}/triggers`, { task: 'Tell the customer' })).body;
    try {
      const running = await rowOf(m.ns, first.triggerId, (r) => r.STATUS === 'running');
      expect(running).to.include({ TENANT: m.tenantId, ATTEMPTS: '1/3', 'NEXT RUN': '' });
      expect(running.AGE).to.match(/^\d+s$/);
      const queued = await rowOf(m.ns, second.triggerId, (r) => r.STATUS === 'queued');
      expect(queued).to.include({ TENANT: m.tenantId, ATTEMPTS: '0/3' });
      expect(table(await run(m.ns, ['get', 'triggers'])).header).to.deep.equal(TABLE_COLUMNS);
    } finally {
      held.release();
    }
    await waitForStatus(m.client, second.triggerId, 'succeeded');
    expect(await rowOf(m.ns, first.triggerId, (r) => r.STATUS === 'succeeded')).to.include({ ATTEMPTS: '1/3' });
    expect(await rowOf(m.ns, second.triggerId, (r) => r.STATUS === 'succeeded')).to.include({ ATTEMPTS: '1/3' });
  });

  it('shows a deferred job as waiting with its next run time', async () => {
    const created = (await m.client.post('/api/v1/triggers', { agentId: m.agentId, task: 'Call back tomorrow', delayMinutes: 30 })).body;
    expect(created.status).to.equal('waiting');
    const row = await rowOf(m.ns, created.triggerId, (r) => r.STATUS === 'waiting');
    expect(row).to.include({ TENANT: m.tenantId, ATTEMPTS: '0/3', 'NEXT RUN': created.nextRunAt });
  });

  it('adds the waiting reason of a job parked for a human with -o wide', async () => {
    m.app.model.reply(parkCall, { content: 'Waiting for approval' });
    const created = (await m.client.post('/api/v1/triggers', { agentId: m.agentId, task: 'Refund order A-17' })).body;
    await waitForStatus(m.client, created.triggerId, 'waiting_for_reply');
    const row = await rowOf(m.ns, created.triggerId, (r) => r.STATUS === 'waiting_for_reply', ['-o', 'wide']);
    expect(row).to.include({ ATTEMPTS: '1/3', 'WAITING REASON': 'Approve the refund of 40 EUR?' });
  });

  it('labels each object with its tenant and conversation', async () => {
    const created = (await m.client.post('/api/v1/triggers', { agentId: m.agentId, task: 'Labelled', delayMinutes: 5 })).body;
    await rowOf(m.ns, created.triggerId);
    const byConversation = table(await run(m.ns, ['get', 'triggers', '-l', `switchboard.dev/conversation=${created.conversationId}`])).rows;
    expect(byConversation.map((r) => r.NAME)).to.deep.equal([created.triggerId]);
    const byTenant = table(await run(m.ns, ['get', 'triggers', '-l', `switchboard.dev/tenant=${m.tenantId}`])).rows;
    expect(byTenant.map((r) => r.NAME)).to.include(created.triggerId);
    const cr = JSON.parse(await run(m.ns, ['get', 'trigger', created.triggerId, '-o', 'json']));
    expect(cr.metadata.labels).to.include({ 'switchboard.dev/tenant': m.tenantId, 'switchboard.dev/conversation': created.conversationId });
  });

  it('leaves the object of a job that does not change alone: no status write on each resync', async () => {
    const created = (await m.client.post('/api/v1/triggers', { agentId: m.agentId, task: 'Done once' })).body;
    await waitForStatus(m.client, created.triggerId, 'succeeded');
    await rowOf(m.ns, created.triggerId, (r) => r.STATUS === 'succeeded');
    const patches = statusPatches(m.ns, created.triggerId);
    await afterSyncs(m.ns, 3);
    expect(statusPatches(m.ns, created.triggerId)).to.equal(patches);
  });

  it('writes status as phase, conditions and observedGeneration, changing a lastTransitionTime only when its condition status changes', async () => {
    const held = heldReply({ content: 'Report compiled' });
    m.app.model.reply(held.reply);
    const created = (await m.client.post('/api/v1/triggers', { agentId: m.agentId, task: 'Compile the report' })).body;
    let running: any;
    try {
      running = await objectOf(m.ns, created.triggerId, (cr) => cr.status?.phase === 'running');
    } finally {
      held.release();
    }
    const done = await objectOf(m.ns, created.triggerId, (cr) => cr.status?.phase === 'succeeded');
    expect(done.status.observedGeneration).to.equal(done.metadata.generation);
    for (const c of done.status.conditions) expect(c).to.include.all.keys('type', 'status', 'reason', 'message', 'lastTransitionTime');
    const statuses = (cr: any) => Object.fromEntries(cr.status.conditions.map((c: any) => [c.type, c.status]));
    expect(statuses(running)).to.deep.equal({ Running: 'True', WaitingForReply: 'False', Complete: 'False', Failed: 'False' });
    expect(statuses(done)).to.deep.equal({ Running: 'False', WaitingForReply: 'False', Complete: 'True', Failed: 'False' });
    expect(condition(done, 'Complete')).to.include({ reason: 'Succeeded', message: 'Report compiled' });
    for (const type of ['WaitingForReply', 'Failed'])
      expect(condition(done, type).lastTransitionTime).to.equal(condition(running, type).lastTransitionTime);
    for (const type of ['Running', 'Complete'])
      expect(condition(done, type).lastTransitionTime).to.not.equal(condition(running, type).lastTransitionTime);
  });
});

describe('Operator cancel: kubectl annotate trigger <id> switchboard.dev/cancel=<reason>', () => {
  const m = mirroredJobs();

  it('cancels a waiting job, which GET /api/v1/triggers/:id then shows as cancelled with the reason as errorMessage', async () => {
    const created = (await m.client.post('/api/v1/triggers', { agentId: m.agentId, task: 'Call back tomorrow', delayMinutes: 30 })).body;
    await rowOf(m.ns, created.triggerId, (r) => r.STATUS === 'waiting');
    await run(m.ns, ['annotate', 'trigger', created.triggerId, 'switchboard.dev/cancel=Handled by phone']);
    const job = await waitForStatus(m.client, created.triggerId, 'cancelled');
    expect(job.errorMessage).to.equal('Handled by phone');
    await rowOf(m.ns, created.triggerId, (r) => r.STATUS === 'cancelled');
  });

  it('refuses to cancel a finished job with a CancelRefused condition and one Warning Event, and does not retry it', async () => {
    const created = (await m.client.post('/api/v1/triggers', { agentId: m.agentId, task: 'Quick one' })).body;
    await waitForStatus(m.client, created.triggerId, 'succeeded');
    await rowOf(m.ns, created.triggerId, (r) => r.STATUS === 'succeeded');
    await run(m.ns, ['annotate', 'trigger', created.triggerId, 'switchboard.dev/cancel=Too late']);
    const cr = await objectOf(m.ns, created.triggerId, (o) => condition(o, 'CancelRefused')?.status === 'True');
    expect(condition(cr, 'CancelRefused')).to.include({ reason: 'NotCancellable', message: 'Trigger cannot be cancelled while succeeded' });
    expect(cr.status.phase).to.equal('succeeded');
    const refusals = (await eventsOf(m.ns, created.triggerId)).filter((e) => e.reason === 'CancelRefused');
    expect(refusals.map((e) => [e.type, e.message])).to.deep.equal([['Warning', 'Trigger cannot be cancelled while succeeded']]);
    const shown = table(await run(m.ns, ['get', 'events', '--field-selector', `involvedObject.name=${created.triggerId}`])).rows;
    expect(shown.map((e) => [e.TYPE, e.REASON, e.OBJECT])).to.deep.include(['Warning', 'CancelRefused', `trigger/${created.triggerId}`]);

    const patches = statusPatches(m.ns, created.triggerId);
    await afterSyncs(m.ns, 3);
    expect(statusPatches(m.ns, created.triggerId)).to.equal(patches);
    expect((await eventsOf(m.ns, created.triggerId)).filter((e) => e.reason === 'CancelRefused')).to.have.length(1);
    expect((await m.client.get(`/api/v1/triggers/${created.triggerId}`)).body.status).to.equal('succeeded');
  });
});

describe('Kubernetes Events for notable job transitions', () => {
  const m = mirroredJobs();

  const eventFor = (id: string, reason: string) =>
    eventually(`a ${reason} Event for ${id}`, async () => (await eventsOf(m.ns, id)).find((e) => e.reason === reason), KUBECTL_POLL);

  it('records a WaitingForReply Event when a job is parked for a human', async () => {
    m.app.model.reply(parkCall, { content: 'Waiting for approval' });
    const created = (await m.client.post('/api/v1/triggers', { agentId: m.agentId, task: 'Refund order A-17' })).body;
    await waitForStatus(m.client, created.triggerId, 'waiting_for_reply');
    const event = await eventFor(created.triggerId, 'WaitingForReply');
    expect(event).to.include({ type: 'Normal', message: 'Approve the refund of 40 EUR?' });
    expect(event.involvedObject).to.include({ kind: 'Trigger', name: created.triggerId, namespace: m.ns.name });
  });

  it('records a Warning Failed Event when the model call fails', async () => {
    m.app.model.reply({ fail: { status: 400, message: 'context length exceeded' } });
    const created = (await m.client.post('/api/v1/triggers', { agentId: m.agentId, task: 'Summarise everything' })).body;
    const job = await waitForStatus(m.client, created.triggerId, 'failed');
    expect(await eventFor(created.triggerId, 'Failed')).to.include({ type: 'Warning', message: job.errorMessage });
  });

  it('records a Warning Expired Event when a job runs past its deadline', async () => {
    m.app.model.reply(pastDeadlineCall, { content: 'Checking again tomorrow' });
    const created = (await m.client.post('/api/v1/triggers', { agentId: m.agentId, task: 'Track the parcel' })).body;
    const job = await waitForStatus(m.client, created.triggerId, 'expired');
    expect(await eventFor(created.triggerId, 'Expired')).to.include({ type: 'Warning', message: job.errorMessage });
  });
});

describe('Retention of finished jobs (SWITCHBOARD_MIRROR_RETENTION_MIN)', () => {
  let ns: ControllerNamespace;
  let app: TestApp;
  before(async function () {
    this.timeout(CLUSTER_START_MS);
    ns = await controllerNamespace();
    app = await startJobsApp({ controllers: true, env: mirrorEnv(ns, { SWITCHBOARD_MIRROR_RETENTION_MIN: '0' }) });
  });
  after(async () => {
    await app?.close();
  });

  it('deletes the objects of finished jobs past the window and keeps live ones', async () => {
    const { client, agentId } = await app.company();
    const held = heldReply({ content: 'Done' });
    app.model.reply(held.reply);
    const finishing = (await client.post('/api/v1/triggers', { agentId, task: 'Finish soon' })).body;
    const live = (await client.post('/api/v1/triggers', { agentId, task: 'Later', delayMinutes: 30 })).body;
    try {
      await rowOf(ns, finishing.triggerId, (r) => r.STATUS === 'running');
    } finally {
      held.release();
    }
    await waitForStatus(client, finishing.triggerId, 'succeeded');
    await eventually(
      'the finished job to leave kubectl get triggers',
      async () => {
        const names = table(await run(ns, ['get', 'triggers'])).rows.map((r) => r.NAME);
        return !names.includes(finishing.triggerId);
      },
      KUBECTL_POLL,
    );
    await afterSyncs(ns, 2);
    expect(await rowOf(ns, live.triggerId)).to.include({ STATUS: 'waiting' });
  });
});

/** The holder of the switchboard-mirror Lease, as kubectl shows it. */
const leaseHolder = async (ns: ControllerNamespace) =>
  JSON.parse(await run(ns, ['get', 'lease', 'switchboard-mirror', '-o', 'json'])).spec.holderIdentity;

describe('Two controller replicas mirroring into one namespace', () => {
  let ns: ControllerNamespace;
  let database: ScratchDatabase;
  let replicas: TestApp[] = [];
  before(async function () {
    this.timeout(CLUSTER_START_MS);
    ns = await controllerNamespace();
    database = await createScratchDatabase();
    replicas = [
      await startTestApp({ databaseUrl: database.url, controllers: true, env: mirrorEnv(ns) }),
      await startTestApp({ databaseUrl: database.url, controllers: true, env: mirrorEnv(ns) }),
    ];
  });
  after(async () => {
    for (const replica of replicas) await replica.close();
    await database?.drop();
  });

  const leaders = () => replicas.filter((r) => r.controllers!.mirror!.isLeader);

  it('has exactly one mirror writer, the holder of the switchboard-mirror Lease, and a peer takes over when it stops', async () => {
    const [leader] = await eventually('a mirror leader', async () => leaders().length > 0 && leaders());
    await afterSyncs(ns, 3);
    expect(leaders()).to.have.length(1);
    expect(leaders()[0]).to.equal(leader);
    expect(await leaseHolder(ns)).to.equal(leader!.controllers!.manager.owner);

    const follower = replicas.find((r) => r !== leader)!;
    const { client, agentId } = await follower.company();
    const before = (await client.post('/api/v1/triggers', { agentId, task: 'Before the handover', delayMinutes: 5 })).body;
    await rowOf(ns, before.triggerId, (r) => r.STATUS === 'waiting');

    await leader!.close();
    replicas = replicas.filter((r) => r !== leader);
    await eventually('the follower to take over', async () => follower.controllers!.mirror!.isLeader);
    expect(await leaseHolder(ns)).to.equal(follower.controllers!.manager.owner);
    const after = (await client.post('/api/v1/triggers', { agentId, task: 'After the handover', delayMinutes: 5 })).body;
    await rowOf(ns, after.triggerId, (r) => r.STATUS === 'waiting');
  });
});

describe('The switchboard-mirror Lease held by a peer whose clock is behind', () => {
  const LEASE = 'switchboard-mirror';
  let ns: ControllerNamespace;
  let app: TestApp | undefined;
  let renewing = true;
  before(async function () {
    this.timeout(CLUSTER_START_MS);
    ns = await controllerNamespace();
  });
  after(async () => {
    renewing = false;
    await app?.close();
  });

  it('is not taken while the peer keeps renewing it, and is taken at once when the peer releases it', async () => {
    const kc = new KubeConfig();
    kc.loadFromFile(ns.cluster.adminKubeconfig);
    const leases = kc.makeApiClient(CoordinationV1Api);
    const peerTime = () => new V1MicroTime(Date.now() - 30_000);
    let lease = await leases.createNamespacedLease({
      namespace: ns.name,
      body: {
        metadata: { name: LEASE },
        spec: { holderIdentity: 'peer', leaseDurationSeconds: 15, acquireTime: peerTime(), renewTime: peerTime() },
      },
    });
    const peerErrors: string[] = [];
    const renew = (spec: V1LeaseSpec) =>
      leases.replaceNamespacedLease({
        name: LEASE,
        namespace: ns.name,
        body: { ...lease, spec: { ...spec, acquireTime: new V1MicroTime(lease.spec!.acquireTime!) } },
      });
    const peer = (async () => {
      while (renewing) {
        await new Promise((resolve) => setTimeout(resolve, 500));
        lease = await renew({ ...lease.spec, renewTime: peerTime() }).catch((err: Error) => {
          peerErrors.push(err.message);
          return lease;
        });
      }
    })();

    app = await startJobsApp({ controllers: true, env: mirrorEnv(ns) });
    const reads = () => requestsOf(ns, (e) => e.verb === 'get' && e.objectRef?.resource === 'leases' && e.objectRef.name === LEASE);
    await eventually("three rounds of the mirror's elector", async () => reads() >= 3);
    renewing = false;
    await peer;
    expect(peerErrors).to.deep.equal([]);
    expect(app.controllers!.mirror!.isLeader).to.equal(false);
    expect(await leaseHolder(ns)).to.equal('peer');

    await renew({ ...lease.spec, holderIdentity: '', leaseDurationSeconds: 1, renewTime: peerTime() });
    await eventually('the mirror to take the released Lease', async () => app!.controllers!.mirror!.isLeader);
    expect(await leaseHolder(ns)).to.equal(app.controllers!.manager.owner);
  });
});

describe('The mirror when the Kubernetes API is down, and after a restart', () => {
  let ns: ControllerNamespace;
  let kube: FaultyKubeApi;
  let database: ScratchDatabase;
  let app: TestApp | undefined;
  before(async function () {
    this.timeout(CLUSTER_START_MS);
    ns = await controllerNamespace();
    kube = await startFaultyKubeApi(ns.cluster.url, ns.cluster.ca);
    database = await createScratchDatabase();
  });
  after(async () => {
    kube?.setOutage(null);
    await app?.close();
    await database?.drop();
    await kube?.close();
  });

  // The controllers reach the API server through the fault stand-in; kubectl goes straight to it.
  const start = () => startTestApp({ databaseUrl: database.url, controllers: true, env: mirrorEnv(ns, {}, ns.kubeconfigVia(kube.url)) });

  const failedSyncs = () => app!.logs.filter((line) => line.includes('mirror sync failed')).length;

  it('answers REST requests and runs jobs while the API hangs, closes the calls it gave up on, and catches up once it answers again', async () => {
    app ??= await start();
    const { client, agentId } = await app.company();
    await eventually('a mirror leader', async () => app!.controllers!.mirror!.isLeader);
    const failed = failedSyncs();
    kube.setOutage('hang');
    try {
      const created = await client.post('/api/v1/triggers', { agentId, task: 'Runs while the API hangs' });
      expect(created.status).to.equal(202);
      await waitForStatus(client, created.body.triggerId, 'succeeded');
      // The mirror's calls give up on their own: a sync fails, and the next one retries.
      await eventually('two mirror syncs to time out', async () => failedSyncs() > failed + 1, { withinMs: 30_000 });
      // A call given up on is aborted, its connection closed: the hung API server is left holding
      // only the calls in flight, the sync's and the elector's.
      await eventually('the calls given up on to be closed', async () => kube.hung().abandoned > 0 && kube.hung().open <= 2);
      kube.setOutage(null);
      await rowOf(ns, created.body.triggerId, (r) => r.STATUS === 'succeeded' && r.ATTEMPTS === '1/3');
    } finally {
      kube.setOutage(null);
    }
  });

  it('answers REST requests and runs jobs while the API answers 503, and takes the Lease back and catches up once it returns', async () => {
    app ??= await start();
    const { client, agentId } = await app.company();
    await eventually('a mirror leader', async () => app!.controllers!.mirror!.isLeader);
    kube.setOutage('unavailable');
    try {
      const created = await client.post('/api/v1/triggers', { agentId, task: 'Runs while the API is down' });
      expect(created.status).to.equal(202);
      await waitForStatus(client, created.body.triggerId, 'succeeded');
      // Past the renew deadline the mirror stops leading; it must lead again to catch up.
      await eventually('the mirror to stop leading', async () => !app!.controllers!.mirror!.isLeader, { withinMs: 30_000 });
      kube.setOutage(null);
      await rowOf(ns, created.body.triggerId, (r) => r.STATUS === 'succeeded' && r.ATTEMPTS === '1/3');
      expect(app.controllers!.mirror!.isLeader).to.equal(true);
    } finally {
      kube.setOutage(null);
    }
  });

  it('resyncs from Postgres after a restart: recreates a deleted object and corrects a changed status', async () => {
    app ??= await start();
    const { client, agentId } = await app.company();
    const done = (await client.post('/api/v1/triggers', { agentId, task: 'Done before the restart' })).body;
    const waiting = (await client.post('/api/v1/triggers', { agentId, task: 'Later', delayMinutes: 30 })).body;
    await waitForStatus(client, done.triggerId, 'succeeded');
    await rowOf(ns, done.triggerId, (r) => r.STATUS === 'succeeded');
    await rowOf(ns, waiting.triggerId, (r) => r.STATUS === 'waiting');
    await app.close();
    app = undefined;

    await run(ns, ['delete', 'trigger', done.triggerId]);
    await run(ns, [
      'patch',
      'trigger',
      waiting.triggerId,
      '--subresource=status',
      '--type=merge',
      '-p',
      '{"status":{"phase":"failed","attempts":"3/3"}}',
    ]);
    expect(table(await run(ns, ['get', 'triggers'])).rows.find((r) => r.NAME === waiting.triggerId)).to.include({ STATUS: 'failed' });

    app = await start();
    expect(await rowOf(ns, done.triggerId, (r) => r.STATUS !== '')).to.include({ STATUS: 'succeeded', ATTEMPTS: '1/3' });
    expect(await rowOf(ns, waiting.triggerId, (r) => r.STATUS !== 'failed')).to.include({
      STATUS: 'waiting',
      ATTEMPTS: '0/3',
      'NEXT RUN': waiting.nextRunAt,
    });
  });
});

describe('The mirror as a ServiceAccount whose Role lacks a rule the chart grants', () => {
  // The chart's RBAC as rendered, less the rule that lets the controllers write Trigger objects.
  const m = mirroredJobs({
    editRbac: (objects) =>
      objects.map((o) => (o.kind === 'Role' ? { ...o, rules: o.rules.filter((rule: any) => !rule.resources.includes('triggers')) } : o)),
  });

  it("cannot list or write Trigger objects, and logs the API server's forbidden error", async () => {
    await m.client.post('/api/v1/triggers', { agentId: m.agentId, task: 'Mirror me', delayMinutes: 5 });
    const failure = await eventually('a failed mirror sync', async () => m.app.logs.find((line) => line.includes('mirror sync failed')));
    expect(JSON.parse(failure!).err).to.equal(
      `403 Forbidden: triggers.switchboard.dev is forbidden: User "${m.ns.user}" cannot list resource "triggers" in API group "switchboard.dev" in the namespace "${m.ns.name}"`,
    );
    expect(table(await run(m.ns, ['get', 'triggers'])).rows).to.deep.equal([]);
  });
});

describe('Without a cluster configured', () => {
  let app: TestApp;
  before(async () => {
    app = await startJobsApp({ controllers: true });
  });
  after(async () => app?.close());

  it('runs jobs with the mirror off, and says so once in the log', async () => {
    const { client, agentId } = await app.company();
    const created = (await client.post('/api/v1/triggers', { agentId, task: 'No cluster here' })).body;
    await waitForStatus(client, created.triggerId, 'succeeded');
    expect(app.controllers!.mirror).to.equal(null);
    expect(app.logs.filter((line) => line.includes('the CR mirror is off'))).to.have.length(1);
  });
});
