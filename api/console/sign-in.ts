// Signing in and out of the console, the one-time sign-in link, and setting one's password.
import { Router, type Request } from 'express';
import type { Ctx } from '../../pkg/context.js';
import { publicUrl, type Config } from '../../pkg/config.js';
import type { RateLimits } from '../../pkg/limits/rate-limit.js';
import { signInWithLink, signInWithPassword, signOut, signOutEverywhere } from '../../pkg/console/sign-in.js';
import { setPassword } from '../../pkg/console/set-password.js';
import { clearSessionCookie, principalOf, requireSession, sessionToken, setSessionCookie } from './session.js';
import { sessionView } from './views.js';

/** Where a request came from, for the limits of password attempts per client: behind a trusted proxy, the client it names. */
export const clientAddress = (req: Request): string => req.ip ?? 'unknown';

/** The API's routes under /console/api. */
export function signInRouter(ctx: Ctx, deps: { limits: RateLimits }): Router {
  const r = Router();
  r.post('/sign-in', async (req, res) => {
    const signedIn = await signInWithPassword(ctx, deps.limits, req.body, { client: clientAddress(req), previousToken: sessionToken(req) });
    setSessionCookie(ctx, req, res, signedIn.token, signedIn.expiresAt);
    res.json(sessionView(signedIn.session));
  });

  r.get('/session', requireSession(ctx), (req, res) => {
    res.json(sessionView(principalOf(req).session));
  });

  r.post('/sign-out', requireSession(ctx), async (req, res) => {
    const me = principalOf(req);
    await signOut(ctx, me.session, me.token);
    clearSessionCookie(ctx, req, res);
    res.status(204).end();
  });

  r.post('/sign-out-everywhere', requireSession(ctx), async (req, res) => {
    await signOutEverywhere(ctx, principalOf(req).session);
    clearSessionCookie(ctx, req, res);
    res.status(204).end();
  });

  r.post('/password', requireSession(ctx), async (req, res) => {
    const { current_password, ...rest } = req.body as Record<string, unknown>;
    const input = { ...rest, ...(current_password !== undefined ? { currentPassword: current_password } : {}) };
    await setPassword(ctx, deps.limits, principalOf(req).session, input, clientAddress(req));
    res.status(204).end();
  });
  return r;
}

/** A request's path as logged: the token of a sign-in link is a secret until it is used. */
export const loggedPath = (path: string): string => path.replace(/^\/console\/sign-in\/[^/]+/, '/console/sign-in/…');

/** Where the console's front end is (ending in `/`), behind a proxy that serves it under a path too. */
export const consoleHome = (config: Config): string => `${new URL(publicUrl(config)).pathname.replace(/\/+$/, '')}/`;

/** `GET /console/sign-in/:token`: the link signs the browser in and sends it to the console (to set a password first when it has none). */
export function signInLinkRouter(ctx: Ctx): Router {
  const r = Router();
  const home = consoleHome(ctx.config);
  // A link checker's HEAD does not use the link up (express would answer it with the GET route).
  r.head('/sign-in/:token', (_req, res) => {
    res.status(200).end();
  });
  r.get('/sign-in/:token', async (req, res) => {
    const signedIn = await signInWithLink(ctx, req.params.token!, sessionToken(req));
    setSessionCookie(ctx, req, res, signedIn.token, signedIn.expiresAt);
    res.redirect(303, signedIn.session.user.passwordSet ? home : `${home}?set-password=1`);
  });
  return r;
}
