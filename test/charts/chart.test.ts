// charts/switchboard linted and rendered by the real helm, with default values and with every option
// on, checked the way an operator's review would, and dry-run applied to the real API server.
import { expect } from 'chai';
import { generateKeyPairSync } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import YAML from 'yaml';
import { configSchema, loadConfig } from '../../pkg/config.js';
import { createDb } from '../../pkg/db/index.js';
import { createMetrics, registerCampaignRunGauge, registerJobGauge } from '../../pkg/metrics/index.js';
import { CLUSTER_START_MS, testCluster } from '../support/kube/cluster.js';
import { CHART_DIR, helm, helmTemplate, type Rendered } from '../support/kube/helm.js';
import { kubectl, kubectlOk } from '../support/kube/kubectl.js';
import { ROOT } from '../support/root.js';
import { CHART_CRD_DIR, CRD_SOURCE_DIR, crdTemplates } from './manifests.js';

// Rendered YAML, read field by field.
type Json = Record<string, any>;

const ALL_OPTIONS = join(ROOT, 'test/charts/all-options.yaml');
const readYaml = (file: string): Json => YAML.parse(readFileSync(file, 'utf8'));
const TELNYX_ACCOUNT = '3f1c7a52-0b8e-4d2a-9c61-5e4f2a7d9b10';
const TELNYX_PUBLIC_KEY = Buffer.from(generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' }).x!, 'base64url').toString(
  'base64',
);
/** A Telnyx carrier with everything it needs, as --set-string values (a connection id is all digits). */
const TELNYX = [
  'publicUrl=https://voice.example.com',
  'carrier.name=telnyx',
  `carrier.telnyx.accountSid=${TELNYX_ACCOUNT}`,
  'carrier.telnyx.connectionId=2045187736512',
  `carrier.telnyx.publicKey=${TELNYX_PUBLIC_KEY}`,
  'carrier.telnyx.existingSecret=sb-telnyx',
];
const defaults = readYaml(join(CHART_DIR, 'values.yaml'));
const allOptions = readYaml(ALL_OPTIONS);
const crdSources = readdirSync(join(ROOT, CRD_SOURCE_DIR))
  .filter((f) => f.endsWith('.yaml'))
  .map((f) => readYaml(join(ROOT, CRD_SOURCE_DIR, f)));

/** What the controllers call on the Kubernetes API (pkg/kube, controllers/mirror.ts), and nothing more. */
const CONTROLLER_CALLS = [
  {
    groups: ['switchboard.dev'],
    resources: ['triggers', 'campaignruns'],
    verbs: ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'],
  },
  { groups: ['switchboard.dev'], resources: ['triggers/status', 'campaignruns/status'], verbs: ['get', 'update', 'patch'] },
  { groups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['get', 'create', 'update'] },
  { groups: [''], resources: ['events'], verbs: ['create', 'patch'] },
];
/** The metrics the dashboard must show (pkg/metrics). */
const DASHBOARD_METRICS = [
  'switchboard_http_requests_total',
  'switchboard_http_request_duration_seconds_bucket',
  'switchboard_api_requests_total',
  'switchboard_api_requests_over_limit_total',
  'switchboard_model_tokens_total',
  'switchboard_credits_consumed_total',
  'switchboard_triggers',
  'switchboard_trigger_transitions_total',
  'switchboard_queue_lag_seconds_bucket',
  'switchboard_reconcile_errors_total',
  'switchboard_webhook_deliveries_total',
  'switchboard_campaign_runs',
  'switchboard_campaign_contacts_total',
  'switchboard_campaign_results_total',
  'switchboard_campaign_list_request_duration_seconds_bucket',
  'switchboard_model_retries_total',
  'switchboard_model_slot_wait_seconds_bucket',
];
const SECRET_ENV = [
  'DATABASE_URL',
  'REDIS_URL',
  'SWITCHBOARD_ENCRYPTION_KEY',
  'OPENAI_API_KEY',
  'TWILIO_AUTH_TOKEN',
  'TELNYX_API_KEY',
  'SWITCHBOARD_OIDC_CLIENT_SECRET',
];

/** helm's coalescing of values files: maps merge, anything else replaces. */
function merge(base: Json, override: Json): Json {
  const out: Json = { ...base };
  for (const [k, v] of Object.entries(override)) {
    out[k] = v && typeof v === 'object' && !Array.isArray(v) && out[k] && typeof out[k] === 'object' ? merge(out[k], v) : v;
  }
  return out;
}

const find = (r: Rendered, kind: string, name: string): Json => {
  const found = r.objects.find((o) => o.kind === kind && o.metadata.name === name);
  if (!found) throw new Error(`no ${kind} ${name} rendered`);
  return found;
};
/** A Kubernetes memory quantity in Mi or Gi, in MiB. */
const mebibytes = (quantity: string): number => {
  const [, n, unit] = /^(\d+)(Mi|Gi)$/.exec(quantity)!;
  return Number(n) * (unit === 'Gi' ? 1024 : 1);
};
const ofKind = (r: Rendered, kind: string): Json[] => r.objects.filter((o) => o.kind === kind);
const selects = (selector: Record<string, string>, labels: Record<string, string> = {}) =>
  Object.keys(selector).length > 0 && Object.entries(selector).every(([k, v]) => labels[k] === v);
