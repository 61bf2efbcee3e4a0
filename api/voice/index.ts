// The Voice API under /v1: same keys as the Agent API, its own error shape.
import { Router } from 'express';
import { jsonBody } from '../http/body-errors.js';
import { carrierReachable } from '../../pkg/config.js';
import type { Ctx } from '../../pkg/context.js';
import { NotFound } from '../../pkg/errors.js';
import type { RateLimits } from '../../pkg/limits/rate-limit.js';
import { requireApiKey } from '../http/authentication.js';
import { limitRequests } from '../http/limits.js';
import { refuseImpossiblePath } from '../http/path.js';
import { refuseDeepBody } from '../http/depth.js';
import { voiceErrorHandler } from './errors.js';
import { refuseUnstorableText } from './unstorable-text.js';
import { callsRouter } from './calls.js';
import { tenantRouter } from './tenant.js';
import { reportsRouter } from './reports.js';
import { connectionsRouter } from './connections.js';
import { campaignsRouter } from './campaigns.js';
import { numbersRouter } from './numbers.js';
import { simRouter } from './sim.js';
import { queuesRouter } from './queues.js';
import { mailboxesRouter } from './mailboxes.js';
import { messagesRouter } from './messages.js';
import { voiceOpenApiDocument } from './openapi.js';
import { carrierRouter } from './carrier.js';
import { CARRIER_NAMES } from '../../pkg/voice/gateways/carrier.js';

export function voiceRouter(ctx: Ctx, deps: { limits: RateLimits }): Router {
  const r = Router();
  r.use(refuseImpossiblePath);
  const document = voiceOpenApiDocument();
  r.get('/openapi.json', (_req, res) => {
    res.json(document);
  });
  // The deployment's carrier, or accounts' own (which need the same https address), send requests here.
  if (carrierReachable(ctx.config)) for (const carrier of CARRIER_NAMES) r.use(`/carrier/${carrier}`, carrierRouter(ctx, carrier));
  r.use(requireApiKey(ctx));
  r.use(limitRequests(ctx, deps.limits));
  r.use(jsonBody('128kb'));
  r.use(refuseDeepBody);
  r.use(refuseUnstorableText);
  r.use(callsRouter(ctx));
  r.use(tenantRouter(ctx));
  r.use(reportsRouter(ctx));
  r.use(connectionsRouter(ctx));
  r.use(campaignsRouter(ctx));
  r.use(numbersRouter(ctx));
  // The simulated network rings only where there is no real one (sim.ts refuses accounts with their own).
  if (ctx.config.SWITCHBOARD_CARRIER === 'sim') r.use(simRouter(ctx));
  r.use(queuesRouter(ctx));
  r.use(mailboxesRouter(ctx));
  r.use(messagesRouter(ctx));
  r.use(() => {
    throw new NotFound('No such endpoint', 'not_found');
  });
  r.use(voiceErrorHandler(ctx.log));
  return r;
}
