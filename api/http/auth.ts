// Bearer API keys, checked on every request (never from a cache, so revocation holds at once), and
// the request rate limits: per key and, separately, per connected app. Every authenticated request
// is metered, including those refused by a limit. A route whose statement can confirm the key
// itself counts a known key's request against its limits first (KnownKeys, admitKnown).
import type { Request, RequestHandler } from 'express';
import type { Ctx } from '../../pkg/context.js';
import { TooManyRequests, Unauthorized } from '../../pkg/errors.js';
import { sha256 } from '../../pkg/ids.js';
import { authenticate, principalFrom, type Principal } from '../../pkg/store/keys.js';
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

const requestRef = (req: Request, { keyId, tenantId, perMinute }: KeyIdentity): LimitRef => ({
  tenantId,
  keyId,
  app: appName(req.get(APP_HEADER)),
  channel: 'api',
  perMinute,
});

const refusal = (decision: RateDecision) => new TooManyRequests('Request rate limit exceeded', decision.retryAfterSec);

/** Lets the request of `principal` proceed if its limits allow (429 otherwise); the key's request from then on. */
export async function admitRequest(ctx: Ctx, limits: RateLimits, req: Request, principal: Principal): Promise<void> {
  const ref = requestRef(req, identityOf(principal));
  req.principal = principal;
  req.connectedApp = ref.app!;
  const decision = await admit(ctx, limits, ref);
  if (!decision.allowed) throw refusal(decision);
}

/** What a key was last found to be: enough to count a request against its limits. */
export interface KeyIdentity {
  keyId: string;
  tenantId: string;
  perMinute: number;
}

const identityOf = (principal: Principal): KeyIdentity => ({
  keyId: principal.keyId,
  tenantId: principal.tenant.id,
  perMinute: principal.tenant.requestsPerMinute,
});

/**
 * The keys this process has authenticated, by their token's SHA-256 (never the token). Used only
 * to count a request against its limits before the statement that both confirms the key and does
 * the work: never to let a request in. The least recently used are forgotten past `max`.
 */
export class KnownKeys {
  private readonly byHash = new Map<string, KeyIdentity>();
  constructor(private readonly max = 10_000) {}

  get(rawKey: string): KeyIdentity | undefined {
    const hash = sha256(rawKey);
    const identity = this.byHash.get(hash);
    if (identity) {
      this.byHash.delete(hash);
      this.byHash.set(hash, identity);
    }
    return identity;
  }

  note(rawKey: string, principal: Principal): void {
    const hash = sha256(rawKey);
    this.byHash.delete(hash);
    this.byHash.set(hash, identityOf(principal));
    if (this.byHash.size > this.max) this.byHash.delete(this.byHash.keys().next().value!);
  }

  forget(rawKey: string): void {
    this.byHash.delete(sha256(rawKey));
  }
}

/**
 * A request whose key is known (KnownKeys) and whose work confirms the key in its own statement:
 * counted against its limits first, then `work` runs and gives the key's lookup row (undefined: no
 * live key, 401; the work made nothing). Refused by a limit, the key is confirmed on its own first
 * (401 before 429). Returns what the work made; the principal goes on `req`, as requireApiKey's.
 */
export async function admitKnown<T>(
  ctx: Ctx,
  limits: RateLimits,
  known: KnownKeys,
  req: Request,
  rawKey: string,
  identity: KeyIdentity,
  work: () => Promise<{ key: Record<string, any> | undefined; made: T }>,
): Promise<T> {
  const ref = requestRef(req, identity);
  req.connectedApp = ref.app!;
  const decision = await consume(limits, ref);
  if (!decision.allowed) {
    req.principal = await authenticate(ctx, rawKey);
    meter(ctx, requestRef(req, identityOf(req.principal)), true);
    throw refusal(decision);
  }
  const { key, made } = await work();
  if (!key) known.forget(rawKey);
  req.principal = await principalFrom(ctx, key);
  known.note(rawKey, req.principal);
  meter(ctx, requestRef(req, identityOf(req.principal)), false);
  return made;
}

export function requireApiKey(ctx: Ctx, limits: RateLimits, known?: KnownKeys): RequestHandler {
  return async (req, _res, next) => {
    const apiKey = bearerKey(req.headers.authorization);
    const principal = await authenticate(ctx, apiKey);
    known?.note(apiKey, principal);
    req.timing?.mark('auth');
    await admitRequest(ctx, limits, req, principal);
    next();
  };
}

export function principalOf(req: Request): Principal {
  if (!req.principal) throw new Unauthorized();
  return req.principal;
}
