// The Kubernetes connection: a kubeconfig (KUBECONFIG) or the in-cluster service account.
// With neither, there is no cluster and the CR mirror is off.
import { existsSync, readFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { Config } from '../config.js';
import { flatten } from '../outbound/client.js';
import {
  ApiException,
  CoordinationV1Api,
  CoreV1Api,
  CustomObjectsApi,
  KubeConfig,
  Observable,
  ResponseContext,
  ServerConfiguration,
  createConfiguration,
  wrapHttpLibrary,
  type ConfigurationOptions,
  type HttpLibrary,
  type ObservableMiddleware,
  type RequestContext,
} from '@kubernetes/client-node';

export interface Kube {
  namespace: string;
  custom: CustomObjectsApi;
  coordination: CoordinationV1Api;
  core: CoreV1Api;
}

const SERVICE_ACCOUNT_NAMESPACE = '/var/run/secrets/kubernetes.io/serviceaccount/namespace';

/** The cluster this process should mirror into, or null when none is configured. */
export function connectKube(config: Pick<Config, 'KUBECONFIG' | 'KUBERNETES_SERVICE_HOST' | 'SWITCHBOARD_KUBE_NAMESPACE'>): Kube | null {
  const kc = new KubeConfig();
  if (config.KUBECONFIG) kc.loadFromFile(config.KUBECONFIG);
  else if (config.KUBERNETES_SERVICE_HOST) kc.loadFromCluster();
  else return null;
  const namespace = config.SWITCHBOARD_KUBE_NAMESPACE;
  const inCluster = existsSync(SERVICE_ACCOUNT_NAMESPACE) ? readFileSync(SERVICE_ACCOUNT_NAMESPACE, 'utf8').trim() : undefined;
  const server = kc.getCurrentCluster()?.server;
  if (!server) throw new Error('the kubeconfig has no current cluster');
  // kc.makeApiClient's configuration, on the abortable transport.
  const configuration = createConfiguration({
    baseServer: new ServerConfiguration(server, {}),
    authMethods: { default: kc },
    httpApi: transport,
  });
  return {
    namespace: namespace ?? inCluster ?? kc.getContextObject(kc.getCurrentContext())?.namespace ?? 'default',
    custom: new CustomObjectsApi(configuration),
    coordination: new CoordinationV1Api(configuration),
    core: new CoreV1Api(configuration),
  };
}

export const statusOf = (err: unknown): number | undefined => (err instanceof ApiException ? err.code : undefined);

/**
 * What the API server said of a failed call: its Status's reason and message ("403 Forbidden:
 * triggers.switchboard.dev is forbidden: User …"), where client-node's own message buries them,
 * escaped, among the response headers. Any other error: its message.
 */
export function kubeErrorMessage(err: unknown): string {
  if (!(err instanceof ApiException)) return (err as Error).message;
  let status: { reason?: string; message?: string } | undefined;
  try {
    status = typeof err.body === 'string' ? JSON.parse(err.body) : err.body;
  } catch {
    // Not a Status (a proxy's HTML page, say): the code is all there is.
  }
  return status?.message ? `${err.code} ${status.reason ?? ''}: ${status.message}` : `the Kubernetes API answered ${err.code}`;
}

// The abort signal of each request a bounded call makes. client-node takes a transport per client
// only (it ignores one given per call), so a call's signal reaches the transport on its request.
const signals = new WeakMap<RequestContext, AbortSignal>();

/**
 * client-node's transport (its own is node-fetch, which it gives no abort signal), aborting a
 * request when its call's signal does: the request is abandoned and its socket closed, so a hung
 * API server holds no connection of ours. Requests go out on the agent the kubeconfig's credentials set.
 */
const transport: HttpLibrary = wrapHttpLibrary({
  send: (request: RequestContext) =>
    new Promise<ResponseContext>((resolve, reject) => {
      const body = request.getBody();
      if (body !== undefined && typeof body !== 'string') return reject(new TypeError('Kubernetes API calls send text bodies only'));
      const url = new URL(request.getUrl());
      const send = url.protocol === 'https:' ? https.request : http.request;
      const options = {
        method: request.getHttpMethod(),
        headers: request.getHeaders(),
        agent: request.getAgent(),
        signal: signals.get(request),
      };
      const req = send(url, options, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          const data = Buffer.concat(chunks);
          resolve(
            new ResponseContext(res.statusCode ?? 0, flatten(res.headers), {
              text: async () => data.toString('utf8'),
              binary: async () => data,
            }),
          );
        });
      });
      req.on('error', reject);
      req.end(body);
    }),
});

/**
 * A call to the API server that gives up after `ms`, its request aborted: a slow or hung cluster
 * must never stall the caller, nor keep its connections. `call` passes `options` (`base` and the
 * call's deadline) on to the client method.
 */
export function bounded<T>(ms: number, call: (options: ConfigurationOptions) => Promise<T>, base: ConfigurationOptions = {}): Promise<T> {
  const signal = AbortSignal.timeout(ms);
  const deadline: ObservableMiddleware = {
    pre: (request) => {
      signals.set(request, signal);
      return new Observable(Promise.resolve(request));
    },
    post: (response) => new Observable(Promise.resolve(response)),
  };
  // The caller also stops waiting for a call that has not reached the transport yet (the kubeconfig's credentials, say).
  const timedOut = new Promise<never>((_, reject) => {
    signal.addEventListener('abort', () => reject(new Error(`Kubernetes API call timed out after ${ms} ms`)), { once: true });
  });
  timedOut.catch(() => {});
  return Promise.race([call({ ...base, middleware: [...(base.middleware ?? []), deadline], middlewareMergeStrategy: 'append' }), timedOut]);
}
