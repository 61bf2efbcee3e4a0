// Request rate limits: exact across replicas with Redis, in memory without it.
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { RedisClientType } from 'redis';

export interface RateDecision {
  allowed: boolean;
  retryAfterSec: number;
}

export interface RateLimits {
  /** Count one request for `key` against `perMinute`. */
  consume(scope: string, key: string, perMinute: number): Promise<RateDecision>;
}

export function createRateLimits(redis: RedisClientType | null): RateLimits {
  // One limiter per (scope, limit): a company's own setting may differ from its neighbours'.
  const limiters = new Map<string, RateLimiterAbstract>();
  const limiter = (scope: string, points: number): RateLimiterAbstract => {
    const name = `${scope}:${points}`;
    let found = limiters.get(name);
    if (!found) {
      const opts = { keyPrefix: `sb:rl:${name}`, points, duration: 60 };
      found = redis ? new RateLimiterRedis({ ...opts, storeClient: redis, useRedisPackage: true }) : new RateLimiterMemory(opts);
      limiters.set(name, found);
    }
    return found;
  };
  return {
    async consume(scope, key, perMinute) {
      try {
        await limiter(scope, perMinute).consume(key);
        return { allowed: true, retryAfterSec: 0 };
      } catch (res) {
        if (res instanceof RateLimiterRes) return { allowed: false, retryAfterSec: Math.max(1, Math.ceil(res.msBeforeNext / 1000)) };
        throw res;
      }
    },
  };
}
