// The Kubernetes connection: a kubeconfig (KUBECONFIG) or the in-cluster service account.
// With neither, there is no cluster and the CR mirror is off.
import { existsSync, readFileSync } from 'node:fs';
import type { Config } from '../config.js';
import {
  ApiException,
  CoordinationV1Api,
  CoreV1Api,
  CustomObjectsApi,
  KubeConfig,
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
  return {
    namespace: namespace ?? inCluster ?? kc.getContextObject(kc.getCurrentContext())?.namespace ?? 'default',
    custom: kc.makeApiClient(CustomObjectsApi),
    coordination: kc.makeApiClient(CoordinationV1Api),
    core: kc.makeApiClient(CoreV1Api),
  };
}

export const statusOf = (err: unknown): number | undefined => (err instanceof ApiException ? err.code : undefined);

/** A call to the API server that gives up after `ms`: a slow cluster must never stall the caller. */
export async function bounded<T>(ms: number, call: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`Kubernetes API call timed out after ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([call, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
