// Request rate limits: per key and, separately, per connected app.
import type { RequestHandler } from 'express';
import type { Ctx } from '../../pkg/context.js';
import { TooManyRequests } from '../../pkg/errors.js';
import type { RateDecision, RateLimits } from '../../pkg/limits/rate-limit.js';
import type { UsageRef } from '../../pkg/metering/meter.js';
import { principalOf } from './authentication.js';
import { meterRequest } from './metering.js';

type LimitRef = UsageRef & { perMinute: number };

/** Requests a key has made this minute against its limit (the console shows how close it is). */
export const keyRequestsThisMinute = (limits: RateLimits, keyId: string, perMinute: number): Promise<number> =>
  limits.used('key', keyId, perMinute);

/** Counts one request against the key's limit and the app's (scoped to the tenant): whether it may proceed, else after how long the later of the two allows it. */
async function consume(limits: RateLimits, ref: LimitRef): Promise<RateDecision> {
  const { app } = ref;
  const checks = [limits.consume('key', ref.keyId, ref.perMinute)];
  if (app) checks.push(limits.consume('app', `${ref.tenantId}:${app}`, ref.perMinute));
  const refused = (await Promise.all(checks)).filter((d) => !d.allowed);
  if (!refused.length) return { allowed: true, retryAfterSec: 0 };
  return { allowed: false, retryAfterSec: Math.max(...refused.map((d) => d.retryAfterSec)) };
}

/** Counts one request against its limits (consume) and meters it, refused or not: whether it may proceed. */
export async function admit(ctx: Ctx, limits: RateLimits, ref: LimitRef): Promise<RateDecision> {
  const decision = await consume(limits, ref);
  meterRequest(ctx, ref, !decision.allowed);
  return decision;
}

/** Lets an authenticated REST request proceed if its limits allow; 429 otherwise. */
export function limitRequests(ctx: Ctx, limits: RateLimits): RequestHandler {
  return async (req, _res, next) => {
    const { tenant, keyId } = principalOf(req);
    const ref = { tenantId: tenant.id, keyId, app: req.connectedApp, channel: 'api' as const, perMinute: tenant.requestsPerMinute };
    const decision = await admit(ctx, limits, ref);
    if (!decision.allowed) throw new TooManyRequests('Request rate limit exceeded', decision.retryAfterSec);
    next();
  };
}
