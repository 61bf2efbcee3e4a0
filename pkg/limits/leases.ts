// Slots held as expiring leases, counted per group: in Redis so a cap holds across replicas, in this
// replica's memory without it (or while it is down). A holder that crashes cannot leak a slot.
import type { RedisClientType } from 'redis';
import type { Clock } from '../clock.js';
import type { RateLimits } from './rate-limit.js';

/** One slot: `id` holds it in `group` (a tenant's calls, the deployment's model calls). */
export interface Lease {
  group: string;
  id: string;
}

/** Where slots are held. `acquire` answers whether there was room. */
export interface LeaseStore {
  /** Leases of the group still live. */
  held(group: string): Promise<number>;
  acquire(lease: Lease, max: number): Promise<boolean>;
  renew(leases: Lease[]): Promise<void>;
  /** A lease Redis cannot release now is freed when it runs out (the error is the caller's to log). */
  release(lease: Lease): Promise<void>;
}

// Drop expired leases, then add the holder if it holds one already or there is room. Scores are
// lease ends in the clock's milliseconds.
const ACQUIRE = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if not redis.call('ZSCORE', KEYS[1], ARGV[3]) and redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[4]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[5])
return 1`;

// Only leases still held are extended: a released one stays released.
const RENEW = `
for i = 1, #KEYS do redis.call('ZADD', KEYS[i], 'XX', ARGV[1], ARGV[i + 1]) end
return 0`;

const KEY_TTL_MS = 24 * 3_600_000;

/** Leases held in this replica's memory: all of them without Redis, those taken while it was down with it. */
function memoryLeases(clock: Clock, leaseMs: number) {
  const held = new Map<string, Map<string, number>>();
  // The group's live leases, expired ones dropped; a group with none is forgotten.
  const live = (group: string) => {
    const leases = held.get(group) ?? new Map<string, number>();
    const now = clock.now().getTime();
    for (const [id, until] of leases) if (until <= now) leases.delete(id);
    if (!leases.size) held.delete(group);
    return leases;
  };
  return {
    count: (group: string) => live(group).size,
    holds: ({ group, id }: Lease) => held.get(group)?.has(id) ?? false,
    acquire({ group, id }: Lease, max: number): boolean {
      const leases = live(group);
      if (!leases.has(id) && leases.size >= max) return false;
      held.set(group, leases);
      leases.set(id, clock.now().getTime() + leaseMs);
      return true;
    },
    renew(list: Lease[]): void {
      const until = clock.now().getTime() + leaseMs;
      for (const { group, id } of list) if (held.get(group)?.has(id)) held.get(group)!.set(id, until);
    },
    release({ group, id }: Lease): void {
      held.get(group)?.delete(id);
    },
  };
}

export interface LeaseOptions {
  redis: RedisClientType | null;
  limits: RateLimits;
  clock: Clock;
  leaseMs: number;
  /** Redis key prefix of a group's leases. */
  prefix: string;
  /** The scope counted when Redis is unavailable (RateLimits.fellBack). */
  scope: string;
}

export function leaseStore({ redis, limits, clock, leaseMs, prefix, scope }: LeaseOptions): LeaseStore {
  const key = (group: string) => `${prefix}:${group}`;
  const memory = memoryLeases(clock, leaseMs);

  if (!redis) {
    return {
      held: async (group) => memory.count(group),
      acquire: async (lease, max) => memory.acquire(lease, max),
      renew: async (leases) => memory.renew(leases),
      release: async (lease) => memory.release(lease),
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
    limits.fellBack(scope);
    return inMemory();
  };
  return {
    async held(group) {
      const now = String(clock.now().getTime());
      // Leases still live (scores are lease ends), and those held in memory since an outage.
      const shared = await orMemory(() => redis.zCount(key(group), `(${now}`, '+inf'), () => 0);
      return shared + memory.count(group);
    },
    async acquire(lease, max) {
      if (memory.holds(lease)) return memory.acquire(lease, max);
      const now = clock.now().getTime();
      // Leases still held in memory since an outage count against the group's limit too.
      const room = max - memory.count(lease.group);
      const args = [String(now), String(now + leaseMs), lease.id, String(room), String(KEY_TTL_MS)];
      return orMemory(
        async () => (await redis.eval(ACQUIRE, { keys: [key(lease.group)], arguments: args })) === 1,
        () => memory.acquire(lease, max),
      );
    },
    async renew(leases) {
      memory.renew(leases);
      const shared = leases.filter((l) => !memory.holds(l));
      if (!shared.length) return;
      const until = String(clock.now().getTime() + leaseMs);
      // Leases Redis cannot extend now run out there: nothing to keep in memory.
      await orMemory(
        async () => void (await redis.eval(RENEW, { keys: shared.map((l) => key(l.group)), arguments: [until, ...shared.map((l) => l.id)] })),
        () => undefined,
      );
    },
    async release(lease) {
      // A lease is released where it was taken.
      if (memory.holds(lease)) memory.release(lease);
      else await redis.zRem(key(lease.group), lease.id);
    },
  };
}
