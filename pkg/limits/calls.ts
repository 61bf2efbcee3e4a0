// Call limits per tenant. A slot is an expiring lease, so a replica that crashes mid-call cannot leak it.
import { TooManyRequests } from '../errors.js';
import type { Logger } from '../log.js';
import { leaseStore, type Lease, type LeaseOptions } from './leases.js';
import type { RateDecision } from './rate-limit.js';

/** How long a caller refused for `tenant_busy` is told to wait before trying again. */
const BUSY_RETRY_SEC = 5;

/** A call that holds a slot (a call row; written out so pkg/context.ts's types import no store). */
type SlotHolder = { tenant_id: string; id: string };

export interface CallLimits {
  /** Count one placement against the tenant's limit of calls placed a minute (API and MCP together). */
  consumePlacement(tenant: PlacingTenant): Promise<RateDecision>;
  /** Take a slot for a call being placed; 429 `tenant_busy` when the tenant already holds its cap of live calls. */
  acquireSlot(tenant: { id: string; maxConcurrentCalls: number }, callId: string): Promise<void>;
  /** Extend the slots of calls still live (their controller's heartbeat), for one lease or `until`. */
  renewSlots(calls: SlotHolder[], until?: Date): Promise<void>;
  /** Give back the slot of a call that ended or was not placed; one not given back now frees itself when its lease runs out. */
  releaseSlot(call: SlotHolder): Promise<void>;
  /** How many slots the tenant holds now, and placements counted this minute: how close it is to its caps. */
  inUse(tenant: PlacingTenant): Promise<{ slots: number; placementsThisMinute: number }>;
}

type PlacingTenant = { id: string; callsPerMinute: number };

type Options = Omit<LeaseOptions, 'prefix' | 'scope'> & { log: Logger };

export function createCallLimits(opts: Options): CallLimits {
  const slots = leaseStore({ ...opts, prefix: 'sb:calls:slots', scope: 'call_slots' });
  const slotOf = (call: SlotHolder): Lease => ({ group: call.tenant_id, id: call.id });
  return {
    consumePlacement: (tenant) => opts.limits.consume('calls', tenant.id, tenant.callsPerMinute),
    async acquireSlot(tenant, callId) {
      if (await slots.acquire({ group: tenant.id, id: callId }, tenant.maxConcurrentCalls)) return;
      throw new TooManyRequests(`The account already has ${tenant.maxConcurrentCalls} simultaneous calls`, BUSY_RETRY_SEC, 'tenant_busy');
    },
    renewSlots: (calls, until) => slots.renew(calls.map(slotOf), until?.getTime()),
    async inUse(tenant) {
      const [held, placements] = await Promise.all([slots.held(tenant.id), opts.limits.used('calls', tenant.id, tenant.callsPerMinute)]);
      return { slots: held, placementsThisMinute: placements };
    },
    async releaseSlot(call) {
      await slots.release(slotOf(call)).catch((err: Error) => {
        opts.log.warn({ err: err.message, callId: call.id }, 'could not release the call slot; its lease will expire');
      });
    },
  };
}
