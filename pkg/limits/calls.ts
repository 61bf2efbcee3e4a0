// Call limits per tenant. A slot is an expiring lease, so a replica that crashes mid-call cannot leak it.
import type { RedisClientType } from 'redis';
import type { Clock } from '../clock.js';
import { TooManyRequests } from '../errors.js';
import type { Logger } from '../log.js';
import type { RateDecision, RateLimits } from './rate-limit.js';

/** Calls a tenant may place per minute, API and MCP together (the spec's limit). */
export const CALLS_PER_MINUTE = 30;

/** How long a caller refused for `tenant_busy` is told to wait before trying again. */
const BUSY_RETRY_SEC = 5;

/** A call that holds a slot (a call row; written out so pkg/context.ts's types import no store). */
type SlotHolder = { tenant_id: string; id: string };

export interface CallLimits {
  /** Count one placement against the tenant's per-minute limit. */
  consumePlacement(tenantId: string): Promise<RateDecision>;
  /** Take a slot for a call being placed; 429 `tenant_busy` when the tenant already holds its cap of live calls. */
  acquireSlot(tenant: { id: string; maxConcurrentCalls: number }, callId: string): Promise<void>;
  /** Extend the slots of calls still live (their controller's heartbeat). */
  renewSlots(calls: SlotHolder[]): Promise<void>;
  /** Give back the slot of a call that ended or was not placed; one not given back now frees itself when its lease runs out. */
  releaseSlot(call: SlotHolder): Promise<void>;
  /** How many slots the tenant holds now, and placements counted this minute: how close it is to its caps. */
  inUse(tenantId: string): Promise<{ slots: number; placementsThisMinute: number }>;
}

/** A slot of the lease store. */
interface CallSlot {
  tenantId: string;
  callId: string;
}

/** Where slots are held: Redis or this replica's memory. `acquire` answers whether there was room. */
interface SlotStore {
  held(tenantId: string): Promise<number>;
  acquire(slot: CallSlot, max: number): Promise<boolean>;
  renew(slots: CallSlot[]): Promise<void>;
  release(slot: CallSlot): Promise<void>;
}

