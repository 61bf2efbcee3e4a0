// crds/ as the real kube-apiserver serves them and the real kubectl shows them.
import * as k8s from '@kubernetes/client-node';
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import YAML from 'yaml';
import { CLUSTER_START_MS, testCluster, type TestCluster } from '../support/kube/cluster.js';
import { kubectl } from '../support/kube/kubectl.js';
import { createNamespace } from '../support/kube/namespace.js';
import { ROOT } from '../support/root.js';

const GROUP = 'switchboard.dev';
const VERSION = 'v1alpha1';
const applyPatch = k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.ServerSideApply);
const mergePatch = k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch);
const HOUR_MS = 3_600_000;

let counter = 0;
const uniqueName = (prefix: string) => `${prefix}-${counter++}`;

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
    if (error instanceof k8s.ApiException)
      return { code: error.code, body: typeof error.body === 'string' ? JSON.parse(error.body) : error.body };
    throw error;
  }
  throw new Error('expected the request to fail');
}

describe('crds/ on the real API server', () => {
  let cluster: TestCluster;
  let namespace: string;
  let custom: k8s.CustomObjectsApi;
  const triggers = () => ({ group: GROUP, version: VERSION, namespace, plural: 'triggers' });
  const run = (args: string[], input?: string) => kubectl(cluster.adminKubeconfig, [...args, '--namespace', namespace], { input });

  before(async function () {
    this.timeout(CLUSTER_START_MS);
    cluster = await testCluster();
    namespace = await createNamespace(cluster);
    const kc = new k8s.KubeConfig();
    kc.loadFromFile(cluster.adminKubeconfig);
    custom = kc.makeApiClient(k8s.CustomObjectsApi);
  });

  async function createTrigger(name: string, status?: Record<string, unknown>) {
    await custom.createNamespacedCustomObject({ ...triggers(), body: trigger(name) });
    if (status) await custom.patchNamespacedCustomObjectStatus({ ...triggers(), name, body: { status } }, mergePatch);
  }

  describe('kubectl get', () => {
    it('shows the printer columns of a trigger, the next run as the time it is', async () => {
      const name = uniqueName('shown');
      const nextRunAt = new Date(Date.now() + 3 * HOUR_MS).toISOString();
      await createTrigger(name, { phase: 'waiting', attempts: '1/3', nextRunAt, waitingReason: 'tenant_busy' });
      const result = await run(['get', 'triggers']);
      const [header, ...rows] = result.stdout.trim().split('\n');
      expect(header!.split(/\s{2,}/)).to.deep.equal(['NAME', 'TENANT', 'STATUS', 'ATTEMPTS', 'NEXT RUN', 'AGE']);
      const cells = rows.find((row) => row.startsWith(name))?.split(/\s+/);
      // Next Run is a string column: a future time shows as the time, not as <invalid>.
      expect(cells?.slice(0, 5)).to.deep.equal([name, 't1', 'waiting', '1/3', nextRunAt]);
      expect(cells?.[5]).to.match(/^\d+s$/);
    });

    it('adds the Waiting Reason column with -o wide, and knows the short name trg', async () => {
      const name = uniqueName('wide');
      await createTrigger(name, { phase: 'waiting', attempts: '0/3', waitingReason: 'tenant_busy' });
      const result = await run(['get', 'trg', name, '-o', 'wide']);
      const [header, row] = result.stdout.trim().split('\n');
      expect(header!.split(/\s{2,}/)).to.deep.equal(['NAME', 'TENANT', 'STATUS', 'ATTEMPTS', 'NEXT RUN', 'WAITING REASON', 'AGE']);
      expect(row!.split(/\s{2,}/).slice(0, 4)).to.deep.equal([name, 't1', 'waiting', '0/3']);
      expect(row).to.contain('tenant_busy');
    });

    it('shows campaign runs with their counts, and both kinds through the switchboard category', async () => {
      const name = uniqueName('category');
      await createTrigger(name);
      await custom.createNamespacedCustomObject({
        ...triggers(),
        plural: 'campaignruns',
        body: {
          apiVersion: `${GROUP}/${VERSION}`,
          kind: 'CampaignRun',
          metadata: { name },
          spec: { runId: 'r1', tenantId: 't1', campaignId: 'cmp1' },
        },
      });
      await custom.patchNamespacedCustomObjectStatus(
        {
          ...triggers(),
          plural: 'campaignruns',
          name,
          body: { status: { phase: 'running', total: 40, done: 12, noAnswer: 3, skipped: 1 } },
        },
        mergePatch,
      );
      const runs = (await run(['get', 'campaignruns'])).stdout.trim().split('\n');
      expect(runs[0]!.split(/\s{2,}/)).to.deep.equal(['NAME', 'CAMPAIGN', 'STATUS', 'TOTAL', 'DONE', 'NO ANSWER', 'SKIPPED', 'AGE']);
      expect(runs[1]!.split(/\s+/).slice(0, 7)).to.deep.equal([name, 'cmp1', 'running', '40', '12', '3', '1']);
      const all = (await run(['get', 'switchboard'])).stdout;
      expect(all).to.contain(`trigger.switchboard.dev/${name}`);
      expect(all).to.contain(`campaignrun.switchboard.dev/${name}`);
    });
  });

  describe('validation', () => {
    it("refuses an unknown field with the server's strict decoding error", async () => {
      const name = uniqueName('unknown');
      const refused = await run(
        ['create', '-f', '-'],
        YAML.stringify({ ...trigger(name), spec: { ...trigger(name).spec, unknownField: 1 } }),
      );
      expect(refused.code).to.not.equal(0);
      expect(refused.stderr).to.contain('strict decoding error: unknown field "spec.unknownField"');
      const created = await run(['create', '-f', '-'], YAML.stringify(trigger(name)));
      expect(created.stdout.trim()).to.equal(`trigger.switchboard.dev/${name} created`);
    });

    it('answers 422 Invalid naming each bad field, 409 AlreadyExists and 404 NotFound', async () => {
      const name = uniqueName('errors');
      await createTrigger(name);
      const exists = await failure(custom.createNamespacedCustomObject({ ...triggers(), body: trigger(name) }));
      expect(exists.body).to.include({ kind: 'Status', reason: 'AlreadyExists', code: 409 });
      const missing = await failure(custom.getNamespacedCustomObject({ ...triggers(), name: 'nope' }));
      expect(missing.body).to.include({ reason: 'NotFound', message: 'triggers.switchboard.dev "nope" not found' });
      const invalid = await failure(
        custom.createNamespacedCustomObject({
          ...triggers(),
          body: { ...trigger('Upper-Case'), spec: { tenantId: 't1', conversationId: 'c1' } },
        }),
      );
      expect(invalid.code).to.equal(422);
      expect(invalid.body.details.causes.map((cause: any) => cause.field)).to.include.members(['metadata.name', 'spec.triggerId']);
    });

    it('refuses a CRD made invalid: a schema type Kubernetes does not have', async () => {
      const crd = YAML.parse(readFileSync(join(ROOT, 'crds/triggers.switchboard.dev.yaml'), 'utf8'));
      crd.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.task.type = 'text';
      const refused = await kubectl(cluster.adminKubeconfig, ['apply', '--server-side', '--dry-run=server', '-f', '-'], {
        input: YAML.stringify(crd),
      });
      expect(refused.code).to.not.equal(0);
      expect(refused.stderr).to.contain('The CustomResourceDefinition "triggers.switchboard.dev" is invalid');
      expect(refused.stderr).to.contain(
        'spec.validation.openAPIV3Schema.properties[spec].properties[task].type: Unsupported value: "text"',
      );
    });
  });

  describe('the status subresource', () => {
    it('keeps status out of create and the main endpoint, and counts generation on spec changes only', async () => {
      const name = uniqueName('status');
      const created = await custom.createNamespacedCustomObject({
        ...triggers(),
        body: { ...trigger(name), status: { phase: 'running' } },
      });
      expect(created.status).to.equal(undefined);
      const withStatus = await custom.patchNamespacedCustomObjectStatus(
        { ...triggers(), name, body: { status: { phase: 'queued' }, spec: { task: 'ignored' } } },
        mergePatch,
      );
      expect(withStatus.status).to.deep.equal({ phase: 'queued' });
      expect(withStatus.spec.task).to.equal(undefined);
      expect(withStatus.metadata.generation).to.equal(1);
      const specChanged = await custom.patchNamespacedCustomObject(
        { ...triggers(), name, body: { spec: { task: 'changed' }, status: { phase: 'failed' } } },
        mergePatch,
      );
      expect(specChanged.metadata.generation).to.equal(2);
      expect(specChanged.status).to.deep.equal({ phase: 'queued' });
    });
  });

  describe('server-side apply', () => {
    it("creates, keeps other managers' fields, drops fields no longer applied, and reports a conflict unless forced", async () => {
      const name = uniqueName('applied');
      const apply = (body: object, fieldManager = 'switchboard-mirror', force = true) =>
        custom.patchNamespacedCustomObject({ ...triggers(), name, body, fieldManager, force }, applyPatch);
      const created = await apply({ ...trigger(name), spec: { ...trigger(name).spec, task: 'first', agentId: 'a1' } });
      expect(created.spec).to.include({ task: 'first', agentId: 'a1' });
      expect((await run(['annotate', 'trigger', name, 'switchboard.dev/cancel=stop'])).code).to.equal(0);

      const reapplied = await apply({ ...trigger(name), spec: { ...trigger(name).spec, task: 'second' } });
      expect(reapplied.spec.task).to.equal('second');
      expect(reapplied.spec.agentId).to.equal(undefined);
      expect(reapplied.metadata.annotations).to.deep.equal({ 'switchboard.dev/cancel': 'stop' });

      const conflict = await failure(apply({ ...trigger(name), spec: { ...trigger(name).spec, task: 'third' } }, 'someone-else', false));
      expect(conflict.code).to.equal(409);
      expect(conflict.body).to.include({
        reason: 'Conflict',
        message: 'Apply failed with 1 conflict: conflict with "switchboard-mirror": .spec.task',
      });

      const applyStatus = (status: object) =>
        custom.patchNamespacedCustomObjectStatus(
          {
            ...triggers(),
            name,
            body: { apiVersion: `${GROUP}/${VERSION}`, kind: 'Trigger', metadata: { name }, status },
            fieldManager: 'switchboard-mirror',
            force: true,
          },
          applyPatch,
        );
      expect((await applyStatus({ phase: 'waiting', waitingReason: 'tenant_busy' })).status).to.deep.equal({
        phase: 'waiting',
        waitingReason: 'tenant_busy',
      });
      const statusReapplied = await applyStatus({ phase: 'running' });
      expect(statusReapplied.status).to.deep.equal({ phase: 'running' });
      expect(statusReapplied.spec.task).to.equal('second');
    });
  });
});
