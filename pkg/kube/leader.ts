// Leader election on a coordination.k8s.io Lease, with controller-runtime's timings. client-node
// has no elector, so this is client-go's algorithm: acquire or renew every retry period with an
// optimistic replace (resourceVersion); a leader that cannot renew within the renew deadline
// steps down. Lease times are MicroTime, which the API server requires.
import { V1MicroTime, type V1Lease } from '@kubernetes/client-node';
import type { Clock } from '../clock.js';
import type { Logger } from '../log.js';
import { bounded, statusOf, type Kube } from './client.js';

interface LeaderTimings {
  /** How long a lease stays the holder's after its last renewal, as written on the Lease. */
  leaseDurationSec: number;
  /** A leader that has not renewed for this long steps down. */
  renewDeadlineMs: number;
  /** How often to try to acquire or renew; also the bound on each call to the API server. */
  retryPeriodMs: number;
}

/** controller-runtime's defaults. */
const DEFAULT_LEADER_TIMINGS: LeaderTimings = { leaseDurationSec: 15, renewDeadlineMs: 10_000, retryPeriodMs: 2_000 };

interface LeaderElectorOptions {
  name: string;
  identity: string;
  clock: Clock;
  log: Logger;
  timings?: LeaderTimings;
  onChange: (leading: boolean) => void;
}

export class LeaderElector {
  private leading = false;
  private lastRenew = 0;
  /** The lease version last read and when, by this process's clock: peers' clocks may be skewed (client-go's observedTime). */
  private observed: { version?: string; at: number } = { at: 0 };
  private cancelTimer: (() => void) | undefined;
  private stopped = false;
  private readonly timings: LeaderTimings;

  constructor(
    private readonly kube: Kube,
    private readonly opts: LeaderElectorOptions,
  ) {
    this.timings = opts.timings ?? DEFAULT_LEADER_TIMINGS;
  }

  get identity(): string {
    return this.opts.identity;
  }

  get isLeader(): boolean {
    return this.leading;
  }

  start(): void {
    void this.round();
  }

  private schedule(): void {
    if (!this.stopped) this.cancelTimer = this.opts.clock.setTimer(this.timings.retryPeriodMs, () => void this.round());
  }

  private setLeading(leading: boolean): void {
    if (leading === this.leading) return;
    this.leading = leading;
    this.opts.log.info({ lease: this.opts.name, identity: this.identity, leading }, leading ? 'became leader' : 'stopped leading');
    this.opts.onChange(leading);
  }

  private async round(): Promise<void> {
    try {
      const held = await this.tryAcquireOrRenew();
      if (held) this.lastRenew = this.ms();
      // Another holder with a live lease: step down at once.
      this.setLeading(held);
    } catch (err) {
      // A failed round (API down, 409 from a concurrent writer) keeps leadership until the deadline.
      this.opts.log.debug({ err: (err as Error).message, lease: this.opts.name }, 'lease round failed');
      if (this.leading && this.ms() - this.lastRenew > this.timings.renewDeadlineMs) this.setLeading(false);
    }
    this.schedule();
  }

  private ms(): number {
    return this.opts.clock.now().getTime();
  }

  private async tryAcquireOrRenew(): Promise<boolean> {
    const { coordination, namespace } = this.kube;
    const { leaseDurationSec, retryPeriodMs } = this.timings;
    const now = new V1MicroTime(this.opts.clock.now());
    let lease: V1Lease;
    try {
      lease = await bounded(retryPeriodMs, (o) => coordination.readNamespacedLease({ name: this.opts.name, namespace }, o));
    } catch (err) {
      if (statusOf(err) !== 404) throw err;
      await bounded(retryPeriodMs, (o) =>
        coordination.createNamespacedLease(
          {
            namespace,
            body: {
              metadata: { name: this.opts.name, namespace },
              spec: {
                holderIdentity: this.identity,
                leaseDurationSeconds: leaseDurationSec,
                acquireTime: now,
                renewTime: now,
                leaseTransitions: 0,
              },
            },
          },
          o,
        ),
      );
      return true;
    }
    const spec = lease.spec ?? {};
    const holder = spec.holderIdentity ?? '';
    if (lease.metadata?.resourceVersion !== this.observed.version)
      this.observed = { version: lease.metadata?.resourceVersion, at: this.ms() };
    const expired = this.observed.at + (spec.leaseDurationSeconds ?? leaseDurationSec) * 1000 < this.ms();
    if (holder && holder !== this.identity && !expired) return false;
    const changing = holder !== this.identity;
    lease.spec = {
      ...spec,
      holderIdentity: this.identity,
      leaseDurationSeconds: leaseDurationSec,
      renewTime: now,
      acquireTime: changing ? now : spec.acquireTime ? new V1MicroTime(spec.acquireTime) : now,
      leaseTransitions: (spec.leaseTransitions ?? 0) + (changing && holder ? 1 : 0),
    };
    // replace carries metadata.resourceVersion: a concurrent writer makes this a 409, not a tie.
    await bounded(retryPeriodMs, (o) => coordination.replaceNamespacedLease({ name: this.opts.name, namespace, body: lease }, o));
    return true;
  }

  /** Stop; a leader hands the lease back so a peer takes over at once (ReleaseOnCancel). */
  async stop(): Promise<void> {
    this.stopped = true;
    this.cancelTimer?.();
    if (!this.leading) return;
    this.setLeading(false);
    try {
      const { coordination, namespace } = this.kube;
      const { retryPeriodMs } = this.timings;
      const lease = await bounded(retryPeriodMs, (o) => coordination.readNamespacedLease({ name: this.opts.name, namespace }, o));
      if (lease.spec?.holderIdentity !== this.identity) return;
      lease.spec = { ...lease.spec, holderIdentity: '', leaseDurationSeconds: 1, renewTime: new V1MicroTime(this.opts.clock.now()) };
      await bounded(retryPeriodMs, (o) => coordination.replaceNamespacedLease({ name: this.opts.name, namespace, body: lease }, o));
    } catch (err) {
      this.opts.log.debug({ err: (err as Error).message }, 'lease release failed; it will expire');
    }
  }
}
