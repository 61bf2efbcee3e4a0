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
  /** Extends `leases` for one lease, or until `untilMs` (the clock's ms) when given. */
  renew(leases: Lease[], untilMs?: number): Promise<void>;
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

// Leases still held are extended, and those Redis lost (a flush, a restart) taken again: their holders
// are live. A lease released within the last lease (its tombstone) stays released. KEYS: each lease's
// group key, then its tombstones' key; ARGV: now, the new lease end, the key TTL, then the holders.
const RENEW = `
for i = 1, #KEYS / 2 do
  local id = ARGV[i + 3]
  local released = redis.call('ZSCORE', KEYS[2 * i], id)
  if redis.call('ZSCORE', KEYS[2 * i - 1], id) or not released or tonumber(released) <= tonumber(ARGV[1]) then
    redis.call('ZADD', KEYS[2 * i - 1], ARGV[2], id)
    redis.call('PEXPIRE', KEYS[2 * i - 1], ARGV[3])
  end
end
return 0`;

// Frees the lease and leaves its tombstone for one lease, so that a renewal racing the release does
// not take it again. KEYS: the group key, its tombstones' key; ARGV: now, the tombstone's end, the holder, the lease.
const RELEASE = `
redis.call('ZREM', KEYS[1], ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', ARGV[1])
redis.call('ZADD', KEYS[2], ARGV[2], ARGV[3])
redis.call('PEXPIRE', KEYS[2], ARGV[4])
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
    renew(list: Lease[], until = clock.now().getTime() + leaseMs): void {
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
  // Outside the prefix's keyspace: counting a prefix's leases counts no tombstone.
  const tombstones = (group: string) => `${prefix}-released:${group}`;
  const memory = memoryLeases(clock, leaseMs);

  if (!redis) {
    return {
      held: async (group) => memory.count(group),
      acquire: async (lease, max) => memory.acquire(lease, max),
      renew: async (leases, untilMs) => memory.renew(leases, untilMs),
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
      const shared = await orMemory(
        () => redis.zCount(key(group), `(${now}`, '+inf'),
        () => 0,
      );
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
    async renew(leases, untilMs) {
      memory.renew(leases, untilMs);
      const shared = leases.filter((l) => !memory.holds(l));
      if (!shared.length) return;
      const now = clock.now().getTime();
      const keys = shared.flatMap((l) => [key(l.group), tombstones(l.group)]);
      const args = [String(now), String(untilMs ?? now + leaseMs), String(KEY_TTL_MS), ...shared.map((l) => l.id)];
      // Leases Redis cannot extend now run out there: nothing to keep in memory.
      await orMemory(
        async () => void (await redis.eval(RENEW, { keys, arguments: args })),
        () => undefined,
      );
    },
    async release(lease) {
      // A lease is released where it was taken.
      if (memory.holds(lease)) return memory.release(lease);
      const now = clock.now().getTime();
      const args = [String(now), String(now + leaseMs), lease.id, String(leaseMs)];
      await redis.eval(RELEASE, { keys: [key(lease.group), tombstones(lease.group)], arguments: args });
    },
  };
}
