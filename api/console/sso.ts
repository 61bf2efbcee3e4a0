// Single sign-on to the console (pkg/console/sso.ts) in HTTP: `GET /console/sso` sends the browser to
// the OpenID provider, `GET /console/sso/callback` signs it in from the provider's answer, and
// `GET /console/api/sign-in/options` tells the sign-in page whether to offer it. A refusal goes back
// to the sign-in page with `?sso_error=<reason>`; without SWITCHBOARD_OIDC_* both routes answer 404.
import { Router, type Response } from 'express';
import type { Ctx } from '../../pkg/context.js';
import { NotFound, TooManyRequests } from '../../pkg/errors.js';
import type { RateLimits } from '../../pkg/limits/rate-limit.js';
import { countClientAttempt } from '../../pkg/console/sign-in.js';
import { SingleSignOn, SsoRefused, ssoConfigured } from '../../pkg/console/sso.js';
import { cookieValue, sessionToken, setCookie, setSessionCookie } from './session.js';
import { clientAddress, consoleHome } from './sign-in.js';

const ATTEMPT_COOKIE = 'sb_sso';

/** The browser navigations under /console. */
export function ssoRouter(ctx: Ctx, deps: { limits: RateLimits }): Router {
  const r = Router();
  if (!ssoConfigured(ctx.config)) {
    r.get(['/sso', '/sso/callback'], () => {
      throw new NotFound('Single sign-on is not set up on this deployment', 'not_found');
    });
    return r;
  }
  const sso = new SingleSignOn(ctx);
  const home = consoleHome(ctx.config);
  // The attempt's cookie goes only to the callback.
  const cookiePath = `${home}console/sso`;
  const refuse = (res: Response, reason: string) => res.redirect(303, `${home}sign-in?sso_error=${reason}`);

  r.get('/sso', async (req, res) => {
    try {
      await countClientAttempt(ctx, deps.limits, clientAddress(req));
      const attempt = await sso.start(req.query.next);
      setCookie(ctx, req, res, { name: ATTEMPT_COOKIE, value: attempt.token, expiresAt: attempt.expiresAt, path: cookiePath });
      res.redirect(303, attempt.url);
    } catch (err) {
      if (err instanceof TooManyRequests) return refuse(res, 'rate_limited');
      if (!(err instanceof SsoRefused)) throw err;
      ctx.log.warn({ reason: err.reason, err: err.message }, 'console single sign-on refused');
      refuse(res, err.reason);
    }
  });

  r.get('/sso/callback', async (req, res) => {
    setCookie(ctx, req, res, { name: ATTEMPT_COOKIE, value: '', expiresAt: new Date(0), path: cookiePath });
    const query = req.originalUrl.indexOf('?');
    try {
      const { signedIn, returnTo } = await sso.finish(
        cookieValue(req, ATTEMPT_COOKIE),
        query < 0 ? '' : req.originalUrl.slice(query),
        sessionToken(req),
      );
      setSessionCookie(ctx, req, res, signedIn.token, signedIn.expiresAt);
      res.redirect(303, `${home}${returnTo.slice(1)}`);
    } catch (err) {
      if (!(err instanceof SsoRefused)) throw err;
      ctx.log.info({ reason: err.reason, err: err.message }, 'console single sign-on refused');
      refuse(res, err.reason);
    }
  });
  return r;
}

/** Under /console/api, without a session: how one may sign in here. */
export function signInOptionsRouter(ctx: Ctx): Router {
  const r = Router();
  r.get('/sign-in/options', (_req, res) => {
    res.json({ password: true, sso: ssoConfigured(ctx.config) });
  });
  return r;
}
