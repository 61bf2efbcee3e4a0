// The Voice API's error shape, rendered once: `{error: {code, message}}`.
import type { ErrorRequestHandler, Response } from 'express';
import { z } from 'zod';
import { type DomainError, Invalid } from '../../pkg/errors.js';
import { domainErrorOf } from '../../pkg/db/unavailable.js';
import type { Logger } from '../../pkg/log.js';
import { clientAborted, unreadableBody } from '../http/body-errors.js';

export const voiceErrorSchema = z.object({ error: z.object({ code: z.string(), message: z.string() }) }).meta({ id: 'VoiceError' });

function sendVoiceError(res: Response, status: number, code: string, message: string): void {
  // Typed here: a route may have set its answer's type (a recording's audio/wav) before it failed.
  res.status(status).type('json').json({ error: { code, message } });
}

/** A field a domain refusal names, as this API spells it (`eventsUrl`: `events_url`). */
const wireName = (path: string): string => path.split('.')[0]!.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/**
 * A domain error as this surface answers it (DECISIONS.md "400 or 422"): Invalid naming a field is a
 * refused value, 422 `invalid_<field>`; Invalid naming none is what the endpoint could not read, 400
 * `invalid_json` (api/voice/parse.ts).
 */
export function voiceErrorOf(err: DomainError): { status: number; code: string; message: string } {
  if (!(err instanceof Invalid)) return { status: err.status, code: err.code, message: err.message };
  const refused = err.details[0];
  if (!refused) return { status: 400, code: 'invalid_json', message: err.message };
  const field = wireName(refused.path);
  return { status: 422, code: `invalid_${field}`, message: err.details.map((d) => `${wireName(d.path)}: ${d.message}`).join('; ') };
}

export function voiceErrorHandler(log: Logger): ErrorRequestHandler {
  return (err, req, res, _next) => {
    if (res.headersSent || clientAborted(err, req, log)) return;
    const domain = domainErrorOf(err) ?? unreadableBody(err);
    if (domain) {
      if (domain.retryAfterSec !== undefined) res.setHeader('Retry-After', String(domain.retryAfterSec));
      const { status, code, message } = voiceErrorOf(domain);
      return sendVoiceError(res, status, code, message);
    }
    if (err?.type === 'entity.parse.failed') return sendVoiceError(res, 400, 'invalid_json', 'Request body is not valid JSON');
    if (err?.type === 'entity.too.large') return sendVoiceError(res, 413, 'body_too_large', 'Request body is over 128 KB');
    log.error({ err, requestId: req.headers['x-request-id'] }, 'unexpected error');
    sendVoiceError(res, 500, 'internal', 'Failure on the service side; retry');
  };
}
