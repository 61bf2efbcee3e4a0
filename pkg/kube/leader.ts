// Leader election on a coordination.k8s.io Lease, with controller-runtime's timings. client-node
// has no elector, so this is client-go's algorithm: acquire or renew every retry period with an
// optimistic replace (resourceVersion); a leader that cannot renew within the renew deadline
// steps down. Lease times are MicroTime, which the API server requires.
import { V1MicroTime, type V1Lease } from '@kubernetes/client-node';
import type { Logger } from '../log.js';
import { bounded, statusOf, type Kube } from './client.js';

export const LEASE_DURATION_SEC = 15;
export const RENEW_DEADLINE_MS = 10_000;
export const RETRY_PERIOD_MS = 2_000;

export class LeaderElector {
  private leading = false;
  private lastRenew = 0;
  /** The lease version last read and when, by this process's clock: peers' clocks may be skewed (client-go's observedTime). */
  private observed: { version?: string; at: number } = { at: 0 };
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    private readonly kube: Kube,
    private readonly name: string,
    readonly identity: string,
    private readonly log: Logger,
    private readonly onChange: (leading: boolean) => void,
  ) {}

  get isLeader(): boolean {
    return this.leading;
  }

  start(): void {
    void this.round();
  }

  private schedule(): void {
    if (!this.stopped) this.timer = setTimeout(() => void this.round(), RETRY_PERIOD_MS);
  }

  private setLeading(leading: boolean): void {
    if (leading === this.leading) return;
    this.leading = leading;
    this.log.info({ lease: this.name, identity: this.identity, leading }, leading ? 'became leader' : 'stopped leading');
    this.onChange(leading);
  }

  private async round(): Promise<void> {
    try {
      const held = await this.tryAcquireOrRenew();
      if (held) this.lastRenew = Date.now();
      // Another holder with a live lease: step down at once.
      this.setLeading(held);
    } catch (err) {
      // A failed round (API down, 409 from a concurrent writer) keeps leadership until the deadline.
      this.log.debug({ err: (err as Error).message, lease: this.name }, 'lease round failed');
      if (this.leading && Date.now() - this.lastRenew > RENEW_DEADLINE_MS) this.setLeading(false);
    }
    this.schedule();
  }

  private async tryAcquireOrRenew(): Promise<boolean> {
    const { coordination, namespace } = this.kube;
    const now = new V1MicroTime();
    let lease: V1Lease;
    try {
      lease = await bounded(RETRY_PERIOD_MS, (o) => coordination.readNamespacedLease({ name: this.name, namespace }, o));
    } catch (err) {
      if (statusOf(err) !== 404) throw err;
      await bounded(RETRY_PERIOD_MS, (o) =>
        coordination.createNamespacedLease({
          namespace,
          body: {
            metadata: { name: this.name, namespace },
            spec: {
              holderIdentity: this.identity,
              leaseDurationSeconds: LEASE_DURATION_SEC,
              acquireTime: now,
              renewTime: now,
              leaseTransitions: 0,
            },
          },
        }, o),
      );
      return true;
    }
    const spec = lease.spec ?? {};
    const holder = spec.holderIdentity ?? '';
    if (lease.metadata?.resourceVersion !== this.observed.version) this.observed = { version: lease.metadata?.resourceVersion, at: Date.now() };
    const expired = this.observed.at + (spec.leaseDurationSeconds ?? LEASE_DURATION_SEC) * 1000 < Date.now();
    if (holder && holder !== this.identity && !expired) return false;
    const changing = holder !== this.identity;
    lease.spec = {
      ...spec,
      holderIdentity: this.identity,
      leaseDurationSeconds: LEASE_DURATION_SEC,
      renewTime: now,
      acquireTime: changing ? now : spec.acquireTime ? new V1MicroTime(spec.acquireTime) : now,
      leaseTransitions: (spec.leaseTransitions ?? 0) + (changing && holder ? 1 : 0),
    };
    // replace carries metadata.resourceVersion: a concurrent writer makes this a 409, not a tie.
    await bounded(RETRY_PERIOD_MS, (o) => coordination.replaceNamespacedLease({ name: this.name, namespace, body: lease }, o));
    return true;
  }

  /** Stop; a leader hands the lease back so a peer takes over at once (ReleaseOnCancel). */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    if (!this.leading) return;
    this.setLeading(false);
    try {
      const { coordination, namespace } = this.kube;
      const lease = await bounded(RETRY_PERIOD_MS, (o) => coordination.readNamespacedLease({ name: this.name, namespace }, o));
      if (lease.spec?.holderIdentity !== this.identity) return;
      lease.spec = { ...lease.spec, holderIdentity: '', leaseDurationSeconds: 1, renewTime: new V1MicroTime() };
      await bounded(RETRY_PERIOD_MS, (o) => coordination.replaceNamespacedLease({ name: this.name, namespace, body: lease }, o));
    } catch (err) {
      this.log.debug({ err: (err as Error).message }, 'lease release failed; it will expire');
    }
  }
}
