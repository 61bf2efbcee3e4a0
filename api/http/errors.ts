// The Agent API's error shape, rendered once: `{error, details?}` plus the fields the spec adds.
import type { ErrorRequestHandler, Response } from 'express';
import { z } from 'zod';
import { type DomainError, Invalid } from '../../pkg/errors.js';
import { domainErrorOf } from '../../pkg/db/unavailable.js';
import type { Logger } from '../../pkg/log.js';
import { invalid } from '../../pkg/validate.js';
import { clientAborted, unreadableBody } from './body-errors.js';

export const errorBodySchema = z
  .object({
    error: z.string(),
    details: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
  })
  .catchall(z.unknown())
  .meta({ id: 'Error' });

function sendAgentError(res: Response, err: DomainError): void {
  if (err.retryAfterSec !== undefined) res.setHeader('Retry-After', String(err.retryAfterSec));
  const body: Record<string, unknown> = { error: err.message, ...err.extra };
  if (err instanceof Invalid && err.details.length) body.details = err.details;
  // Typed here: a route may have set its answer's type before it failed.
  res.status(err.status).type('json').json(body);
}

/** Maps every error to the Agent API shape; unexpected ones are logged and answered 500. */
export function agentErrorHandler(log: Logger): ErrorRequestHandler {
  return (err, req, res, _next) => {
    if (res.headersSent || clientAborted(err, req, log)) return;
    const domain = domainErrorOf(err) ?? unreadableBody(err);
    if (domain) return sendAgentError(res, domain);
    if (err?.type === 'entity.parse.failed')
      return sendAgentError(res, invalid('request body', [{ path: 'body', message: 'Not valid JSON' }]));
    if (err?.type === 'entity.too.large') {
      res.status(413).json({ error: 'Request body is too large' });
      return;
    }
    log.error({ err, requestId: req.headers['x-request-id'] }, 'unexpected error');
    res.status(500).json({ error: 'Unexpected processing failure' });
  };
}
