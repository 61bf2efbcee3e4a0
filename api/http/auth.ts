// Bearer API keys, checked on every request (never from a cache, so revocation holds at once), and
// the request rate limits: per key and, separately, per connected app. Every authenticated request
// is metered, including those refused by a limit.
import type { Request, RequestHandler } from 'express';
import type { Ctx } from '../../pkg/context.js';
import { TooManyRequests, Unauthorized } from '../../pkg/errors.js';
import { authenticate, type Principal } from '../../pkg/store/keys.js';
import type { RateDecision, RateLimits } from '../../pkg/limits/rate-limit.js';
import { appName } from '../../pkg/metering/app.js';
import type { UsageRef } from '../../pkg/metering/meter.js';

declare module 'express-serve-static-core' {
  interface Request {
    principal?: Principal;
    /** The connected app that made the request ('' when none was declared). */
    connectedApp?: string;
  }
}

/** The header naming the connected app on REST; MCP clients declare theirs at initialize. */
export const APP_HEADER = 'switchboard-app';

const BEARER = /^Bearer ([A-Za-z0-9_\-.~+/=]{8,512})$/;

/** The API key of an `Authorization: Bearer …` header; 401 when there is none. */
export function bearerKey(authorization: string | undefined): string {
  const match = BEARER.exec(authorization ?? '');
  if (!match) throw new Unauthorized();
  return match[1]!;
}

export async function authenticateBearer(ctx: Ctx, authorization: string | undefined): Promise<Principal> {
  return authenticate(ctx, bearerKey(authorization));
}

type LimitRef = UsageRef & { perMinute: number };

/** Counts one request against the key's limit and the app's (scoped to the account): whether it may proceed, else after how long the later of the two allows it. */
async function consume(limits: RateLimits, ref: LimitRef): Promise<RateDecision> {
  const app = appName(ref.app);
  const checks = [limits.consume('key', ref.keyId, ref.perMinute)];
  if (app) checks.push(limits.consume('app', `${ref.tenantId}:${app}`, ref.perMinute));
  const refused = (await Promise.all(checks)).filter((d) => !d.allowed);
  if (!refused.length) return { allowed: true, retryAfterSec: 0 };
  return { allowed: false, retryAfterSec: Math.max(...refused.map((d) => d.retryAfterSec)) };
}

/** Meters an authenticated request, refused or not. */
function meter(ctx: Ctx, ref: UsageRef, refused: boolean): void {
  const labels = { tenant: ref.tenantId, key: ref.keyId, channel: ref.channel };
  ctx.metrics.apiRequests.inc(labels);
  if (refused) ctx.metrics.apiRequestsOverLimit.inc(labels);
  ctx.usage.countRequest({ ...ref, app: appName(ref.app) }, refused);
}

/** Counts one request against its limits (consume) and meters it: whether it may proceed. */
export async function admit(ctx: Ctx, limits: RateLimits, ref: LimitRef): Promise<RateDecision> {
  const decision = await consume(limits, ref);
  meter(ctx, ref, !decision.allowed);
  return decision;
}

const requestRef = (req: Request, principal: Principal): LimitRef => ({
  tenantId: principal.tenant.id,
  keyId: principal.keyId,
  app: appName(req.get(APP_HEADER)),
  channel: 'api',
  perMinute: principal.tenant.requestsPerMinute,
});

const refusal = (decision: RateDecision) => new TooManyRequests('Request rate limit exceeded', decision.retryAfterSec);

/** Lets the request of `principal` proceed if its limits allow (429 otherwise); the key's request from then on. */
async function admitRequest(ctx: Ctx, limits: RateLimits, req: Request, principal: Principal): Promise<void> {
  const ref = requestRef(req, principal);
  req.principal = principal;
  req.connectedApp = ref.app!;
  const decision = await admit(ctx, limits, ref);
  if (!decision.allowed) throw refusal(decision);
}

export function requireApiKey(ctx: Ctx, limits: RateLimits): RequestHandler {
  return async (req, _res, next) => {
    const principal = await authenticate(ctx, bearerKey(req.headers.authorization));
    req.timing?.mark('auth');
    await admitRequest(ctx, limits, req, principal);
    next();
  };
}

export function principalOf(req: Request): Principal {
  if (!req.principal) throw new Unauthorized();
  return req.principal;
}
