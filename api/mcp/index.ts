// The MCP server at /mcp: Streamable HTTP (stateless: one server and transport per request), the
// same Bearer keys, feature gate and request limits as the Voice API. The connected app is the
// client name declared at initialize; it travels back in Mcp-Session-Id, so any replica reads it.
import { randomBytes } from 'node:crypto';
import { Router, type ErrorRequestHandler, type Request } from 'express';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Ctx } from '../../pkg/context.js';
import { TooManyRequests } from '../../pkg/errors.js';
import type { RateLimits } from '../../pkg/limits/rate-limit.js';
import { requireFeature } from '../../pkg/store/tenants.js';
import { appName } from '../../pkg/metering/app.js';
import { authenticateBearer, principalOf } from '../http/authentication.js';
import { admit } from '../http/limits.js';
import { jsonBody, unreadableBody } from '../http/body-errors.js';
import { tooDeepRefusal } from '../http/depth.js';
import { voiceErrorHandler } from '../voice/errors.js';
import { mcpServer } from './tools.js';

const SESSION = /^sb1\.[A-Za-z0-9_-]+\.([A-Za-z0-9_-]*)$/;

/** A session id that carries the app's name (not a secret: the client declared it). */
const sessionIdFor = (app: string): string => `sb1.${randomBytes(12).toString('base64url')}.${Buffer.from(app).toString('base64url')}`;

type Message = { method?: unknown; params?: { clientInfo?: { name?: unknown } } };

const messagesOf = (body: unknown): Message[] =>
  (Array.isArray(body) ? body : [body]).filter((m): m is Message => !!m && typeof m === 'object');

function initializeOf(body: unknown): Message | undefined {
  return messagesOf(body).find((m) => m.method === 'initialize');
}

/** The app: the client's name at initialize, else the one carried by the session id. */
function appOf(req: Request): string {
  const init = initializeOf(req.body);
  if (init) return appName(typeof init.params?.clientInfo?.name === 'string' ? init.params.clientInfo.name : '');
  const match = SESSION.exec(req.get('mcp-session-id') ?? '');
  return match ? appName(Buffer.from(match[1]!, 'base64url').toString('utf8')) : '';
}

/** Over a limit, tool calls answer with a tool error saying when to retry; anything else answers 429. */
const onlyToolCalls = (body: unknown): boolean =>
  messagesOf(body).every((m) => m.method === 'tools/call' || (typeof m.method === 'string' && m.method.startsWith('notifications/')));

/** A body that cannot be read as JSON is JSON-RPC's parse error (-32700), which an MCP client understands. */
const parseError: ErrorRequestHandler = (err, _req, res, next) => {
  const unreadable = err?.type === 'entity.parse.failed' ? { status: 400, message: 'Request body is not valid JSON' } : unreadableBody(err);
  if (!unreadable) return next(err);
  res.status(unreadable.status).json({ jsonrpc: '2.0', error: { code: -32700, message: `Parse error: ${unreadable.message}` }, id: null });
};

export function mcpRouter(ctx: Ctx, deps: { limits: RateLimits }): Router {
  const r = Router();
  r.use(async (req, _res, next) => {
    const principal = await authenticateBearer(ctx, req);
    req.principal = principal;
    requireFeature(principal.tenant, 'voice_api');
    next();
  });
  r.use(jsonBody('128kb'));

  r.post('/', async (req, res) => {
    // Before the JSON-RPC layer or a tool reads the arguments: deep nesting overflows recursive checks.
    const tooDeep = tooDeepRefusal(req.body);
    if (tooDeep) {
      res.status(400).json({ jsonrpc: '2.0', error: { code: -32600, message: `Invalid Request: ${tooDeep.message}` }, id: null });
      return;
    }
    const principal = principalOf(req);
    const app = appOf(req);
    req.connectedApp = app;
    const decision = await admit(ctx, deps.limits, {
      tenantId: principal.tenant.id,
      keyId: principal.keyId,
      app,
      channel: 'mcp',
      perMinute: principal.tenant.requestsPerMinute,
    });
    if (!decision.allowed && !onlyToolCalls(req.body)) throw new TooManyRequests('Request rate limit exceeded', decision.retryAfterSec);

    const server = mcpServer(ctx, { principal, app, refused: decision.allowed ? null : decision });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    if (initializeOf(req.body)) res.setHeader('mcp-session-id', sessionIdFor(app));
    await server.connect(transport);
    await transport.handleRequest(req, res, req.body);
  });

  // Stateless: no server-initiated stream to open and no session to end.
  r.all('/', (_req, res) => {
    res
      .status(405)
      .setHeader('Allow', 'POST')
      .json({ jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed' }, id: null });
  });

  r.use(parseError);
  r.use(voiceErrorHandler(ctx.log));
  return r;
}
