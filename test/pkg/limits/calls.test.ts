import { expect } from 'chai';
import { createClient, type RedisClientType } from 'redis';
import { ulid } from 'ulid';
import { ManualClock } from '../../support/clock.js';
import { TooManyRequests } from '../../../pkg/errors.js';
import { createCallLimits, type CallLimits } from '../../../pkg/limits/calls.js';
import { createRateLimits } from '../../../pkg/limits/rate-limit.js';
import { createLogger } from '../../../pkg/log.js';
import { createMetrics } from '../../../pkg/metrics/index.js';
import { reachableRedis, unreachableRedisUrl } from '../../support/redis.js';

const redisUrl = await reachableRedis();
const LEASE_MS = 10_000;

/** Whether the call got a slot under a cap of `max`: refused is a 429 tenant_busy. */
async function takes(limits: CallLimits, tenantId: string, callId: string, max: number): Promise<boolean> {
  try {
    await limits.acquireSlot({ id: tenantId, maxConcurrentCalls: max }, callId);
    return true;
  } catch (err) {
    if (err instanceof TooManyRequests && err.code === 'tenant_busy') return false;
    throw err;
  }
}

function behaves(make: (clock: ManualClock) => CallLimits) {
  let clock: ManualClock;
  let limits: CallLimits;
  let tenantId: string;
  beforeEach(() => {
    clock = new ManualClock();
    limits = make(clock);
    tenantId = `tnt_${ulid()}`;
  });
  const acquire = (callId: string, max: number) => takes(limits, tenantId, callId, max);
  const call = (id: string) => ({ tenant_id: tenantId, id });

  it('gives at most max slots per account, and one call holds one slot however often it asks', async () => {
    expect(await acquire('a', 2)).to.equal(true);
    expect(await acquire('a', 2)).to.equal(true);
    expect(await acquire('b', 2)).to.equal(true);
    expect(await acquire('c', 2)).to.equal(false);
    expect(await takes(limits, `tnt_${ulid()}`, 'c', 2)).to.equal(true);
  });

  it('frees a slot on release', async () => {
    await acquire('a', 1);
    await limits.releaseSlot(call('a'));
    expect(await acquire('b', 1)).to.equal(true);
  });

  it('frees a slot whose lease ran out, unless it was renewed', async () => {
    await acquire('a', 2);
    await acquire('b', 2);
    clock.advance(LEASE_MS - 1);
    await limits.renewSlots([call('a')]);
    clock.advance(1);
    expect(await acquire('c', 2)).to.equal(true);
    expect(await acquire('d', 2)).to.equal(false);
  });

  it('holds a slot renewed until a time (a call the carrier bridges) until then, or until released', async () => {
    await acquire('a', 2);
    await acquire('b', 2);
    await limits.renewSlots([call('a'), call('b')], new Date(clock.now().getTime() + 5 * LEASE_MS));
    clock.advance(5 * LEASE_MS - 1);
    expect(await acquire('c', 2)).to.equal(false);
    await limits.releaseSlot(call('b'));
    expect(await acquire('c', 2)).to.equal(true);
    clock.advance(1);
    expect(await acquire('d', 2)).to.equal(true);
  });

  it('does not bring back a released slot by renewing it', async () => {
    await acquire('a', 1);
    await limits.releaseSlot(call('a'));
    await limits.renewSlots([call('a')]);
    expect(await acquire('b', 1)).to.equal(true);
  });

  it("counts placements a minute against the account's own calls_per_minute", async () => {
    const tenant = { id: tenantId, callsPerMinute: 5 };
    for (let i = 0; i < 5; i++) expect((await limits.consumePlacement(tenant)).allowed).to.equal(true);
    const refused = await limits.consumePlacement(tenant);
    expect(refused.allowed).to.equal(false);
    expect(refused.retryAfterSec).to.be.within(1, 60);
  });
}