const podSpecs = (r: Rendered): [string, Json][] =>
  [...ofKind(r, 'Deployment'), ...ofKind(r, 'Job')].map((o) => [`${o.kind} ${o.metadata.name}`, o.spec.template.spec]);
const containersOf = (pod: Json): Json[] => [...(pod.initContainers ?? []), ...pod.containers];
const valueArgs = (c: Case) => ['--namespace', c.namespace, ...c.valueFiles.flatMap((file) => ['-f', file])];

/** The NOTES helm prints after an install, from a client-side dry run. */
async function notesOf(c: Case): Promise<string> {
  const result = await helm(['install', c.release, CHART_DIR, '--dry-run=client', '--output', 'json', ...valueArgs(c)]);
  expect(result.code, result.stderr).to.equal(0);
  return JSON.parse(result.stdout).info.notes;
}

interface Case {
  title: string;
  release: string;
  namespace: string;
  values: Json;
  valueFiles: string[];
  /** kind/name of every object expected, besides the CRDs. */
  expected: string[];
}

const CASES: Case[] = [
  {
    title: 'with default values',
    release: 'switchboard',
    namespace: 'switchboard',
    values: defaults,
    valueFiles: [],
    expected: [
      'ServiceAccount/switchboard',
      'ConfigMap/switchboard-config',
      'ConfigMap/switchboard-dashboard',
      'Role/switchboard',
      'RoleBinding/switchboard',
      'Service/switchboard-api',
      'Service/switchboard-api-metrics',
      'Service/switchboard-controllers',
      'Deployment/switchboard-api',
      'Deployment/switchboard-controllers',
      'Job/switchboard-migrate',
    ],
  },
  {
    title: 'with every option on (test/charts/all-options.yaml)',
    release: 'sb',
    namespace: 'agents',
    values: merge(defaults, allOptions),
    valueFiles: [ALL_OPTIONS],
    expected: [
      'ServiceAccount/switchboard-operator',
      'ConfigMap/sb-switchboard-config',
      'ConfigMap/sb-switchboard-dashboard',
      'Role/sb-switchboard',
      'RoleBinding/sb-switchboard',
      'Service/sb-switchboard-api',
      'Service/sb-switchboard-api-metrics',
      'Service/sb-switchboard-controllers',
      'Deployment/sb-switchboard-api',
      'Deployment/sb-switchboard-controllers',
      'Job/sb-switchboard-migrate',
      'HorizontalPodAutoscaler/sb-switchboard-api',
      'HorizontalPodAutoscaler/sb-switchboard-controllers',
      'PodDisruptionBudget/sb-switchboard-api',
      'PodDisruptionBudget/sb-switchboard-controllers',
      'NetworkPolicy/sb-switchboard-api',
      'NetworkPolicy/sb-switchboard-controllers',
      'ServiceMonitor/sb-switchboard',
    ],
  },
];

