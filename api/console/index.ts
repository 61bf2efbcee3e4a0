// The console's JSON API under /console/api and its one-time sign-in links under /console/sign-in:
// sessions from a cookie, not API keys (not rate limited, not metered); the Voice API's error shape.
import { Router } from 'express';
import type { Ctx } from '../../pkg/context.js';
import { Invalid, NotFound } from '../../pkg/errors.js';
import type { RateLimits } from '../../pkg/limits/rate-limit.js';
import { jsonBody } from '../http/body-errors.js';
import { refuseImpossiblePath } from '../http/path.js';
import { voiceErrorHandler } from '../voice/errors.js';
import { refuseUnstorableText } from '../voice/unstorable-text.js';
import { callsRouter } from './calls.js';
import { refuseCrossSite } from './session.js';
import { signInLinkRouter, signInRouter } from './sign-in.js';
import { usageRouter } from './usage.js';
import { numbersRouter } from './numbers.js';
import { usersRouter } from './users.js';
import { accessRouter } from './access.js';
import { agentsRouter } from './agents.js';
import { conversationsRouter } from './conversations.js';
import { jobsRouter } from './jobs.js';
import { signInOptionsRouter, ssoRouter } from './sso.js';
import { campaignsRouter } from './campaigns.js';
import { queuesRouter } from './queues.js';
import { mailboxesRouter } from './mailboxes.js';
import { billingRouter } from './billing.js';

export function consoleRouter(ctx: Ctx, deps: { limits: RateLimits }): Router {
  const r = Router();
  r.use(refuseImpossiblePath);
  // Answers about a signed-in person are never kept by a shared cache (the assets beside them are).
  r.use(['/api', '/sign-in', '/sso'], (_req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    next();
  });
  r.use(signInLinkRouter(ctx));
  r.use(ssoRouter(ctx, deps));

  const api = Router();
  api.use(refuseCrossSite(ctx));
  api.use(jsonBody('128kb'));
  api.use((req, _res, next) => {
    req.body ??= {};
    if (typeof req.body !== 'object' || Array.isArray(req.body)) throw new Invalid('Body must be a JSON object');
    next();
  });
  api.use(refuseUnstorableText);
  api.use(signInRouter(ctx, deps));
  api.use(usersRouter(ctx));
  api.use(callsRouter(ctx));
  api.use(accessRouter(ctx));
  api.use(jobsRouter(ctx), conversationsRouter(ctx), agentsRouter(ctx));
  api.use(usageRouter(ctx, deps.limits));
  api.use(numbersRouter(ctx));
  api.use(signInOptionsRouter(ctx));
  api.use(campaignsRouter(ctx));
  api.use(queuesRouter(ctx), mailboxesRouter(ctx));
  api.use(billingRouter(ctx));
  api.use(() => {
    throw new NotFound('No such endpoint', 'not_found');
  });
  r.use('/api', api);
  r.use(voiceErrorHandler(ctx.log));
  return r;
}