describe('Call limits', () => {
  const obs = { metrics: createMetrics(), log: createLogger('silent') };

  describe('in memory', () => {
    behaves((clock) => createCallLimits({ redis: null, limits: createRateLimits(null, obs), clock, log: obs.log, leaseMs: LEASE_MS }));
  });

  if (redisUrl) {
    describe('on Redis', () => {
      let redis: RedisClientType;
      before(async () => {
        redis = createClient({ url: redisUrl }) as RedisClientType;
        await redis.connect();
      });
      after(async () => {
        await redis.close();
      });
      behaves((clock) => createCallLimits({ redis, limits: createRateLimits(redis, obs), clock, log: obs.log, leaseMs: LEASE_MS }));

      it('takes again on renewal the slot of a live call that Redis lost (flushed or restarted empty)', async () => {
        const clock = new ManualClock();
        const tenantId = `tnt_${ulid()}`;
        const limits = createCallLimits({ redis, limits: createRateLimits(redis, obs), clock, log: obs.log, leaseMs: LEASE_MS });
        expect(await takes(limits, tenantId, 'a', 1)).to.equal(true);
        await redis.del(`sb:calls:slots:${tenantId}`);
        await limits.renewSlots([{ tenant_id: tenantId, id: 'a' }]);
        expect(await takes(limits, tenantId, 'b', 1)).to.equal(false);
      });

      it('does not fail a release Redis cannot do: the slot frees itself when its lease runs out', async () => {
        const clock = new ManualClock();
        const tenantId = `tnt_${ulid()}`;
        const leaving = createClient({ url: redisUrl, disableOfflineQueue: true }) as RedisClientType;
        await leaving.connect();
        const limits = createCallLimits({ redis: leaving, limits: createRateLimits(leaving, obs), clock, log: obs.log, leaseMs: LEASE_MS });
        expect(await takes(limits, tenantId, 'a', 1)).to.equal(true);
        await leaving.close();
        await limits.releaseSlot({ tenant_id: tenantId, id: 'a' });
        expect(await redis.zScore(`sb:calls:slots:${tenantId}`, 'a')).to.equal(LEASE_MS + clock.now().getTime());
      });

      it('goes back to Redis when it is back, releasing in memory the slots taken there meanwhile', async () => {
        const clock = new ManualClock();
        const tenantId = `tnt_${ulid()}`;
        // Not connected yet: Redis unavailable.
        const returning = createClient({ url: redisUrl, disableOfflineQueue: true }) as RedisClientType;
        const limits = createCallLimits({
          redis: returning,
          limits: createRateLimits(returning, obs),
          clock,
          log: obs.log,
          leaseMs: LEASE_MS,
        });
        const acquire = (callId: string, max: number) => takes(limits, tenantId, callId, max);
        try {
          expect(await acquire('a', 2)).to.equal(true);
          await returning.connect();
          expect(await acquire('b', 2)).to.equal(true);
          expect(await redis.zScore(`sb:calls:slots:${tenantId}`, 'b')).to.be.a('number');
          expect(await redis.zScore(`sb:calls:slots:${tenantId}`, 'a')).to.equal(null);
          // The slot still held in memory counts against the limit.
          expect(await acquire('c', 2)).to.equal(false);
          await limits.releaseSlot({ tenant_id: tenantId, id: 'a' });
          expect(await acquire('c', 2)).to.equal(true);
          expect(await redis.zScore(`sb:calls:slots:${tenantId}`, 'c')).to.be.a('number');
        } finally {
          await returning.close();
        }
      });
    });
  }

  describe('while Redis is unavailable', () => {
    let down: RedisClientType;
    const fallback = createMetrics();
    before(async () => {
      // Never connected: every command fails, as with Redis down.
      down = createClient({ url: await unreachableRedisUrl(), disableOfflineQueue: true }) as RedisClientType;
    });
    behaves((clock) => {
      const limits = createRateLimits(down, { metrics: fallback, log: obs.log });
      return createCallLimits({ redis: down, limits, clock, log: obs.log, leaseMs: LEASE_MS });
    });

    it('counts the slots and placements answered in memory in the fallback metric', async () => {
      const counts = Object.fromEntries((await fallback.rateLimiterFallback.get()).values.map((v) => [v.labels.scope, v.value]));
      expect(counts.call_slots).to.be.greaterThan(0);
      expect(counts.calls).to.be.greaterThan(0);
    });
  });
});
