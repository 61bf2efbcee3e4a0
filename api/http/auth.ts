// Bearer API keys, checked on every request (no caching, so revocation holds at once), then the
// per-key request rate limit.
import type { Request, RequestHandler } from 'express';
import type { Ctx } from '../../pkg/context.js';
import { TooManyRequests, Unauthorized } from '../../pkg/errors.js';
import { authenticate, type Principal } from '../../pkg/store/keys.js';
import type { RateLimits } from '../../pkg/limits/rate-limit.js';

declare module 'express-serve-static-core' {
  interface Request {
    principal?: Principal;
  }
}

const BEARER = /^Bearer ([A-Za-z0-9_\-.~+/=]{8,512})$/;

export function requireApiKey(ctx: Ctx, limits: RateLimits): RequestHandler {
  return async (req, _res, next) => {
    const match = BEARER.exec(req.headers.authorization ?? '');
    if (!match) throw new Unauthorized();
    const principal = await authenticate(ctx, match[1]!);
    const decision = await limits.consume('key', principal.keyId, principal.tenant.requestsPerMinute);
    const usage = { tenant: principal.tenant.id, key: principal.keyId, channel: 'api' };
    req.principal = principal;
    if (!decision.allowed) {
      ctx.metrics.apiRequestsOverLimit.inc(usage);
      throw new TooManyRequests('Request rate limit exceeded', decision.retryAfterSec);
    }
    ctx.metrics.apiRequests.inc(usage);
    next();
  };
}

export function principalOf(req: Request): Principal {
  if (!req.principal) throw new Unauthorized();
  return req.principal;
}
