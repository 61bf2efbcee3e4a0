// The HTTP server: request ids and logs, health, the Agent API under /api/v1, the Voice API under
// /v1 and its MCP server at /mcp, the console's API under /console, its pages at / and the documentation at /docs.
import express, { type Express } from 'express';
import { jsonBody } from './http/body-errors.js';
import { randomUUID } from 'node:crypto';
import { createServer, type RequestListener, type Server } from 'node:http';
import type { Config } from '../pkg/config.js';
import type { Ctx } from '../pkg/context.js';
import { NotFound } from '../pkg/errors.js';
import { schemaIsCurrent } from '../pkg/db/index.js';
import type { RateLimits } from '../pkg/limits/rate-limit.js';
import { requireApiKey } from './http/authentication.js';
import { limitRequests } from './http/limits.js';
import { startTiming } from './http/timing.js';
import { refuseImpossiblePath } from './http/path.js';
import { refuseDeepBody } from './http/depth.js';
import { agentErrorHandler } from './http/errors.js';
import { conversationsRouter, turnRouter } from './agents/conversations.js';
import { triggersRouter } from './agents/triggers.js';
import { agentOpenApiDocument } from './agents/openapi.js';
import { voiceRouter } from './voice/index.js';
import { mcpRouter } from './mcp/index.js';
import { consoleWebRouter } from './console/web.js';
import { docsSiteRouter } from './docs/site.js';
import { consoleRouter } from './console/index.js';
import { loggedPath } from './console/sign-in.js';

/** Prometheus's /metrics, alone, for the metrics port (SWITCHBOARD_METRICS_PORT) of every server process. */
export function metricsApp(ctx: Ctx): Express {
  const app = express();
  app.disable('x-powered-by');
  app.get('/metrics', async (_req, res) => {
    res.setHeader('Content-Type', ctx.metrics.registry.contentType);
    res.send(await ctx.metrics.registry.metrics());
  });
  app.use((_req, res) => {
    res.status(404).json({ error: 'No such endpoint' });
  });
  return app;
}

/** Liveness and readiness, served by every server process (API and controllers) on its port. */
export function healthRouter(ctx: Ctx): express.Router {
  const r = express.Router();
  r.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  r.get('/readyz', async (_req, res) => {
    const ready = await schemaIsCurrent(ctx.db).catch(() => false);
    res.status(ready ? 200 : 503).json({ status: ready ? 'ready' : 'not ready' });
  });
  return r;
}

export function createApp(ctx: Ctx, deps: { limits: RateLimits }): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  // None by default: an X-Forwarded-For from anyone else would let a client choose its own address.
  app.set('trust proxy', ctx.config.SWITCHBOARD_TRUSTED_PROXIES.length ? ctx.config.SWITCHBOARD_TRUSTED_PROXIES : false);

  app.use(startTiming);
  app.use((req, res, next) => {
    const requestId = (req.headers['x-request-id'] as string | undefined)?.slice(0, 128) || randomUUID();
    req.headers['x-request-id'] = requestId;
    res.setHeader('X-Request-Id', requestId);
    const started = process.hrtime.bigint();
    // Taken before routing, which strips a router's mount path from req.path.
    const path = loggedPath(req.path);
    res.on('finish', () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      // The route template, never the raw path: ids would make every request its own series.
      const route = req.route ? `${req.baseUrl}${req.route.path}` : 'unmatched';
      ctx.metrics.httpRequests.inc({ method: req.method, route, status: String(res.statusCode) });
      ctx.metrics.httpDuration.observe({ method: req.method, route }, seconds);
      ctx.log.info(
        {
          requestId,
          method: req.method,
          path,
          status: res.statusCode,
          ms: seconds * 1000,
          tenantId: req.principal?.tenant.id,
        },
        'request',
      );
    });
    next();
  });

  app.use(healthRouter(ctx));

  const api = express.Router();
  api.use(refuseImpossiblePath);
  const document = agentOpenApiDocument();
  api.get('/openapi.json', (_req, res) => {
    res.json(document);
  });
  const json = jsonBody('1mb');
  // The key is checked before the body is read: an unauthenticated request learns nothing else.
  api.use(requireApiKey(ctx));
  api.use(limitRequests(ctx, deps.limits));
  api.use(json);
  api.use(refuseDeepBody);
  api.use(conversationsRouter(ctx));
  api.use(turnRouter(ctx));
  api.use(triggersRouter(ctx));
  api.use(() => {
    throw new NotFound('No such endpoint');
  });
  api.use(agentErrorHandler(ctx.log));
  app.use('/api/v1', api);
  app.use('/v1', voiceRouter(ctx, deps));
  app.use('/mcp', mcpRouter(ctx, deps));
  app.use('/console', consoleRouter(ctx, deps));
  // Last: its page answers only paths none of the APIs own (and the site's none of the console's).
  app.use(consoleWebRouter());
  app.use('/docs', docsSiteRouter());

  app.use((_req, res) => {
    res.status(404).json({ error: 'No such endpoint' });
  });
  return app;
}

/**
 * The HTTP server of every process. A client has SWITCHBOARD_HEADERS_TIMEOUT_SEC to send a request's
 * headers and SWITCHBOARD_REQUEST_TIMEOUT_SEC to send all of it (else 408, and the connection closes),
 * so slow senders cannot hold connections; the answer (an SSE stream, a long poll) is not limited.
 */
export function createHttpServer(config: Config, app: RequestListener): Server {
  const requestMs = config.SWITCHBOARD_REQUEST_TIMEOUT_SEC * 1000;
  const server = createServer(
    {
      requestTimeout: requestMs,
      // Node refuses a headers timeout longer than the whole request's.
      headersTimeout: Math.min(config.SWITCHBOARD_HEADERS_TIMEOUT_SEC * 1000, requestMs),
      // Connections are checked against both every second (Node's default, 30 s, would overrun short timeouts).
      connectionsCheckingInterval: 1000,
    },
    app,
  );
  // Longer than a typical load balancer's idle timeout, so it closes idle connections first.
  server.keepAliveTimeout = 65_000;
  return server;
}
