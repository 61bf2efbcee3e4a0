// A request body that cannot be read (body-parser's errors besides malformed JSON and a body too
// large, which each surface words itself), as the domain error every surface renders; the JSON body
// parser of every surface (no body reads as `{}`); and a client that went away mid-request, which is
// no fault of the server.
import express, { type Request, type RequestHandler } from 'express';
import { isUtf8 } from 'node:buffer';
import { type DomainError, Invalid, UnsupportedMediaType } from '../../pkg/errors.js';
import type { Logger } from '../../pkg/log.js';

interface BodyParserError {
  type?: string;
  status?: number;
  expose?: boolean;
  charset?: string;
  encoding?: string;
}

const NOT_UTF8 = 'body.not_utf8';

/**
 * express.json, refusing a body whose bytes are not UTF-8 rather than reading U+FFFD in their place.
 * A request with no body, or an empty one whatever its Content-Type, reads as `{}`, as an empty JSON
 * body does (DECISIONS.md "Action endpoints and their body"): each route's schema then decides.
 */
export function jsonBody(limit: string): RequestHandler {
  const json = express.json({
    limit,
    verify: (_req, _res, bytes) => {
      if (!isUtf8(bytes)) throw Object.assign(new Error('Request body is not UTF-8'), { status: 400, expose: true, type: NOT_UTF8 });
    },
  });
  return (req, res, next) => {
    json(req, res, (err?: unknown) => {
      if (err) return next(err);
      if (req.body === undefined && !sentBytes(req)) req.body = {};
      next();
    });
  };
}

/** Whether the request says it carries body bytes: a Content-Length above 0, or a chunked body (which may hold some). */
function sentBytes(req: Request): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/** The error to answer for a body that could not be read; undefined when `err` is something else. */
export function unreadableBody(err: unknown): DomainError | undefined {
  const e = (err ?? {}) as BodyParserError;
  // No field is refused: the body as a whole is not text (the Voice API's 400 invalid_json).
  if (e.type === NOT_UTF8) return new Invalid('Request body is not UTF-8: send JSON in UTF-8');
  if (e.type === 'charset.unsupported') return new UnsupportedMediaType(`Unsupported charset "${e.charset}": send JSON in UTF-8`);
  if (e.type === 'encoding.unsupported')
    return new UnsupportedMediaType(`Unsupported Content-Encoding "${e.encoding}": send identity, gzip, deflate or br`);
  // Other exposed 400s of body-parser: a body that does not decompress, or is not its Content-Length.
  if (e.expose === true && e.status === 400 && e.type !== 'request.aborted' && e.type !== 'entity.parse.failed') {
    // No field is refused: the body as a whole could not be read (the Voice API's 400 invalid_json).
    return new Invalid('Request body could not be read as its Content-Encoding and Content-Length say');
  }
  return undefined;
}

/** The client closed its connection before its request was read: logged, not answered (nobody is listening). */
export function clientAborted(err: unknown, req: Request, log: Logger): boolean {
  if ((err as BodyParserError | undefined)?.type !== 'request.aborted') return false;
  log.info({ requestId: req.headers['x-request-id'], method: req.method, path: req.path }, 'client aborted its request');
  return true;
}
