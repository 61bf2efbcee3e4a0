// Per-account call limits: calls placed per minute, and simultaneous-call slots. A slot is an
// expiring lease per call, renewed while the call is live and released the moment it ends, so a
// replica that crashes mid-call cannot leak it. Exact across replicas with Redis; in memory without.
import type { RedisClientType } from 'redis';
import type { Clock } from '../clock.js';
import type { RateDecision, RateLimits } from './rate-limit.js';

/** Calls an account may place per minute, API and MCP together (the spec's limit). */
export const CALLS_PER_MINUTE = 30;

export interface CallSlot {
  tenantId: string;
  callId: string;
}

export interface CallLimits {
  /** Count one placement against the account's per-minute limit. */
  consumePlacement(tenantId: string): Promise<RateDecision>;
  /** Take a slot for the call unless the account already holds `max` live ones. */
  acquire(slot: CallSlot, max: number): Promise<boolean>;
  /** Extend the leases of calls still live. */
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

export function createCallLimits(opts: { redis: RedisClientType | null; limits: RateLimits; clock: Clock; leaseMs: number }): CallLimits {
  const { redis, limits, clock, leaseMs } = opts;
  const key = (tenantId: string) => `sb:calls:slots:${tenantId}`;
  const consumePlacement = (tenantId: string) => limits.consume('calls', tenantId, CALLS_PER_MINUTE);

  if (redis) {
    return {
      consumePlacement,
      async acquire({ tenantId, callId }, max) {
        const now = clock.now().getTime();
        const args = [String(now), String(now + leaseMs), callId, String(max), String(KEY_TTL_MS)];
        return (await redis.eval(ACQUIRE, { keys: [key(tenantId)], arguments: args })) === 1;
      },
      async renew(slots) {
        if (!slots.length) return;
        const until = String(clock.now().getTime() + leaseMs);
        await redis.eval(RENEW, { keys: slots.map((s) => key(s.tenantId)), arguments: [until, ...slots.map((s) => s.callId)] });
      },
      async release({ tenantId, callId }) {
        await redis.zRem(key(tenantId), callId);
      },
    };
  }

  const held = new Map<string, Map<string, number>>();
  const slotsOf = (tenantId: string) => {
    let slots = held.get(tenantId);
    if (!slots) held.set(tenantId, (slots = new Map()));
    return slots;
  };
  return {
    consumePlacement,
    async acquire({ tenantId, callId }, max) {
      const now = clock.now().getTime();
      const slots = slotsOf(tenantId);
      for (const [id, until] of slots) if (until <= now) slots.delete(id);
      if (!slots.has(callId) && slots.size >= max) return false;
      slots.set(callId, now + leaseMs);
      return true;
    },
    async renew(list) {
      const until = clock.now().getTime() + leaseMs;
      for (const { tenantId, callId } of list) if (held.get(tenantId)?.has(callId)) held.get(tenantId)!.set(callId, until);
    },
    async release({ tenantId, callId }) {
      held.get(tenantId)?.delete(callId);
    },
  };
}
