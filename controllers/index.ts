// Every controller of a process, started and stopped together (`controllers` and `dev`).
import type { Ctx } from '../pkg/context.js';
import { connectKube } from '../pkg/kube/client.js';
import { ControllerManager } from './manager.js';
import { CrMirror } from './mirror.js';
import { triggersReconciler } from './triggers.js';
import { webhooksReconciler } from './webhooks.js';
import { callsReconciler } from './calls.js';
import { campaignsReconciler } from './campaigns.js';
import { invoicesReconciler } from './invoices.js';
import { createGateway } from '../pkg/voice/gateways/index.js';

export interface Controllers {
  manager: ControllerManager;
  /** null when no cluster is configured. */
  mirror: CrMirror | null;
  /** Look again now (tests call this after moving the clock). */
  wake(): void;
  /** Drains; returns the ids of runs released unfinished when the grace period ended. */
  stop(): Promise<string[]>;
}

export async function startControllers(ctx: Ctx): Promise<Controllers> {
  const { config } = ctx;
  const calls = callsReconciler(createGateway(ctx), config.SWITCHBOARD_CALL_CONCURRENCY);
  const manager = new ControllerManager(
    ctx,
    [triggersReconciler, webhooksReconciler(config.SWITCHBOARD_WEBHOOK_CONCURRENCY), calls, campaignsReconciler, invoicesReconciler],
    {
      concurrency: config.SWITCHBOARD_CONTROLLER_CONCURRENCY,
      leaseMs: config.SWITCHBOARD_LEASE_SEC * 1000,
      graceMs: config.SWITCHBOARD_SHUTDOWN_GRACE_SEC * 1000,
    },
  );
  await manager.start();
  const kube = connectKube(config);
  let mirror: CrMirror | null = null;
  if (kube) {
    mirror = new CrMirror(ctx, kube, {
      identity: manager.owner,
      retentionMs: config.SWITCHBOARD_MIRROR_RETENTION_MIN * 60_000,
      resyncMs: config.SWITCHBOARD_MIRROR_RESYNC_SEC * 1000,
    });
    await mirror.start();
    ctx.log.info({ namespace: kube.namespace }, 'CR mirror on: Trigger and CampaignRun objects follow the jobs and campaign runs');
  } else {
    ctx.log.info('no Kubernetes cluster configured (KUBECONFIG, or running in a pod): the CR mirror is off');
  }
  return {
    manager,
    mirror,
    wake: () => {
      manager.wake();
      mirror?.poke();
    },
    stop: async () => {
      const [released] = await Promise.all([manager.stop(), mirror?.stop()]);
      return released;
    },
  };
}
