// Request rate limits: exact across replicas with Redis, in memory without it. While Redis is
// unavailable each replica counts on its own (the insurance limiter), so requests never fail for it.
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { RedisClientType } from 'redis';
import type { Logger } from '../log.js';
import type { Metrics } from '../metrics/index.js';

export interface RateDecision {
  allowed: boolean;
  retryAfterSec: number;
}

export interface RateLimits {
  /** Count one request for `key` against `perMinute`. */
  consume(scope: string, key: string, perMinute: number): Promise<RateDecision>;
  /**
   * Like `consume`, but each request refused within a day doubles how long `key` stays refused
   * (a minute, two, four… up to `maxBlockSec`): hammering a limit makes its wait grow.
   */
  consumeBackingOff(scope: string, key: string, perMinute: number, maxBlockSec: number): Promise<RateDecision>;
  /** How much of `key`'s limit the current minute has used, without counting a request. */
  used(scope: string, key: string, perMinute: number): Promise<number>;
  /** Say that a limit of `scope` was answered in this replica's memory because Redis was unavailable. */
  fellBack(scope: string): void;
}

/** The in-memory limiter rate-limiter-flexible falls back to when a Redis command fails; says when it is used. */
class InsuranceLimiter extends RateLimiterMemory {
  constructor(
    opts: ConstructorParameters<typeof RateLimiterMemory>[0],
    private readonly onUse: () => void,
  ) {
    super(opts);
  }
  override consume(...args: Parameters<RateLimiterMemory['consume']>): Promise<RateLimiterRes> {
    this.onUse();
    return super.consume(...args);
  }
}

export function createRateLimits(redis: RedisClientType | null, obs: { metrics: Metrics; log: Logger }): RateLimits {
  // One log line per outage: set on the first fallback, cleared when Redis is ready again.
  let degraded = false;
  redis?.on('ready', () => {
    if (degraded) obs.log.info('redis is back: rate limits are shared across replicas again');
    degraded = false;
  });
  const fellBack = (scope: string) => {
    obs.metrics.rateLimiterFallback.inc({ scope });
    if (degraded) return;
    degraded = true;
    obs.log.warn('redis unavailable: rate limits fall back to per-replica in-memory counting');
  };

  // One limiter per (scope, limit): a tenant's own setting may differ from its neighbours'.
  const limiters = new Map<string, RateLimiterAbstract>();
  const limiter = (scope: string, points: number, duration = 60): RateLimiterAbstract => {
    const name = duration === 60 ? `${scope}:${points}` : `${scope}:${points}:${duration}s`;
    let found = limiters.get(name);
    if (!found) {
      const opts = { keyPrefix: `sb:rl:${name}`, points, duration };
      found = redis
        ? new RateLimiterRedis({
            ...opts,
            storeClient: redis,
            useRedisPackage: true,
            // Not ready (down, reconnecting): straight to the insurance limiter instead of waiting.
            rejectIfRedisNotReady: true,
            insuranceLimiter: new InsuranceLimiter(opts, () => fellBack(scope)),
          })
        : new RateLimiterMemory(opts);
      limiters.set(name, found);
    }
    return found;
  };
  const consume = async (scope: string, key: string, perMinute: number): Promise<RateDecision> => {
    try {
      await limiter(scope, perMinute).consume(key);
      return { allowed: true, retryAfterSec: 0 };
    } catch (res) {
      if (res instanceof RateLimiterRes) return { allowed: false, retryAfterSec: Math.max(1, Math.ceil(res.msBeforeNext / 1000)) };
      throw res;
    }
  };
  return {
    fellBack,
    consume,
    async consumeBackingOff(scope, key, perMinute, maxBlockSec) {
      const decision = await consume(scope, key, perMinute);
      if (decision.allowed) return decision;
      const refusedToday = (await limiter(`${scope}:refused`, Number.MAX_SAFE_INTEGER, 24 * 3600).consume(key)).consumedPoints;
      const blockSec = Math.min(60 * 2 ** Math.min(refusedToday - 1, 20), maxBlockSec);
      await limiter(scope, perMinute).block(key, blockSec);
      return { allowed: false, retryAfterSec: blockSec };
    },
    async used(scope, key, perMinute) {
      return (await limiter(scope, perMinute).get(key))?.consumedPoints ?? 0;
    },
  };
}
