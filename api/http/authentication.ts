// Bearer API keys, checked on every request: never from a cache, so revocation holds at once.
import type { Request, RequestHandler } from 'express';
import { isUtf8 } from 'node:buffer';
import type { Ctx } from '../../pkg/context.js';
import { BadRequest, Unauthorized } from '../../pkg/errors.js';
import { authenticate, type Principal } from '../../pkg/store/keys.js';
import { appName } from '../../pkg/metering/app.js';

declare module 'express-serve-static-core' {
  interface Request {
    principal?: Principal;
    /** The connected app that made the request ('' when none was declared). */
    connectedApp?: string;
  }
}

/** The header naming the connected app on REST; MCP clients declare theirs at initialize. */
const APP_HEADER = 'Switchboard-App';

const BEARER = /^Bearer ([A-Za-z0-9_\-.~+/=]{8,512})$/;

/** The API key of an `Authorization: Bearer …` header; 401 when there is none. */
function bearerKey(authorization: string | undefined): string {
  const match = BEARER.exec(authorization ?? '');
  if (!match) throw new Unauthorized();
  return match[1]!;
}

/** The request's principal by its one Authorization header; Node keeps only the first of several, so they are counted raw. */
export async function authenticateBearer(ctx: Ctx, req: Request): Promise<Principal> {
  const authorizations = req.rawHeaders.filter((name, i) => i % 2 === 0 && name.toLowerCase() === 'authorization').length;
  if (authorizations > 1) throw new BadRequest('Send one Authorization header, not several');
  return authenticate(ctx, bearerKey(req.headers.authorization));
}

/** A header's text as the UTF-8 its bytes are (Node hands each byte over as a character); 400 when they are not UTF-8. */
function utf8Header(req: Request, name: string): string | undefined {
  const value = req.get(name);
  if (value === undefined) return undefined;
  const bytes = Buffer.from(value, 'latin1');
  if (!isUtf8(bytes)) throw new BadRequest(`The ${name} header must be UTF-8`);
  return bytes.toString('utf8');
}

/** Sets the request's principal (401 without a live key) and its connected app. */
export function requireApiKey(ctx: Ctx): RequestHandler {
  return async (req, _res, next) => {
    req.principal = await authenticateBearer(ctx, req);
    req.connectedApp = appName(utf8Header(req, APP_HEADER));
    req.timing?.mark('auth');
    next();
  };
}

export function principalOf(req: Request): Principal {
  if (!req.principal) throw new Unauthorized();
  return req.principal;
}
