import * as k8s from '@kubernetes/client-node';
import { expect } from 'chai';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { stringify } from 'yaml';
import { startKubeApiServer, type KubeApiServer } from '../support/kube-apiserver/index.js';
import { kubectl, startKubectl } from '../support/kube-apiserver/kubectl.js';

const GROUP = 'switchboard.dev';
const VERSION = 'v1alpha1';
const NAMESPACE = 'default';
const TRIGGERS = { group: GROUP, version: VERSION, namespace: NAMESPACE, plural: 'triggers' };
const applyPatch = k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.ServerSideApply);
const mergePatch = k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch);
const HOUR_MS = 3_600_000;

let counter = 0;
const uniqueName = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${counter++}`;

function trigger(name: string, spec: Record<string, unknown> = {}) {
  return {
    apiVersion: `${GROUP}/${VERSION}`,
    kind: 'Trigger',
    metadata: { name, labels: { 'switchboard.dev/tenant': 't1' } },
    spec: { triggerId: name, tenantId: 't1', conversationId: 'c1', ...spec },
  };
}

/** The Status body an ApiException carries. */
async function failure(promise: Promise<unknown>): Promise<{ code: number; body: any }> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof k8s.ApiException) return { code: error.code, body: typeof error.body === 'string' ? JSON.parse(error.body) : error.body };
    throw error;
  }
  throw new Error('expected the request to fail');
}

describe('test/support/kube-apiserver', () => {
  let server: KubeApiServer;
  let kc: k8s.KubeConfig;
  let custom: k8s.CustomObjectsApi;

  before(async () => {
    server = await startKubeApiServer();
    kc = new k8s.KubeConfig();
    kc.loadFromFile(server.kubeconfigPath);
    custom = kc.makeApiClient(k8s.CustomObjectsApi);
  });
  after(async () => server.close());

  async function createTrigger(name: string, status?: Record<string, unknown>) {
    await custom.createNamespacedCustomObject({ ...TRIGGERS, body: trigger(name) });
    if (status) await custom.patchNamespacedCustomObjectStatus({ ...TRIGGERS, name, body: { status } }, mergePatch);
  }

  describe('kubectl', () => {
    it('reports no resources before any trigger exists, after falling back to legacy discovery', async () => {
      const result = await kubectl(server, ['get', 'triggers', '--namespace', 'empty']);
      expect(result.stderr.trim()).to.equal('No resources found in empty namespace.');
      expect(result.code).to.equal(0);
      expect(server.requests.some((request) => request.url.startsWith('/apis/switchboard.dev/v1alpha1?'))).to.equal(true);
    });

    it('shows the printer columns of a trigger created through the API', async () => {
      const name = uniqueName('shown');
      const nextRunAt = new Date(Date.now() + 3 * HOUR_MS).toISOString();
      await createTrigger(name, { phase: 'waiting', attempts: '1/3', nextRunAt, waitingReason: 'tenant_busy' });
      const result = await kubectl(server, ['get', 'triggers']);
      const [header, ...rows] = result.stdout.trim().split('\n');
      expect(header.split(/\s{2,}/)).to.deep.equal(['NAME', 'TENANT', 'STATUS', 'ATTEMPTS', 'NEXT RUN', 'AGE']);
      const cells = rows.find((row) => row.startsWith(name))?.split(/\s+/);
      // Next Run is a string column: a future time shows as the time, not as <invalid>.
      expect(cells?.slice(0, 5)).to.deep.equal([name, 't1', 'waiting', '1/3', nextRunAt]);
      expect(cells?.[5]).to.match(/^\d+s$/);
    });

    it('adds the Waiting Reason column with -o wide and the short name', async () => {
      const name = uniqueName('wide');
      await createTrigger(name, { phase: 'waiting', attempts: '0/3', waitingReason: 'tenant_busy' });
      const result = await kubectl(server, ['get', 'trg', name, '-o', 'wide']);
      const [header, row] = result.stdout.trim().split('\n');
      expect(header.split(/\s{2,}/)).to.deep.equal(['NAME', 'TENANT', 'STATUS', 'ATTEMPTS', 'NEXT RUN', 'WAITING REASON', 'AGE']);
      expect(row.split(/\s{2,}/).slice(0, 4)).to.deep.equal([name, 't1', 'waiting', '0/3']);
      expect(row).to.contain('tenant_busy');
    });

    it('lists triggers and campaign runs through the switchboard category', async () => {
      const name = uniqueName('category');
      await createTrigger(name);
      await custom.createNamespacedCustomObject({
        ...TRIGGERS,
        plural: 'campaignruns',
        body: { apiVersion: `${GROUP}/${VERSION}`, kind: 'CampaignRun', metadata: { name }, spec: { runId: 'r1', tenantId: 't1', campaignId: 'cmp1' } },
      });
      const result = await kubectl(server, ['get', 'switchboard']);
      expect(result.stdout).to.contain(`trigger.switchboard.dev/${name}`);
      expect(result.stdout).to.contain(`campaignrun.switchboard.dev/${name}`);
      expect(result.stdout).to.match(/NAME\s+CAMPAIGN\s+STATUS\s+TOTAL\s+DONE\s+NO ANSWER\s+SKIPPED\s+AGE/);
    });

    it('annotates a trigger with a merge patch that the API then shows', async () => {
      const name = uniqueName('annotated');
      await createTrigger(name);
      const result = await kubectl(server, ['annotate', 'trigger', name, 'switchboard.dev/cancel=operator asked']);
      expect(result.stdout.trim()).to.equal(`trigger.switchboard.dev/${name} annotated`);
      const stored = await custom.getNamespacedCustomObject({ ...TRIGGERS, name });
      expect(stored.metadata.annotations).to.deep.equal({ 'switchboard.dev/cancel': 'operator asked' });
      const patch = server.requests.find((request) => request.method === 'PATCH' && request.url.includes(`/triggers/${name}?`));
      expect(patch?.headers['content-type']).to.equal('application/merge-patch+json');
    });

    it('creates a trigger from YAML, leaving field validation to the server', async () => {
      const name = uniqueName('created');
      const file = join(dirname(server.kubeconfigPath), `${name}.yaml`);
      writeFileSync(file, stringify({ ...trigger(name), spec: { ...trigger(name).spec, unknownField: 1 } }));
      const refused = await kubectl(server, ['create', '-f', file]);
      expect(refused.code).to.not.equal(0);
      expect(refused.stderr).to.contain('strict decoding error: unknown field "spec.unknownField"');
      writeFileSync(file, stringify(trigger(name)));
      const created = await kubectl(server, ['create', '-f', file]);
      expect(created.stdout.trim()).to.equal(`trigger.switchboard.dev/${name} created`);
      expect(server.objects.get('triggers', NAMESPACE, name)?.spec.triggerId).to.equal(name);
    });

    it('streams status changes to kubectl get -w', async () => {
      const name = uniqueName('watched');
      await createTrigger(name, { phase: 'queued', attempts: '0/3' });
      const watching = startKubectl(server, ['get', 'triggers', name, '--watch']);
      try {
        await watching.waitFor((out) => new RegExp(`^${name}\\s+t1\\s+queued`, 'm').test(out));
        await custom.patchNamespacedCustomObjectStatus({ ...TRIGGERS, name, body: { status: { phase: 'running', attempts: '1/3' } } }, mergePatch);
        await watching.waitFor((out) => new RegExp(`^${name}\\s+t1\\s+running\\s+1/3`, 'm').test(out));
      } finally {
        await watching.stop();
      }
    });
  });

  describe('custom resources through @kubernetes/client-node', () => {
    it('creates, gets and lists triggers by label', async () => {
      const name = uniqueName('crud');
      const created = await custom.createNamespacedCustomObject({ ...TRIGGERS, body: { ...trigger(name), metadata: { name, labels: { 'switchboard.dev/tenant': 'listed' } } } });
      expect(created.metadata).to.include({ name, namespace: NAMESPACE, generation: 1 });
      expect(created.metadata.uid).to.be.a('string');
      expect(Number(created.metadata.resourceVersion)).to.be.greaterThan(0);
      expect((await custom.getNamespacedCustomObject({ ...TRIGGERS, name })).spec.triggerId).to.equal(name);
      const listed = await custom.listNamespacedCustomObject({ ...TRIGGERS, labelSelector: 'switchboard.dev/tenant=listed' });
      expect(listed.items.map((item: any) => item.metadata.name)).to.deep.equal([name]);
      expect(Number(listed.metadata.resourceVersion)).to.be.at.least(Number(created.metadata.resourceVersion));
    });

    it('answers 409 AlreadyExists, 404 NotFound and 422 Invalid as Status objects', async () => {
      const name = uniqueName('errors');
      await createTrigger(name);
      const exists = await failure(custom.createNamespacedCustomObject({ ...TRIGGERS, body: trigger(name) }));
      expect(exists.code).to.equal(409);
      expect(exists.body).to.include({ kind: 'Status', reason: 'AlreadyExists', code: 409 });
      const missing = await failure(custom.getNamespacedCustomObject({ ...TRIGGERS, name: 'nope' }));
      expect(missing.body).to.include({ reason: 'NotFound', message: 'triggers.switchboard.dev "nope" not found' });
      const invalid = await failure(
        custom.createNamespacedCustomObject({ ...TRIGGERS, body: { ...trigger('Upper-Case'), spec: { tenantId: 't1', conversationId: 'c1' } } }),
      );
      expect(invalid.code).to.equal(422);
      expect(invalid.body.details.causes.map((cause: any) => cause.field)).to.have.members(['metadata.name', 'spec.triggerId']);
    });

    it('answers 409 Conflict to a replace with a stale resourceVersion', async () => {
      const name = uniqueName('stale');
      await createTrigger(name);
      const first = await custom.getNamespacedCustomObject({ ...TRIGGERS, name });
      await custom.replaceNamespacedCustomObject({ ...TRIGGERS, name, body: { ...first, spec: { ...first.spec, task: 'new task' } } });
      const stale = await failure(custom.replaceNamespacedCustomObject({ ...TRIGGERS, name, body: { ...first, spec: { ...first.spec, task: 'lost update' } } }));
      expect(stale.code).to.equal(409);
      expect(stale.body).to.include({ reason: 'Conflict' });
      expect(stale.body.message).to.contain('the object has been modified');
      expect((await custom.getNamespacedCustomObject({ ...TRIGGERS, name })).spec.task).to.equal('new task');
    });

    it('keeps status out of create and the main endpoint, and counts generation on spec changes only', async () => {
      const name = uniqueName('status');
      const created = await custom.createNamespacedCustomObject({ ...TRIGGERS, body: { ...trigger(name), status: { phase: 'running' } } });
      expect(created.status).to.equal(undefined);
      const withStatus = await custom.patchNamespacedCustomObjectStatus({ ...TRIGGERS, name, body: { status: { phase: 'queued' }, spec: { task: 'ignored' } } }, mergePatch);
      expect(withStatus.status).to.deep.equal({ phase: 'queued' });
      expect(withStatus.spec.task).to.equal(undefined);
      expect(withStatus.metadata.generation).to.equal(1);
      const specChanged = await custom.patchNamespacedCustomObject({ ...TRIGGERS, name, body: { spec: { task: 'changed' }, status: { phase: 'failed' } } }, mergePatch);
      expect(specChanged.metadata.generation).to.equal(2);
      expect(specChanged.status).to.deep.equal({ phase: 'queued' });
      const unchanged = await custom.patchNamespacedCustomObject({ ...TRIGGERS, name, body: { spec: { task: 'changed' } } }, mergePatch);
      expect(unchanged.metadata.resourceVersion).to.equal(specChanged.metadata.resourceVersion);
    });

    it('applies server-side: creates, merges beside other managers, drops fields no longer applied, and conflicts unless forced', async () => {
      const name = uniqueName('applied');
      const apply = (body: object, fieldManager = 'switchboard-mirror', force = true) =>
        custom.patchNamespacedCustomObject({ ...TRIGGERS, name, body, fieldManager, force }, applyPatch);
      const created = await apply({ ...trigger(name), spec: { ...trigger(name).spec, task: 'first', agentId: 'a1' } });
      expect(created.spec).to.include({ task: 'first', agentId: 'a1' });
      expect((await kubectl(server, ['annotate', 'trigger', name, 'switchboard.dev/cancel=stop'])).code).to.equal(0);

      const reapplied = await apply({ ...trigger(name), spec: { ...trigger(name).spec, task: 'second' } });
      expect(reapplied.spec.task).to.equal('second');
      expect(reapplied.spec.agentId).to.equal(undefined);
      expect(reapplied.metadata.annotations).to.deep.equal({ 'switchboard.dev/cancel': 'stop' });

      const conflict = await failure(apply({ ...trigger(name), spec: { ...trigger(name).spec, task: 'third' } }, 'someone-else', false));
      expect(conflict.code).to.equal(409);
      expect(conflict.body.message).to.equal('Apply failed with 1 conflict: conflict with "switchboard-mirror": .spec.task');

      const status = await custom.patchNamespacedCustomObjectStatus(
        { ...TRIGGERS, name, body: { apiVersion: `${GROUP}/${VERSION}`, kind: 'Trigger', metadata: { name }, status: { phase: 'waiting', waitingReason: 'tenant_busy' } }, fieldManager: 'switchboard-mirror', force: true },
        applyPatch,
      );
      expect(status.status).to.deep.equal({ phase: 'waiting', waitingReason: 'tenant_busy' });
      const statusReapplied = await custom.patchNamespacedCustomObjectStatus(
        { ...TRIGGERS, name, body: { apiVersion: `${GROUP}/${VERSION}`, kind: 'Trigger', metadata: { name }, status: { phase: 'running' } }, fieldManager: 'switchboard-mirror', force: true },
        applyPatch,
      );
      expect(statusReapplied.status).to.deep.equal({ phase: 'running' });
      expect(statusReapplied.spec.task).to.equal('second');
    });

    it('deletes a trigger and then answers 404 for it', async () => {
      const name = uniqueName('deleted');
      await createTrigger(name);
      const deleted = await custom.deleteNamespacedCustomObject({ ...TRIGGERS, name });
      expect(deleted.metadata.name).to.equal(name);
      expect((await failure(custom.getNamespacedCustomObject({ ...TRIGGERS, name }))).code).to.equal(404);
    });

    it('answers kubectl-style Table requests with Name, the printer columns, ages and PartialObjectMetadata rows', async () => {
      const name = uniqueName('table');
      const nextRunAt = new Date(Date.now() + HOUR_MS).toISOString();
      await createTrigger(name, { phase: 'queued', attempts: '0/3', nextRunAt });
      const response = await fetch(`${server.url}/apis/${GROUP}/${VERSION}/namespaces/${NAMESPACE}/triggers/${name}`, {
        headers: { Authorization: `Bearer ${server.token}`, Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json' },
      });
      const table = await response.json();
      expect(table).to.include({ kind: 'Table', apiVersion: 'meta.k8s.io/v1' });
      expect(table.columnDefinitions.map((column: any) => [column.name, column.type, column.priority])).to.deep.equal([
        ['Name', 'string', 0],
        ['Tenant', 'string', 0],
        ['Status', 'string', 0],
        ['Attempts', 'string', 0],
        ['Next Run', 'string', 0],
        ['Waiting Reason', 'string', 1],
        ['Age', 'date', 0],
      ]);
      const [row] = table.rows;
      expect(row.cells.slice(0, 6)).to.deep.equal([name, 't1', 'queued', '0/3', nextRunAt, null]);
      // Date columns render as ages, as the real server's HumanDuration does.
      expect(row.cells[6]).to.match(/^\d+s$/);
      expect(row.object).to.include({ kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1' });
      expect(row.object.metadata.name).to.equal(name);
    });

    it('refuses requests without the kubeconfig token', async () => {
      const response = await fetch(`${server.url}/apis/${GROUP}/${VERSION}/namespaces/${NAMESPACE}/triggers`);
      expect(response.status).to.equal(401);
      expect(await response.json()).to.include({ kind: 'Status', reason: 'Unauthorized' });
    });
  });

  describe('outages', () => {
    it('answers 503 while unavailable and serves again afterwards', async () => {
      server.setOutage('unavailable');
      try {
        expect((await failure(custom.listNamespacedCustomObject(TRIGGERS))).code).to.equal(503);
      } finally {
        server.setOutage(null);
      }
      expect((await custom.listNamespacedCustomObject(TRIGGERS)).kind).to.equal('TriggerList');
    });
  });

  describe('watch through @kubernetes/client-node', () => {
    it('streams changes after the requested resourceVersion, with bookmarks', async () => {
      const fast = await startKubeApiServer({ bookmarkIntervalMs: 50 });
      try {
        const fastKc = new k8s.KubeConfig();
        fastKc.loadFromFile(fast.kubeconfigPath);
        const api = fastKc.makeApiClient(k8s.CustomObjectsApi);
        const name = uniqueName('watch');
        const created = await api.createNamespacedCustomObject({ ...TRIGGERS, body: trigger(name) });
        await api.patchNamespacedCustomObjectStatus({ ...TRIGGERS, name, body: { status: { phase: 'running' } } }, mergePatch);

        const events: { type: string; object: any }[] = [];
        let controller: AbortController | undefined;
        const ended = new Promise<unknown>((resolve) => {
          void new k8s.Watch(fastKc)
            .watch(
              `/apis/${GROUP}/${VERSION}/namespaces/${NAMESPACE}/triggers`,
              { resourceVersion: created.metadata.resourceVersion, allowWatchBookmarks: true },
              (type, object) => {
                events.push({ type, object });
                if (type === 'BOOKMARK') controller?.abort();
              },
              resolve,
            )
            .then((abort) => (controller = abort));
        });
        await ended;
        expect(events[0].type).to.equal('MODIFIED');
        expect(events[0].object.status).to.deep.equal({ phase: 'running' });
        const bookmark = events.find((event) => event.type === 'BOOKMARK');
        expect(Number(bookmark?.object.metadata.resourceVersion)).to.be.at.least(Number(events[0].object.metadata.resourceVersion));
      } finally {
        await fast.close();
      }
    });

    it('turns changes into and out of a label selection into ADDED and DELETED events', async () => {
      const name = uniqueName('selected');
      const created = await custom.createNamespacedCustomObject({ ...TRIGGERS, body: trigger(name) });
      const relabel = (value: string | null) => custom.patchNamespacedCustomObject({ ...TRIGGERS, name, body: { metadata: { labels: { selected: value } } } }, mergePatch);
      await relabel('yes');
      await relabel('yes-still');
      await relabel('yes');
      await relabel(null);
      const events: { type: string; object: any }[] = [];
      let controller: AbortController | undefined;
      await new Promise((resolve) => {
        const query = { resourceVersion: created.metadata.resourceVersion, labelSelector: 'selected=yes' };
        void new k8s.Watch(kc)
          .watch(`/apis/${GROUP}/${VERSION}/namespaces/${NAMESPACE}/triggers`, query, (type, object) => {
            events.push({ type, object });
            if (events.length === 4) controller?.abort();
          }, resolve)
          .then((abort) => (controller = abort));
      });
      expect(events.map((event) => event.type)).to.deep.equal(['ADDED', 'DELETED', 'ADDED', 'DELETED']);
      expect(events[1].object.metadata.labels.selected).to.equal('yes');
    });

    it('answers a watch from a compacted resourceVersion with a 410 Expired ERROR event', async () => {
      const name = uniqueName('expired');
      const created = await custom.createNamespacedCustomObject({ ...TRIGGERS, body: trigger(name) });
      await custom.patchNamespacedCustomObject({ ...TRIGGERS, name, body: { spec: { task: 'x' } } }, mergePatch);
      server.compact();
      const events: { type: string; object: any }[] = [];
      await new Promise((resolve) => {
        void new k8s.Watch(kc).watch(`/apis/${GROUP}/${VERSION}/namespaces/${NAMESPACE}/triggers`, { resourceVersion: created.metadata.resourceVersion }, (type, object) => events.push({ type, object }), resolve);
      });
      expect(events).to.have.length(1);
      expect(events[0].type).to.equal('ERROR');
      expect(events[0].object).to.include({ kind: 'Status', code: 410, reason: 'Expired' });
    });

    it('ends the stream after timeoutSeconds', async () => {
      const { metadata } = await custom.listNamespacedCustomObject(TRIGGERS);
      const events: string[] = [];
      const result = await new Promise((resolve) => {
        const query = { resourceVersion: metadata.resourceVersion, timeoutSeconds: 1 };
        void new k8s.Watch(kc).watch(`/apis/${GROUP}/${VERSION}/namespaces/${NAMESPACE}/triggers`, query, (type) => events.push(type), resolve);
      });
      expect(result).to.equal(null);
      expect(events).to.deep.equal([]);
    });
  });

  describe('leases and events through @kubernetes/client-node', () => {
    it('stores Lease times as MicroTime and refuses other formats, as the real decoder does', async () => {
      const leases = kc.makeApiClient(k8s.CoordinationV1Api);
      const name = uniqueName('lease');
      const created = await leases.createNamespacedLease({
        namespace: NAMESPACE,
        body: { metadata: { name }, spec: { holderIdentity: 'replica-a', leaseDurationSeconds: 15, acquireTime: new k8s.V1MicroTime(), renewTime: new k8s.V1MicroTime() } },
      });
      const raw = server.objects.get('leases', NAMESPACE, name)!;
      expect(raw.spec.renewTime).to.match(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/);
      expect(created.spec?.holderIdentity).to.equal('replica-a');

      const plainDate = await failure(leases.replaceNamespacedLease({ name, namespace: NAMESPACE, body: { ...created, spec: { ...created.spec, renewTime: new Date() as k8s.V1MicroTime } } }));
      expect(plainDate.code).to.equal(400);
      expect(plainDate.body.message).to.contain('2006-01-02T15:04:05.000000Z07:00');

      const renewed = await leases.replaceNamespacedLease({ name, namespace: NAMESPACE, body: { ...created, spec: { ...created.spec, renewTime: new k8s.V1MicroTime() } } });
      expect(Number(renewed.metadata?.resourceVersion)).to.be.greaterThan(Number(created.metadata?.resourceVersion));
      const stale = await failure(leases.replaceNamespacedLease({ name, namespace: NAMESPACE, body: { ...created, spec: { ...created.spec, holderIdentity: 'replica-b' } } }));
      expect(stale.code).to.equal(409);
      expect(stale.body.reason).to.equal('Conflict');
    });

    it('creates core Events, lists them by involved object, and shows them through events.k8s.io', async () => {
      const core = kc.makeApiClient(k8s.CoreV1Api);
      const name = uniqueName('event');
      const involvedObject = { apiVersion: `${GROUP}/${VERSION}`, kind: 'Trigger', name: 'trg-x', namespace: NAMESPACE };
      await core.createNamespacedEvent({
        namespace: NAMESPACE,
        body: { metadata: { name }, involvedObject, reason: 'Parked', message: 'waiting for a human', type: 'Normal', eventTime: new k8s.V1MicroTime(), reportingComponent: 'switchboard', reportingInstance: 'replica-a', action: 'Park' },
      });
      const listed = await core.listNamespacedEvent({ namespace: NAMESPACE, fieldSelector: 'involvedObject.name=trg-x' });
      expect(listed.items.map((event) => event.metadata.name)).to.deep.equal([name]);
      const v1 = await kc.makeApiClient(k8s.EventsV1Api).readNamespacedEvent({ name, namespace: NAMESPACE });
      expect(v1).to.deep.include({ note: 'waiting for a human', reportingController: 'switchboard', regarding: involvedObject });

      const mismatch = await failure(core.createNamespacedEvent({ namespace: NAMESPACE, body: { metadata: { name: uniqueName('event') }, involvedObject: { ...involvedObject, namespace: 'other' }, reason: 'X' } }));
      expect(mismatch.code).to.equal(422);
      expect(mismatch.body.details.causes[0].field).to.equal('involvedObject.namespace');
    });
  });
});
