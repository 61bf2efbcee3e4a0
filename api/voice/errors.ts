// The Voice API's error shape, rendered once: `{error: {code, message}}`.
import type { ErrorRequestHandler, Response } from 'express';
import { z } from 'zod';
import { DomainError, Invalid } from '../../pkg/errors.js';
import { domainErrorOf } from '../../pkg/db/unavailable.js';
import type { Logger } from '../../pkg/log.js';

export const voiceErrorSchema = z
  .object({ error: z.object({ code: z.string(), message: z.string() }) })
  .meta({ id: 'VoiceError' });

export function sendVoiceError(res: Response, status: number, code: string, message: string): void {
  res.status(status).json({ error: { code, message } });
}

/** Every 400 of this surface is `invalid_json`: a body that is not JSON or has a field it does not take. */
export const codeOf = (err: DomainError): string => (err instanceof Invalid ? 'invalid_json' : err.code);

export function voiceErrorHandler(log: Logger): ErrorRequestHandler {
  return (err, req, res, _next) => {
    if (res.headersSent) return;
    const domain = domainErrorOf(err);
    if (domain) {
      if (domain.retryAfterSec !== undefined) res.setHeader('Retry-After', String(domain.retryAfterSec));
      return sendVoiceError(res, domain.status, codeOf(domain), domain.message);
    }
    if (err?.type === 'entity.parse.failed') return sendVoiceError(res, 400, 'invalid_json', 'Request body is not valid JSON');
    if (err?.type === 'entity.too.large') return sendVoiceError(res, 413, 'body_too_large', 'Request body is over 128 KB');
    log.error({ err, requestId: req.headers['x-request-id'] }, 'unexpected error');
    sendVoiceError(res, 500, 'internal', 'Failure on the service side; retry');
  };
}