// Drop expired leases, then add the call if it holds one already or there is room. Scores are
// lease ends in the clock's milliseconds.
const ACQUIRE = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if not redis.call('ZSCORE', KEYS[1], ARGV[3]) and redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[4]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[5])
return 1`;

// Only leases still held are extended: a released call stays released.
const RENEW = `
for i = 1, #KEYS do redis.call('ZADD', KEYS[i], 'XX', ARGV[1], ARGV[i + 1]) end
return 0`;

const KEY_TTL_MS = 24 * 3_600_000;

/** Slots held in this replica's memory: all of them without Redis, those taken while it was down with it. */
function memorySlots(clock: Clock, leaseMs: number) {
  const held = new Map<string, Map<string, number>>();
  // The tenant's live leases, expired ones dropped; a tenant with none is forgotten.
  const live = (tenantId: string) => {
    const slots = held.get(tenantId) ?? new Map<string, number>();
    const now = clock.now().getTime();
    for (const [id, until] of slots) if (until <= now) slots.delete(id);
    if (!slots.size) held.delete(tenantId);
    return slots;
  };
  return {
    count: (tenantId: string) => live(tenantId).size,
    holds: ({ tenantId, callId }: CallSlot) => held.get(tenantId)?.has(callId) ?? false,
    acquire({ tenantId, callId }: CallSlot, max: number): boolean {
      const slots = live(tenantId);
      if (!slots.has(callId) && slots.size >= max) return false;
      held.set(tenantId, slots);
      slots.set(callId, clock.now().getTime() + leaseMs);
      return true;
    },
    renew(list: CallSlot[]): void {
      const until = clock.now().getTime() + leaseMs;
      for (const { tenantId, callId } of list) if (held.get(tenantId)?.has(callId)) held.get(tenantId)!.set(callId, until);
    },
    release({ tenantId, callId }: CallSlot): void {
      held.get(tenantId)?.delete(callId);
    },
  };
}

interface Options {
  redis: RedisClientType | null;
  limits: RateLimits;
  clock: Clock;
  log: Logger;
  leaseMs: number;
}

function slotStore({ redis, limits, clock, leaseMs }: Options): SlotStore {
  const key = (tenantId: string) => `sb:calls:slots:${tenantId}`;
  const memory = memorySlots(clock, leaseMs);

  if (!redis) {
    return {
      held: async (tenantId) => memory.count(tenantId),
      acquire: async (slot, max) => memory.acquire(slot, max),
      renew: async (slots) => memory.renew(slots),
      release: async (slot) => memory.release(slot),
    };
  }

  // Redis when it answers; otherwise this replica's memory, counted and logged as a fallback.
  const orMemory = async <T>(onRedis: () => Promise<T>, inMemory: () => T): Promise<T> => {
    if (redis.isReady) {
      try {
        return await onRedis();
      } catch {
        // Lost mid-command: same as not ready.
      }
    }
    limits.fellBack('call_slots');
    return inMemory();
  };
  return {
    async held(tenantId) {
      const now = String(clock.now().getTime());
      // Leases still live (scores are lease ends), and those held in memory since an outage.
      const shared = await orMemory(() => redis.zCount(key(tenantId), `(${now}`, '+inf'), () => 0);
      return shared + memory.count(tenantId);
    },
    async acquire(slot, max) {
      if (memory.holds(slot)) return memory.acquire(slot, max);
      const now = clock.now().getTime();
      // Slots still held in memory since an outage count against the tenant's limit too.
      const room = max - memory.count(slot.tenantId);
      const args = [String(now), String(now + leaseMs), slot.callId, String(room), String(KEY_TTL_MS)];
      return orMemory(
        async () => (await redis.eval(ACQUIRE, { keys: [key(slot.tenantId)], arguments: args })) === 1,
        () => memory.acquire(slot, max),
      );
    },
    async renew(slots) {
      memory.renew(slots);
      const shared = slots.filter((s) => !memory.holds(s));
      if (!shared.length) return;
      const until = String(clock.now().getTime() + leaseMs);
      // Leases Redis cannot extend now run out there: nothing to keep in memory.
      await orMemory(
        async () => void (await redis.eval(RENEW, { keys: shared.map((s) => key(s.tenantId)), arguments: [until, ...shared.map((s) => s.callId)] })),
        () => undefined,
      );
    },
    async release(slot) {
      // A slot is released where it was taken; one Redis cannot release now is freed by its lease running out.
      if (memory.holds(slot)) memory.release(slot);
      else await redis.zRem(key(slot.tenantId), slot.callId);
    },
  };
}

export function createCallLimits(opts: Options): CallLimits {
  const slots = slotStore(opts);
  const slotOf = (call: SlotHolder): CallSlot => ({ tenantId: call.tenant_id, callId: call.id });
  return {
    consumePlacement: (tenantId) => opts.limits.consume('calls', tenantId, CALLS_PER_MINUTE),
    async acquireSlot(tenant, callId) {
      if (await slots.acquire({ tenantId: tenant.id, callId }, tenant.maxConcurrentCalls)) return;
      throw new TooManyRequests(`The account already has ${tenant.maxConcurrentCalls} simultaneous calls`, BUSY_RETRY_SEC, 'tenant_busy');
    },
    renewSlots: (calls) => slots.renew(calls.map(slotOf)),
    async inUse(tenantId) {
      const [held, placements] = await Promise.all([slots.held(tenantId), opts.limits.used('calls', tenantId, CALLS_PER_MINUTE)]);
      return { slots: held, placementsThisMinute: placements };
    },
    async releaseSlot(call) {
      await slots.release(slotOf(call)).catch((err: Error) => {
        opts.log.warn({ err: err.message, callId: call.id }, 'could not release the call slot; its lease will expire');
      });
    },
  };
}
