// Jobs as `Trigger` objects and campaign runs as `CampaignRun` objects for kubectl; its own loop
// with bounded calls, so a slow Kubernetes API slows nothing else.
import { setHeaderOptions, PatchStrategy } from '@kubernetes/client-node';
import type { Ctx } from '../pkg/context.js';
import { bounded, kubeErrorMessage, statusOf, type Kube } from '../pkg/kube/client.js';
import { MIRRORED_KINDS, type MirroredCR, type MirroredKind } from '../pkg/kube/kinds.js';
import { LeaderElector } from '../pkg/kube/leader.js';
import { API_VERSION, GROUP, MANAGED_BY, VERSION, statusDiffers, type Condition } from '../pkg/kube/trigger-cr.js';

const FIELD_MANAGER = 'switchboard-mirror';
const CALL_TIMEOUT_MS = 5_000;

type Kind = MirroredKind<Row>;
type Row = { id: string; status: string };
type Status = { phase: string; conditions: Condition[]; observedGeneration?: number };

interface MirrorOptions {
  retentionMs: number;
  resyncMs: number;
  identity: string;
}

const apply = setHeaderOptions('Content-Type', PatchStrategy.ServerSideApply);
const crCoordinates = (kind: Kind, namespace: string) => ({ group: GROUP, version: VERSION, namespace, plural: kind.plural });

export class CrMirror {
  private readonly elector: LeaderElector;
  private cancelResync: (() => void) | undefined;
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = false;
  private unsubscribes: (() => void)[] = [];

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
    for (const kind of MIRRORED_KINDS) this.unsubscribes.push(await this.ctx.notifier.subscribe(kind.channel, () => this.poke()));
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

  private async list(kind: Kind): Promise<Map<string, MirroredCR>> {
    const res = (await bounded(CALL_TIMEOUT_MS, (o) =>
      this.kube.custom.listNamespacedCustomObject({ ...crCoordinates(kind, this.kube.namespace), labelSelector: MANAGED_BY }, o),
    )) as { items: MirroredCR[] };
    return new Map(res.items.map((cr) => [cr.metadata.name, cr]));
  }

  private async sync(): Promise<void> {
    const since = new Date(this.ctx.clock.now().getTime() - this.opts.retentionMs);
    for (const kind of MIRRORED_KINDS) await this.syncKind(kind, since);
  }

  private async syncKind(kind: Kind, since: Date): Promise<void> {
    const rows = await kind.rows(this.ctx, since);
    const existing = await this.list(kind);
    for (const row of rows) {
      const name = kind.object(row, this.kube.namespace).metadata.name;
      const cr = existing.get(name);
      existing.delete(name);
      try {
        await this.project(kind, row, cr);
        if (cr) await this.operatorAction(kind, row, cr);
      } catch (err) {
        // The API server refused this one object: report it and go on with the others. Anything
        // else (timeouts, connection errors) means the API is away: stop and retry the whole sync.
        if (statusOf(err) === undefined) throw err;
        this.ctx.metrics.reconcileErrors.inc({ reconciler: 'mirror' });
        this.ctx.log.warn({ err: kubeErrorMessage(err), kind: kind.kind, id: row.id }, `mirror could not write a ${kind.kind}`);
      }
    }
    // Whatever is left is terminal past the retention window, or gone from Postgres.
    for (const name of existing.keys()) {
      await bounded(CALL_TIMEOUT_MS, (o) =>
        this.kube.custom.deleteNamespacedCustomObject({ ...crCoordinates(kind, this.kube.namespace), name }, o),
      ).catch((err) => {
        if (statusOf(err) !== 404) throw err;
      });
    }
  }

  private async project(kind: Kind, row: Row, cr: MirroredCR | undefined): Promise<void> {
    const { namespace } = this.kube;
    const coords = crCoordinates(kind, namespace);
    let current = cr;
    if (!current) {
      const body = kind.object(row, namespace);
      current = (await bounded(
        CALL_TIMEOUT_MS,
        (o) =>
          this.kube.custom.patchNamespacedCustomObject(
            { ...coords, name: body.metadata.name, body, fieldManager: FIELD_MANAGER, force: true },
            o,
          ),
        apply,
      )) as MirroredCR;
    }
    const desired = this.desiredStatus(kind, row, current);
    if (!statusDiffers(current.status, desired)) return;
    await this.writeStatus(kind, current.metadata.name, desired);
    const notable = kind.notable(row);
    if (notable && current.status?.phase !== row.status) await this.event(kind, current, notable.type, notable.reason, notable.message);
  }

  /** The kind's operator annotation (pkg/kube/kinds.ts), with a refusal shown on the object. */
  private async operatorAction(kind: Kind, row: Row, cr: MirroredCR): Promise<void> {
    const refusal = await kind.operatorAction(this.ctx, row, cr);
    if (!refusal) return;
    const status = this.desiredStatus(kind, row, cr);
    status.conditions = [...status.conditions.filter((c) => c.type !== refusal.type), refusal];
    await this.writeStatus(kind, cr.metadata.name, status);
    await this.event(kind, cr, 'Warning', refusal.type, refusal.message);
  }

  private desiredStatus(kind: Kind, row: Row, cr: MirroredCR): Status {
    return { ...kind.status(row, cr.status?.conditions, this.ctx.clock.now()), observedGeneration: cr.metadata.generation };
  }

  /** Applies the whole status: a field the mirror leaves out of an apply is removed from the object. */
  private async writeStatus(kind: Kind, name: string, status: Status): Promise<void> {
    await bounded(
      CALL_TIMEOUT_MS,
      (o) =>
        this.kube.custom.patchNamespacedCustomObjectStatus(
          {
            ...crCoordinates(kind, this.kube.namespace),
            name,
            body: { apiVersion: API_VERSION, kind: kind.kind, metadata: { name }, status },
            fieldManager: FIELD_MANAGER,
            force: true,
          },
          o,
        ),
      apply,
    );
  }

  private async event(kind: Kind, cr: MirroredCR, type: 'Normal' | 'Warning', reason: string, message: string): Promise<void> {
    const { namespace } = this.kube;
    const now = this.ctx.clock.now();
    await bounded(CALL_TIMEOUT_MS, (o) =>
      this.kube.core.createNamespacedEvent(
        {
          namespace,
          body: {
            metadata: { generateName: `${cr.metadata.name}.`, namespace },
            involvedObject: { apiVersion: API_VERSION, kind: kind.kind, name: cr.metadata.name, namespace, uid: cr.metadata.uid },
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
        },
        o,
      ),
    );
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.cancelResync?.();
    for (const unsubscribe of this.unsubscribes) unsubscribe();
    await this.running;
    await this.elector.stop();
  }
}