describe('charts/switchboard', function () {
  this.timeout(CLUSTER_START_MS);

  for (const c of CASES) {
    describe(`rendered ${c.title}`, () => {
      let r: Rendered;
      const fullname = c.release === 'switchboard' ? 'switchboard' : `${c.release}-switchboard`;
      const deployment = (component: string) => find(r, 'Deployment', `${fullname}-${component}`);
      const configMap = () => find(r, 'ConfigMap', `${fullname}-config`);

      before(async () => {
        r = await helmTemplate({ release: c.release, namespace: c.namespace, valueFiles: c.valueFiles });
      });

      it('passes helm lint --strict', async () => {
        const result = await helm(['lint', CHART_DIR, '--strict', ...valueArgs(c)]);
        expect(result.code, result.stdout + result.stderr).to.equal(0);
        expect(result.stdout).to.include('1 chart(s) linted, 0 chart(s) failed');
      });

      it('is accepted by the API server object by object (kubectl apply --dry-run=server)', async () => {
        const cluster = await testCluster();
        const namespaces = [...new Set(r.objects.flatMap((o) => (o.metadata.namespace ? [o.metadata.namespace] : [])))];
        const namespaceObjects = namespaces.map((name) => YAML.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } }));
        await kubectlOk(cluster.adminKubeconfig, ['apply', '-f', '-'], { input: namespaceObjects.join('---\n') });
        const result = await kubectl(cluster.adminKubeconfig, ['apply', '--server-side', '--dry-run=server', '-f', '-'], {
          input: r.manifest,
        });
        expect(result.code, result.stderr).to.equal(0);
        expect(result.stdout.trim().split('\n')).to.have.length(r.objects.length);
        for (const line of result.stdout.trim().split('\n')) expect(line).to.match(/ serverside-applied \(server dry run\)$/);
      });

      it('renders exactly the expected objects, each from a template helm would read', () => {
        const crds = crdSources.map((crd) => `CustomResourceDefinition/${crd.metadata.name}`);
        expect(r.objects.map((o) => `${o.kind}/${o.metadata.name}`)).to.have.members([...c.expected, ...crds]);
        for (const o of r.objects) {
          expect(o.apiVersion, `${o.kind} ${o.metadata.name}`).to.be.a('string').and.not.equal('');
          expect(o.source).to.match(/^switchboard\/templates\/[\w/.-]+\.yaml$/);
          expect(o.metadata.name).to.match(/^[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?$/);
        }
      });

      it('puts every object in the release namespace, but where Prometheus and Grafana look', () => {
        const elsewhere: Record<string, string> = {
          [`ServiceMonitor/${fullname}`]: c.values.metrics.serviceMonitor.namespace,
          [`ConfigMap/${fullname}-dashboard`]: c.values.grafanaDashboard.namespace,
        };
        for (const o of r.objects) {
          const id = `${o.kind}/${o.metadata.name}`;
          if (o.kind === 'CustomResourceDefinition') expect(o.metadata.namespace, id).to.equal(undefined);
          else expect(o.metadata.namespace, id).to.equal(elsewhere[id] || c.namespace);
        }
      });

      it('grants the controllers exactly the API calls they make, in the release namespace only', () => {
        expect(ofKind(r, 'ClusterRole')).to.deep.equal([]);
        expect(ofKind(r, 'ClusterRoleBinding')).to.deep.equal([]);
        const [role, ...otherRoles] = ofKind(r, 'Role');
        expect(otherRoles).to.deep.equal([]);
        const grants = (rules: Json[]) =>
          rules.flatMap((rule) => {
            expect(rule).to.have.all.keys('apiGroups', 'resources', 'verbs');
            return rule.apiGroups.flatMap((g: string) =>
              rule.resources.flatMap((res: string) => rule.verbs.map((v: string) => `${g}|${res}|${v}`)),
            );
          });
        const granted = grants(role!.rules);
        expect(granted.join(' ')).not.to.include('*');
        const expected = grants(CONTROLLER_CALLS.map((call) => ({ apiGroups: call.groups, resources: call.resources, verbs: call.verbs })));
        expect([...new Set(granted)]).to.have.members(expected);

        const [binding] = ofKind(r, 'RoleBinding');
        const controllers = deployment('controllers').spec.template.spec;
        expect(binding!.roleRef).to.deep.equal({ apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: role!.metadata.name });
        expect(binding!.subjects).to.deep.equal([{ kind: 'ServiceAccount', name: controllers.serviceAccountName, namespace: c.namespace }]);
        expect(find(r, 'ServiceAccount', controllers.serviceAccountName).automountServiceAccountToken).to.equal(false);
      });

      it('mounts a service account token only into the controllers, which call Kubernetes', () => {
        expect(deployment('controllers').spec.template.spec.automountServiceAccountToken).to.equal(true);
        expect(deployment('api').spec.template.spec.automountServiceAccountToken).to.equal(false);
        for (const job of ofKind(r, 'Job')) expect(job.spec.template.spec.automountServiceAccountToken).to.equal(false);
      });

      it('runs every container non-root, without privilege escalation or capabilities, on a read-only root filesystem', () => {
        for (const [what, pod] of podSpecs(r)) {
          expect(pod.securityContext, what).to.deep.include({ runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } });
          expect(pod.securityContext.runAsUser, what).to.be.above(0);
          expect(pod.enableServiceLinks, `${what}: no env variables from Services`).to.equal(false);
          const emptyDirs = pod.volumes.filter((v: Json) => v.emptyDir).map((v: Json) => v.name);
          for (const container of containersOf(pod)) {
            const sc = container.securityContext;
            expect(sc, `${what} ${container.name}`).to.deep.include({
              runAsNonRoot: true,
              allowPrivilegeEscalation: false,
              readOnlyRootFilesystem: true,
              seccompProfile: { type: 'RuntimeDefault' },
            });
            expect(sc.capabilities.drop, `${what} ${container.name}`).to.include('ALL');
            expect(sc.capabilities.add ?? []).to.deep.equal([]);
            const tmp = container.volumeMounts.find((m: Json) => m.mountPath === '/tmp');
            expect(emptyDirs, `${what} ${container.name}: /tmp on an emptyDir`).to.include(tmp?.name);
            expect(container.resources.requests, `${what} ${container.name}`).to.have.keys('cpu', 'memory');
            expect(container.resources.limits, `${what} ${container.name}`).to.have.key('memory');
          }
        }
      });

      it("sizes V8's heap of the api and the controllers from heapLimitMB and semiSpaceMB, together under their memory limit", () => {
        for (const component of ['api', 'controllers']) {
          const [container] = deployment(component).spec.template.spec.containers;
          const { heapLimitMB, semiSpaceMB } = c.values[component];
          expect(
            container.env.filter((e: Json) => e.name === 'NODE_OPTIONS'),
            component,
          ).to.deep.equal([{ name: 'NODE_OPTIONS', value: `--max-old-space-size=${heapLimitMB} --max-semi-space-size=${semiSpaceMB}` }]);
          // The young generation is two semi-spaces.
          expect(heapLimitMB + 2 * semiSpaceMB, component).to.be.below(mebibytes(container.resources.limits.memory));
        }
      });

      it('probes the api and the controllers: alive on /healthz, ready on /readyz (Postgres and schema)', () => {
        for (const component of ['api', 'controllers']) {
          const [container, ...others] = deployment(component).spec.template.spec.containers;
          expect(others).to.deep.equal([]);
          expect(container.args).to.deep.equal([component]);
          expect(container.ports).to.deep.equal([
            { name: 'http', containerPort: 8080, protocol: 'TCP' },
            { name: 'metrics', containerPort: c.values.metrics.port, protocol: 'TCP' },
          ]);
          expect(container.livenessProbe.httpGet).to.deep.equal({ path: '/healthz', port: 'http' });
          expect(container.readinessProbe.httpGet).to.deep.equal({ path: '/readyz', port: 'http' });
          expect(container.startupProbe.httpGet).to.deep.equal({ path: '/healthz', port: 'http' });
          // Long enough for a cold start: probing liveness during it would restart the pod forever.
          expect(container.startupProbe.periodSeconds * container.startupProbe.failureThreshold).to.be.at.least(30);
        }
        expect(configMap().data.PORT).to.equal('8080');
        expect(configMap().data.SWITCHBOARD_METRICS_PORT).to.equal(String(c.values.metrics.port));
      });

      it('runs the image of the values, with the product commands', () => {
        const image = `${c.values.image.repository}:${c.values.image.tag || readYaml(join(CHART_DIR, 'Chart.yaml')).appVersion}`;
        for (const [what, pod] of podSpecs(r)) {
          for (const container of pod.containers) {
            expect(container.image, what).to.equal(image);
            expect(container.imagePullPolicy, what).to.equal(c.values.image.pullPolicy);
            expect(['api', 'controllers', 'migrate']).to.include(container.args[0]);
          }
        }
      });

      it('takes DATABASE_URL, REDIS_URL, the encryption key, the model key, the carrier token and the OpenID client secret from the named Secrets only', () => {
        const twilio = c.values.carrier.name === 'twilio' ? c.values.carrier.twilio : { existingSecret: '' };
        const oidc = c.values.oidc.issuer ? c.values.oidc : { existingSecret: '' };
        const secretRefs = {
          DATABASE_URL: c.values.database,
          REDIS_URL: c.values.redis,
          SWITCHBOARD_ENCRYPTION_KEY: c.values.encryption,
          OPENAI_API_KEY: c.values.model,
          TWILIO_AUTH_TOKEN: twilio,
          SWITCHBOARD_OIDC_CLIENT_SECRET: oidc,
        };
        for (const component of ['api', 'controllers']) {
          const [container] = deployment(component).spec.template.spec.containers;
          const fromSecrets = Object.fromEntries(
            container.env.filter((e: Json) => e.valueFrom?.secretKeyRef).map((e: Json) => [e.name, e.valueFrom.secretKeyRef]),
          );
          const expected = Object.fromEntries(
            Object.entries(secretRefs)
              .filter(([, ref]) => ref.existingSecret)
              .map(([name, ref]) => [name, { name: ref.existingSecret, key: ref.secretKey }]),
          );
          expect(fromSecrets, component).to.deep.equal(expected);
          expect(container.envFrom).to.deep.equal([{ configMapRef: { name: `${fullname}-config` } }]);
        }
        for (const name of SECRET_ENV) expect(configMap().data).not.to.have.property(name);
      });

      it('writes the rest of the configuration to a ConfigMap the product accepts', () => {
        const data: Record<string, string> = configMap().data;
        for (const [k, v] of Object.entries(data)) {
          expect(Object.keys(configSchema.shape), k).to.include(k);
          expect(v, k).to.be.a('string');
        }
        // What the Secrets give, as the pods have it.
        const fromSecrets = {
          DATABASE_URL: 'postgres://db/switchboard',
          TWILIO_AUTH_TOKEN: 'from-the-secret',
          ...(c.values.oidc.issuer ? { SWITCHBOARD_OIDC_CLIENT_SECRET: 'from-the-secret' } : {}),
        };
        const config = loadConfig({ ...data, ...fromSecrets });
        expect(config.SWITCHBOARD_KUBE_NAMESPACE).to.equal(c.namespace);
        for (const [k, v] of Object.entries(c.values.config)) expect(config[k as keyof typeof config], k).to.equal(v);
        expect(config.OPENAI_BASE_URL).to.equal(c.values.model.baseUrl || undefined);
        expect(config.SWITCHBOARD_PUBLIC_URL).to.equal(c.values.publicUrl || undefined);
        expect(config.SWITCHBOARD_CARRIER).to.equal(c.values.carrier.name);
        expect(config.TWILIO_ACCOUNT_SID).to.equal(c.values.carrier.twilio.accountSid || undefined);
        expect(config.SWITCHBOARD_OIDC_ISSUER).to.equal(c.values.oidc.issuer || undefined);
        expect(config.SWITCHBOARD_OIDC_CLIENT_ID).to.equal(c.values.oidc.issuer ? c.values.oidc.clientId : undefined);
        expect(config.SWITCHBOARD_VOICES).to.deep.equal(c.values.voices.catalogue.length ? c.values.voices.catalogue : undefined);
        expect(config.SWITCHBOARD_DEFAULT_VOICE).to.equal(c.values.voices.default || undefined);
        expect(config.SWITCHBOARD_TRANSCRIPTION_PROVIDER).to.equal(c.values.voices.transcriptionProvider);
        const { currency, pricePerCredit, pricePerCallMinute } = c.values.billing;
        expect([config.SWITCHBOARD_CURRENCY, config.SWITCHBOARD_PRICE_PER_CREDIT, config.SWITCHBOARD_PRICE_PER_CALL_MINUTE]).to.deep.equal([
          currency,
          pricePerCredit,
          pricePerCallMinute,
        ]);
      });

      it('gives in-flight work its shutdown grace period before the pod is killed', () => {
        const grace = c.values.config.SWITCHBOARD_SHUTDOWN_GRACE_SEC ?? configSchema.shape.SWITCHBOARD_SHUTDOWN_GRACE_SEC.parse(undefined);
        const api = deployment('api').spec.template.spec;
        const controllers = deployment('controllers').spec.template.spec;
        expect(api.containers[0].lifecycle.preStop.exec.command).to.deep.equal(['sleep', String(c.values.api.preStopSleepSeconds)]);
        expect(api.terminationGracePeriodSeconds).to.be.above(grace + c.values.api.preStopSleepSeconds);
        expect(controllers.terminationGracePeriodSeconds).to.be.above(grace);
      });

      it('runs `switchboard migrate` in a pre-install/pre-upgrade hook Job that needs nothing the release creates', () => {
        const job = find(r, 'Job', `${fullname}-migrate`);
        expect(job.metadata.annotations).to.deep.equal({
          'helm.sh/hook': 'pre-install,pre-upgrade',
          'helm.sh/hook-weight': '-5',
          'helm.sh/hook-delete-policy': 'before-hook-creation,hook-succeeded',
        });
        const pod = job.spec.template.spec;
        expect(pod.restartPolicy).to.equal('Never');
        expect(job.spec.backoffLimit).to.equal(c.values.migrations.backoffLimit);
        expect(job.spec.activeDeadlineSeconds).to.equal(c.values.migrations.activeDeadlineSeconds);
        expect(pod.containers.map((x: Json) => x.args)).to.deep.equal([['migrate']]);
        expect(pod.containers[0].env[0]).to.deep.equal({
          name: 'DATABASE_URL',
          valueFrom: { secretKeyRef: { name: c.values.database.existingSecret, key: c.values.database.secretKey } },
        });
        expect(pod.serviceAccountName).to.equal(undefined);
        const created = (kind: string) => ofKind(r, kind).map((o) => o.metadata.name);
        const configMaps = [
          ...pod.volumes.map((v: Json) => v.configMap?.name),
          ...pod.containers.flatMap((x: Json) => [
            ...(x.envFrom ?? []).map((e: Json) => e.configMapRef?.name),
            ...x.env.map((e: Json) => e.valueFrom?.configMapKeyRef?.name),
          ]),
        ].filter(Boolean);
        expect(configMaps).to.not.include.any.members(created('ConfigMap'));
      });

      it('wires Services, autoscalers, disruption budgets, network policies and the ServiceMonitor to the right pods', () => {
        const podLabels = (component: string) => deployment(component).spec.template.metadata.labels;
        for (const component of ['api', 'controllers']) {
          const d = deployment(component);
          expect(d.spec.selector.matchLabels).to.deep.equal({
            'app.kubernetes.io/name': 'switchboard',
            'app.kubernetes.io/instance': c.release,
            'app.kubernetes.io/component': component,
          });
          expect(selects(d.spec.selector.matchLabels, podLabels(component))).to.equal(true);
          const service = find(r, 'Service', `${fullname}-${component}`);
          expect(selects(service.spec.selector, podLabels(component)), `Service ${component}`).to.equal(true);
          // /metrics names every account and key: only a Service of its own, never the public one, reaches its port.
          const metrics = find(r, 'Service', component === 'api' ? `${fullname}-api-metrics` : `${fullname}-controllers`);
          expect(selects(metrics.spec.selector, podLabels(component)), `metrics Service ${component}`).to.equal(true);
          expect(metrics.spec.type).to.equal('ClusterIP');
          expect(metrics.spec.ports).to.deep.equal([
            { name: 'metrics', port: c.values[component].service.metricsPort, targetPort: 'metrics', protocol: 'TCP' },
          ]);
          if (component === 'api') {
            expect(service.spec.ports).to.deep.equal([
              { name: 'http', port: c.values.api.service.port, targetPort: 'http', protocol: 'TCP' },
            ]);
          }

          const autoscaling = c.values[component].autoscaling;
          if (autoscaling.enabled) {
            const hpa = find(r, 'HorizontalPodAutoscaler', `${fullname}-${component}`);
            expect(hpa.spec.scaleTargetRef).to.deep.equal({ apiVersion: 'apps/v1', kind: 'Deployment', name: d.metadata.name });
            expect(hpa.spec).to.include({ minReplicas: autoscaling.minReplicas, maxReplicas: autoscaling.maxReplicas });
            expect(d.spec).not.to.have.property('replicas');
          } else {
            expect(d.spec.replicas).to.equal(c.values[component].replicas);
          }
          if (c.values[component].podDisruptionBudget.enabled) {
            const pdb = find(r, 'PodDisruptionBudget', `${fullname}-${component}`);
            expect(selects(pdb.spec.selector.matchLabels, podLabels(component))).to.equal(true);
          }
          if (c.values.networkPolicy.enabled) {
            const policy = find(r, 'NetworkPolicy', `${fullname}-${component}`);
            expect(selects(policy.spec.podSelector.matchLabels, podLabels(component))).to.equal(true);
            const opened = policy.spec.ingress.map((rule: Json) => ({ ports: rule.ports.map((p: Json) => p.port), from: rule.from }));
            const metricsFrom = c.values.networkPolicy.metricsFrom.length ? c.values.networkPolicy.metricsFrom : undefined;
            const apiFrom = c.values.networkPolicy.apiIngressFrom.length ? c.values.networkPolicy.apiIngressFrom : undefined;
            expect(opened).to.deep.equal(
              component === 'api'
                ? [
                    { ports: ['http'], from: apiFrom },
                    { ports: ['metrics'], from: metricsFrom },
                  ]
                : [
                    { ports: ['metrics'], from: metricsFrom },
                    { ports: ['http'], from: undefined },
                  ],
            );
          }
        }
        for (const monitor of ofKind(r, 'ServiceMonitor')) {
          const scraped = ofKind(r, 'Service').filter((s) => selects(monitor.spec.selector.matchLabels, s.metadata.labels));
          expect(scraped.map((s) => s.metadata.name)).to.have.members([`${fullname}-api-metrics`, `${fullname}-controllers`]);
          expect(monitor.spec.endpoints).to.deep.include({
            port: 'metrics',
            path: '/metrics',
            interval: c.values.metrics.serviceMonitor.interval,
            scrapeTimeout: c.values.metrics.serviceMonitor.scrapeTimeout,
          });
          expect(monitor.spec.namespaceSelector).to.deep.equal({ matchNames: [c.namespace] });
        }
      });

      it('carries the CRDs exactly as crds/ defines them, kept on uninstall', () => {
        for (const source of crdSources) {
          const crd = find(r, 'CustomResourceDefinition', source.metadata.name);
          const { annotations, ...metadata } = crd.metadata;
          expect({ ...crd, metadata, source: undefined }).to.deep.equal({ ...source, source: undefined });
          expect(annotations).to.deep.equal({ 'helm.sh/resource-policy': 'keep' });
        }
      });

      it('ships a Grafana dashboard for usage metering and job health, on metrics the product exports', async () => {
        const dashboards = ofKind(r, 'ConfigMap').filter((cm) => cm.metadata.labels?.grafana_dashboard === '1');
        expect(dashboards).to.have.length(1);
        const [file, ...more] = Object.keys(dashboards[0]!.data);
        expect(more).to.deep.equal([]);
        expect(file).to.match(/\.json$/);
        const dashboard = JSON.parse(dashboards[0]!.data[file!]);
        const panels: Json[] = dashboard.panels.filter((p: Json) => p.type !== 'row');
        const exprs: string[] = panels.flatMap((p) => p.targets.map((t: Json) => t.expr));
        for (const metric of DASHBOARD_METRICS) {
          expect(
            exprs.some((e) => new RegExp(`\\b${metric}\\b`).test(e)),
            metric,
          ).to.equal(true);
        }
        for (const p of panels) {
          expect(p.targets.length, p.title).to.be.above(0);
          expect(p.datasource).to.deep.equal({ type: 'prometheus', uid: '${datasource}' });
        }
        expect(new Set(dashboard.panels.map((p: Json) => p.id)).size).to.equal(dashboard.panels.length);

        // The registry as a process builds it; the gauge reads Postgres only when scraped, which this is not.
        const metrics = createMetrics();
        const db = createDb('postgres://never-connected/switchboard', 2);
        registerJobGauge(metrics, db);
        registerCampaignRunGauge(metrics, db);
        await db.destroy();
        for (const name of new Set(exprs.flatMap((e) => e.match(/\bswitchboard_\w+/g) ?? []))) {
          expect(metrics.registry.getSingleMetric(name.replace(/_(bucket|sum|count)$/, '')), `the dashboard queries ${name}`).to.not.equal(
            undefined,
          );
        }
      });

      it('prints NOTES that say how to reach the API and watch the jobs', async () => {
        const notes = await notesOf(c);
        expect(notes).to.include(`port-forward svc/${fullname}-api`);
        expect(notes).to.include(`kubectl -n ${c.namespace} get triggers`);
      });
    });
  }

  describe('values.schema.json, as helm applies it', () => {
    const schema = readYaml(join(CHART_DIR, 'values.schema.json'));
    // What helm says of each: the value's path, or for a key a pattern refuses, the key.
    const bad: [string, Json, string][] = [
      ['a replica count that is not a number', { api: { replicas: 'two' } }, "at '/api/replicas': got string, want integer"],
      [
        'a log level the product does not know',
        { config: { SWITCHBOARD_LOG_LEVEL: 'loud' } },
        "at '/config/SWITCHBOARD_LOG_LEVEL': value must be one of",
      ],
      [
        'the encryption key in the ConfigMap',
        { config: { SWITCHBOARD_ENCRYPTION_KEY: 'c2VjcmV0' } },
        "invalid propertyName 'SWITCHBOARD_ENCRYPTION_KEY'",
      ],
      [
        "a variable that is not Switchboard's",
        { config: { NODE_OPTIONS: '--inspect' } },
        "'NODE_OPTIONS' does not match pattern '^SWITCHBOARD_[A-Z0-9_]+$'",
      ],
      ['no database Secret', { database: { existingSecret: '' } }, "at '/database/existingSecret': minLength: got 0, want 1"],
      ['a misspelt top-level key', { replica: 3 }, "at '': additional properties 'replica' not allowed"],
      [
        'an OpenID issuer that is not https',
        { oidc: { issuer: 'http://sso.example.com' } },
        "at '/oidc/issuer': 'http://sso.example.com' does not match pattern",
      ],
      [
        'the OpenID client secret in the ConfigMap',
        { config: { SWITCHBOARD_OIDC_CLIENT_SECRET: 'c2VjcmV0' } },
        "invalid propertyName 'SWITCHBOARD_OIDC_CLIENT_SECRET'",
      ],
      [
        'the metrics port in config rather than metrics.port',
        { config: { SWITCHBOARD_METRICS_PORT: 9100 } },
        "invalid propertyName 'SWITCHBOARD_METRICS_PORT'",
      ],
      [
        'an unknown pull policy',
        { image: { pullPolicy: 'Sometimes' } },
        "at '/image/pullPolicy': value must be one of 'Always', 'IfNotPresent', 'Never'",
      ],
    ];
    for (const [what, override, message] of bad) {
      it(`refuses ${what}`, async () => {
        const refused = await helmTemplate({ values: override }).then(
          () => undefined,
          (err: Error) => err.message,
        );
        expect(refused).to.include("values don't meet the specifications of the schema(s)");
        expect(refused).to.include(message);
      });
    }

    it('types only variables the product reads', () => {
      for (const name of Object.keys(schema.properties.config.properties)) expect(Object.keys(configSchema.shape)).to.include(name);
    });
  });

  describe('CRDs', () => {
    it(`match ${CRD_SOURCE_DIR}/*.yaml (run \`make manifests\` after changing a CRD)`, () => {
      const onDisk = readdirSync(join(ROOT, CHART_CRD_DIR)).sort();
      const expected = crdTemplates(ROOT);
      expect(onDisk).to.deep.equal([...expected.keys()]);
      for (const [file, text] of expected) expect(readFileSync(join(ROOT, CHART_CRD_DIR, file), 'utf8'), file).to.equal(text);
    });

    it('are left out with crds.enabled=false, and not kept on uninstall with crds.keep=false', async () => {
      const off = await helmTemplate({ values: { crds: { enabled: false } } });
      expect(ofKind(off, 'CustomResourceDefinition')).to.deep.equal([]);
      const notKept = await helmTemplate({ values: { crds: { keep: false } } });
      for (const source of crdSources) {
        const crd = find(notKept, 'CustomResourceDefinition', source.metadata.name);
        expect(crd.metadata.annotations).to.equal(undefined);
      }
    });
  });

  it('refuses to render without a database Secret, naming the value, also with the schema skipped', async () => {
    const result = await helm(['template', 'switchboard', CHART_DIR, '--skip-schema-validation', '--set', 'database.existingSecret=']);
    expect(result.code).to.not.equal(0);
    expect(result.stderr).to.include('database.existingSecret');
  });

  it('renders a Telnyx carrier: its account, application and public key in the ConfigMap, its API key from the Secret, as the product accepts', async () => {
    const carrier = {
      name: 'telnyx',
      telnyx: { accountSid: TELNYX_ACCOUNT, connectionId: '2045187736512', publicKey: TELNYX_PUBLIC_KEY, existingSecret: 'sb-telnyx' },
    };
    const { objects } = await helmTemplate({ values: { publicUrl: 'https://voice.example.com', carrier } });
    const config = (objects.find((o) => o.kind === 'ConfigMap' && o.metadata.name === 'switchboard-config') as Json).data;
    expect(config).to.include({
      SWITCHBOARD_CARRIER: 'telnyx',
      TELNYX_ACCOUNT_SID: TELNYX_ACCOUNT,
      TELNYX_CONNECTION_ID: '2045187736512',
      TELNYX_PUBLIC_KEY: TELNYX_PUBLIC_KEY,
    });
    expect(config).to.not.have.property('TELNYX_API_KEY');
    const api = objects.find((o) => o.kind === 'Deployment' && o.metadata.name === 'switchboard-api') as Json;
    expect(api.spec.template.spec.containers[0].env.find((e: Json) => e.name === 'TELNYX_API_KEY').valueFrom.secretKeyRef).to.deep.equal({
      name: 'sb-telnyx',
      key: 'TELNYX_API_KEY',
    });
    expect(
      loadConfig({ ...config, DATABASE_URL: 'postgres://db/switchboard', TELNYX_API_KEY: 'from-the-secret' }).SWITCHBOARD_CARRIER,
    ).to.equal('telnyx');
  });

  it('refuses to render a Twilio or Telnyx carrier or single sign-on without what each needs, naming the value', async () => {
    for (const [set, named] of [
      [['carrier.name=twilio', 'carrier.twilio.existingSecret=sb-twilio'], 'carrier.twilio.accountSid'],
      [['carrier.name=twilio', 'carrier.twilio.accountSid=AC0123456789abcdef0123456789abcdef'], 'carrier.twilio.existingSecret'],
      [[...TELNYX.filter((v) => !v.startsWith('carrier.telnyx.publicKey='))], 'carrier.telnyx.publicKey'],
      [[...TELNYX.filter((v) => !v.startsWith('carrier.telnyx.existingSecret='))], 'carrier.telnyx.existingSecret'],
      [['oidc.issuer=https://sso.example.com', 'oidc.existingSecret=sb-oidc'], 'oidc.clientId'],
      [['oidc.issuer=https://sso.example.com', 'oidc.clientId=switchboard'], 'oidc.existingSecret'],
    ] as const) {
      const result = await helm(['template', 'switchboard', CHART_DIR, ...set.flatMap((s) => ['--set-string', s])]);
      expect(result.code, named).to.not.equal(0);
      expect(result.stderr).to.include(named);
    }
  });

  it('refuses a young generation that leaves the old one no room to take it in, naming the value', async () => {
    for (const component of ['api', 'controllers']) {
      const result = await helm([
        'template',
        'switchboard',
        CHART_DIR,
        '--set',
        `${component}.semiSpaceMB=128`,
        '--set',
        `${component}.heapLimitMB=256`,
      ]);
      expect(result.code, component).to.not.equal(0);
      expect(result.stderr).to.include(`${component}.semiSpaceMB (128) must be at most a quarter of ${component}.heapLimitMB (256)`);
    }
    // A quarter, as the defaults are, renders.
    const quarter = await helm([
      'template',
      'switchboard',
      CHART_DIR,
      '--set',
      'controllers.semiSpaceMB=128',
      '--set',
      'controllers.heapLimitMB=512',
    ]);
    expect(quarter.code, quarter.stderr).to.equal(0);
  });

  it('deploys by default the image `make image` builds', () => {
    const chart = readYaml(join(CHART_DIR, 'Chart.yaml'));
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    expect(defaults.image).to.include({ repository: 'switchboard', tag: '' });
    expect(chart.appVersion).to.equal(pkg.version);
  });

  it('documents every value in the chart README', () => {
    const readme = readFileSync(join(CHART_DIR, 'README.md'), 'utf8');
    const documented = [...readme.matchAll(/^\| `([\w.]+)` \|/gm)].map((m) => m[1]!);
    const leaves = (o: Json, prefix = ''): string[] =>
      Object.entries(o).flatMap(([k, v]) =>
        v && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length > 0 ? leaves(v, `${prefix}${k}.`) : [`${prefix}${k}`],
      );
    for (const leaf of leaves(defaults)) {
      expect(
        documented.some((d) => leaf === d || leaf.startsWith(`${d}.`)),
        `${leaf} in charts/switchboard/README.md`,
      ).to.equal(true);
    }
    const paths = new Set(leaves(defaults).flatMap((leaf) => leaf.split('.').map((_, i, parts) => parts.slice(0, i + 1).join('.'))));
    for (const d of documented) expect(paths, `README documents ${d}, which values.yaml lacks`).to.include(d);
  });
});
