// Jobs as `Trigger` objects for kubectl; its own loop with bounded calls, so a slow Kubernetes API slows nothing else.
import { setHeaderOptions, PatchStrategy } from '@kubernetes/client-node';
import type { Ctx } from '../pkg/context.js';
import { CHANNELS } from '../pkg/db/notify.js';
import { bounded, kubeErrorMessage, statusOf, type Kube } from '../pkg/kube/client.js';
import { LeaderElector } from '../pkg/kube/leader.js';
import {
  API_VERSION,
  GROUP,
  MANAGED_BY,
  TRIGGERS,
  VERSION,
  statusDiffers,
  triggerObject,
  triggerStatus,
  type TriggerCR,
  type TriggerStatus,
} from '../pkg/kube/trigger-cr.js';
import { mirroredTriggers } from '../pkg/store/triggers/mirror.js';
import { applyCancelAnnotation } from '../pkg/kube/cancel-annotation.js';
import type { TriggerRow } from '../pkg/store/triggers/row.js';

const FIELD_MANAGER = 'switchboard-mirror';
const CALL_TIMEOUT_MS = 5_000;
/** Statuses an operator is told about with an Event. */
const NOTABLE: Record<string, { type: 'Normal' | 'Warning'; reason: string }> = {
  waiting_for_reply: { type: 'Normal', reason: 'WaitingForReply' },
  failed: { type: 'Warning', reason: 'Failed' },
  expired: { type: 'Warning', reason: 'Expired' },
};

interface MirrorOptions {
  retentionMs: number;
  resyncMs: number;
  identity: string;
}

const apply = setHeaderOptions('Content-Type', PatchStrategy.ServerSideApply);
const crCoordinates = (namespace: string) => ({ group: GROUP, version: VERSION, namespace, plural: TRIGGERS });

export class TriggerMirror {
  private readonly elector: LeaderElector;
  private cancelResync: (() => void) | undefined;
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = false;
  private unsubscribe: (() => void) | undefined;

  constructor(
    private readonly ctx: Ctx,
    private readonly kube: Kube,
    private readonly opts: MirrorOptions,
  ) {
    this.elector = new LeaderElector(kube, {
      name: 'switchboard-mirror',
      identity: opts.identity,
      clock: ctx.clock,
      log: ctx.log,
      onChange: (leading) => {
        if (leading) this.poke();
      },
    });
  }

  get isLeader(): boolean {
    return this.elector.isLeader;
  }

  async start(): Promise<void> {
    this.unsubscribe = await this.ctx.notifier.subscribe(CHANNELS.triggers, () => this.poke());
    this.elector.start();
    this.schedule();
  }

  private schedule(): void {
    if (!this.stopped) this.cancelResync = this.ctx.clock.setTimer(this.opts.resyncMs, () => this.poke());
  }

  /** Sync now, or right after the sync in progress (changes arrive in bursts). */
  poke(): void {
    if (this.stopped || !this.elector.isLeader) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.cancelResync?.();
    this.running = this.sync()
      .catch((err: Error) => {
        this.ctx.metrics.reconcileErrors.inc({ reconciler: 'mirror' });
        this.ctx.log.warn({ err: kubeErrorMessage(err) }, 'mirror sync failed; will retry');
      })
      .finally(() => {
        this.running = null;
        if (this.again) {
          this.again = false;
          this.poke();
        } else this.schedule();
      });
  }

  private async list(): Promise<Map<string, TriggerCR>> {
    const res = (await bounded(
      CALL_TIMEOUT_MS,
      (o) => this.kube.custom.listNamespacedCustomObject({ ...crCoordinates(this.kube.namespace), labelSelector: MANAGED_BY }, o),
    )) as { items: TriggerCR[] };
    return new Map(res.items.map((cr) => [cr.metadata.name, cr]));
  }

