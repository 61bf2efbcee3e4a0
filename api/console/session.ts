// The console's session in HTTP: the `sb_session` cookie, `requireSession(role?)` for every console
// route, and the refusal of cross-site changes (Origin, Sec-Fetch-Site) and of changes without the
// session's CSRF token.
import type { Request, RequestHandler, Response } from 'express';
import type { Ctx } from '../../pkg/context.js';
import { publicUrl } from '../../pkg/config.js';
import { Forbidden, Unauthorized } from '../../pkg/errors.js';
import { requireRole, type Role } from '../../pkg/console/roles.js';
import { csrfMatches, findSession, type ConsoleSession } from '../../pkg/console/sessions.js';
import type { ConsoleUser } from '../../pkg/console/users.js';

const SESSION_COOKIE = 'sb_session';

/** The signed-in user of a console request. */
export interface ConsolePrincipal {
  user: ConsoleUser;
  tenantId: string;
  role: Role;
  session: ConsoleSession;
  /** The session's token, from the cookie. */
  token: string;
}

declare module 'express-serve-static-core' {
  interface Request {
    console?: ConsolePrincipal;
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The first value of the cookie `name` in the Cookie header. */
export function cookieValue(req: Request, name: string): string | undefined {
  for (const pair of (req.headers.cookie ?? '').split(/;\s*/)) {
    const eq = pair.indexOf('=');
    if (eq > 0 && pair.slice(0, eq) === name) return pair.slice(eq + 1) || undefined;
  }
  return undefined;
}

/** The first `sb_session` value of the Cookie header. */
export const sessionToken = (req: Request): string | undefined => cookieValue(req, SESSION_COOKIE);

/**
 * The scheme the browser used: a TLS-terminating proxy's X-Forwarded-Proto, else the connection's.
 * Trusting the header is safe here: it can only make the cookie stricter, and a cross-site page
 * cannot set it on a browser's request.
 */
const schemeOf = (req: Request): string => req.get('x-forwarded-proto')?.split(',')[0]?.trim().toLowerCase() || req.protocol;

const securedBy = (ctx: Ctx, req: Request): boolean => schemeOf(req) === 'https' || publicUrl(ctx.config).startsWith('https:');

/** Sets the console's cookie `name` until `expiresAt` (HttpOnly, SameSite=Lax, Secure behind https); an empty value at once clears it. */
export function setCookie(
  ctx: Ctx,
  req: Request,
  res: Response,
  cookie: { name: string; value: string; expiresAt: Date; path?: string },
): void {
  const maxAge = Math.max(0, Math.floor((cookie.expiresAt.getTime() - ctx.clock.now().getTime()) / 1000));
  const secure = securedBy(ctx, req) ? '; Secure' : '';
  res.append(
    'Set-Cookie',
    `${cookie.name}=${cookie.value}; Path=${cookie.path ?? '/'}; HttpOnly; SameSite=Lax; Max-Age=${maxAge}${secure}`,
  );
}

export function setSessionCookie(ctx: Ctx, req: Request, res: Response, token: string, expiresAt: Date): void {
  setCookie(ctx, req, res, { name: SESSION_COOKIE, value: token, expiresAt });
}

export function clearSessionCookie(ctx: Ctx, req: Request, res: Response): void {
  setCookie(ctx, req, res, { name: SESSION_COOKIE, value: '', expiresAt: new Date(0) });
}

/**
 * A change sent from another site is refused (403 `csrf_failed`): a `Sec-Fetch-Site` other than
 * same-origin (or none, typed by the user), or an `Origin` that is neither this server's nor
 * SWITCHBOARD_PUBLIC_URL's. Clients that send neither still need the CSRF token.
 */
export function refuseCrossSite(ctx: Ctx): RequestHandler {
  const publicOrigin = new URL(publicUrl(ctx.config)).origin;
  return (req, _res, next) => {
    if (SAFE_METHODS.has(req.method)) return next();
    const site = req.get('sec-fetch-site');
    if (site !== undefined && site !== 'same-origin' && site !== 'none') throw new Forbidden(`Refused a ${site} request`, 'csrf_failed');
    const origin = req.get('origin');
    if (origin !== undefined && origin !== publicOrigin && origin !== `${schemeOf(req)}://${req.get('host')}`) {
      throw new Forbidden('Refused a request from another origin', 'csrf_failed');
    }
    next();
  };
}

/**
 * Sets the request's console principal: 401 `not_signed_in` without a live session, 403 `forbidden`
 * below `role`, and for a change 403 `csrf_failed` without the session's `X-CSRF-Token`.
 */
export function requireSession(ctx: Ctx, role: Role = 'viewer'): RequestHandler {
  return async (req, _res, next) => {
    const token = sessionToken(req);
    const session = token ? await findSession(ctx, token) : null;
    if (!token || !session) throw new Unauthorized('Not signed in (or the session ended): sign in again', 'not_signed_in');
    if (!SAFE_METHODS.has(req.method) && !csrfMatches(token, req.get('x-csrf-token'))) {
      throw new Forbidden('Missing or wrong X-CSRF-Token header: use the csrf_token of the session', 'csrf_failed');
    }
    requireRole(session.user.role, role);
    req.console = { user: session.user, tenantId: session.account.id, role: session.user.role, session, token };
    next();
  };
}

export function principalOf(req: Request): ConsolePrincipal {
  if (!req.console) throw new Unauthorized('Not signed in', 'not_signed_in');
  return req.console;
}