  private async sync(): Promise<void> {
    const now = this.ctx.clock.now();
    const rows = await mirroredTriggers(this.ctx, new Date(now.getTime() - this.opts.retentionMs));
    const existing = await this.list();
    for (const row of rows) {
      const cr = existing.get(row.id);
      existing.delete(row.id);
      try {
        await this.project(row, cr);
        if (cr) await this.operatorCancel(row, cr);
      } catch (err) {
        // The API server refused this one object: report it and go on with the others. Anything
        // else (timeouts, connection errors) means the API is away: stop and retry the whole sync.
        if (statusOf(err) === undefined) throw err;
        this.ctx.metrics.reconcileErrors.inc({ reconciler: 'mirror' });
        this.ctx.log.warn({ err: kubeErrorMessage(err), triggerId: row.id }, 'mirror could not write a Trigger');
      }
    }
    // Whatever is left is terminal past the retention window, or gone from Postgres.
    for (const name of existing.keys()) {
      await bounded(CALL_TIMEOUT_MS, (o) => this.kube.custom.deleteNamespacedCustomObject({ ...crCoordinates(this.kube.namespace), name }, o)).catch(
        (err) => {
          if (statusOf(err) !== 404) throw err;
        },
      );
    }
  }

  private async project(row: TriggerRow, cr: TriggerCR | undefined): Promise<void> {
    const { namespace } = this.kube;
    const coords = crCoordinates(namespace);
    let current = cr;
    if (!current) {
      current = (await bounded(
        CALL_TIMEOUT_MS,
        (o) => this.kube.custom.patchNamespacedCustomObject({ ...coords, name: row.id, body: triggerObject(row, namespace), fieldManager: FIELD_MANAGER, force: true }, o),
        apply,
      )) as TriggerCR;
    }
    const desired = this.desiredStatus(row, current);
    if (!statusDiffers(current.status, desired)) return;
    await this.writeStatus(row.id, desired);
    const notable = NOTABLE[row.status];
    if (notable && current.status?.phase !== row.status) {
      await this.event(current, notable.type, notable.reason, (row.error_message ?? row.waiting_reason ?? `Job is ${row.status}`).slice(0, 1000));
    }
  }

  /** The cancel annotation (pkg/kube/cancel-annotation.ts), with a refusal shown on the object. */
  private async operatorCancel(row: TriggerRow, cr: TriggerCR): Promise<void> {
    const refusal = await applyCancelAnnotation(this.ctx, row, cr);
    if (!refusal) return;
    const status = this.desiredStatus(row, cr);
    status.conditions = [...status.conditions.filter((c) => c.type !== 'CancelRefused'), refusal];
    await this.writeStatus(row.id, status);
    await this.event(cr, 'Warning', 'CancelRefused', refusal.message);
  }

  private desiredStatus(row: TriggerRow, cr: TriggerCR): TriggerStatus {
    return { ...triggerStatus(row, cr.status?.conditions, this.ctx.clock.now()), observedGeneration: cr.metadata.generation };
  }

  /** Applies the whole status: a field the mirror leaves out of an apply is removed from the object. */
  private async writeStatus(name: string, status: TriggerStatus): Promise<void> {
    await bounded(
      CALL_TIMEOUT_MS,
      (o) =>
        this.kube.custom.patchNamespacedCustomObjectStatus(
          { ...crCoordinates(this.kube.namespace), name, body: { apiVersion: API_VERSION, kind: 'Trigger', metadata: { name }, status }, fieldManager: FIELD_MANAGER, force: true },
          o,
        ),
      apply,
    );
  }

  private async event(cr: TriggerCR, type: 'Normal' | 'Warning', reason: string, message: string): Promise<void> {
    const { namespace } = this.kube;
    const now = this.ctx.clock.now();
    await bounded(
      CALL_TIMEOUT_MS,
      (o) => this.kube.core.createNamespacedEvent({
        namespace,
        body: {
          metadata: { generateName: `${cr.metadata.name}.`, namespace },
          involvedObject: { apiVersion: API_VERSION, kind: 'Trigger', name: cr.metadata.name, namespace, uid: cr.metadata.uid },
          type,
          reason,
          message,
          count: 1,
          firstTimestamp: now,
          lastTimestamp: now,
          source: { component: 'switchboard-mirror' },
          reportingComponent: 'switchboard.dev/mirror',
          reportingInstance: this.opts.identity,
        },
      }, o),
    );
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.cancelResync?.();
    this.unsubscribe?.();
    await this.running;
    await this.elector.stop();
  }
}
