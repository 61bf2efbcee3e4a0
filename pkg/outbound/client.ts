// The guarded outbound HTTP client of the product (custom tools, webhooks): https only, addresses the
// guard allows, no redirects to refused addresses, a timeout, a size cap.
import { lookup as dnsLookup } from 'node:dns';
import https from 'node:https';
import type { IncomingMessage } from 'node:http';
import { isIP, type LookupFunction } from 'node:net';
import type { Config } from '../config.js';
import { parseAllowList, type Guard } from './guard.js';

export interface OutboundRequest {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: string;
  headers?: Record<string, string>;
  body?: string;
  /** Overrides SWITCHBOARD_OUTBOUND_TIMEOUT_MS (a webhook's answer window). */
  timeoutMs?: number;
  /** False: a redirect is the answer, not followed (a webhook's receiver must answer 2xx itself). */
  followRedirects?: boolean;
  /** Overrides SWITCHBOARD_OUTBOUND_MAX_BYTES (a campaign list may be 4 MB). */
  maxBytes?: number;
}

interface OutboundResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** The body as received (audio, files). */
  bytes: Buffer;
  /** True when the body was cut at the configured size cap. */
  truncated: boolean;
}

export interface Outbound {
  request(req: OutboundRequest): Promise<OutboundResponse>;
}

/** Raised when a destination is refused or the request fails; the message is safe to show the model. */
export class OutboundError extends Error {}

const MAX_REDIRECTS = 5;
/**
 * A pooled connection idle this long is closed, sooner when the server's Keep-Alive hint says so
 * (Node takes a second off it, but only when a timeout is set): reusing one the server has just
 * closed fails the request (a call event has one try, a model call none). Under Node's 5 s, the
 * shortest common server timeout.
 */
export const IDLE_CONNECTION_MS = 4_000;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

interface Hop {
  url: URL;
  method: OutboundRequest['method'];
  headers: Record<string, string>;
  body?: string;
}

export function createOutbound(config: Config): Outbound {
  const guard = parseAllowList(config.SWITCHBOARD_OUTBOUND_ALLOW);
  // Our own agent, so a pooled socket is always one that went through the guarded lookup.
  const agent = new https.Agent({ keepAlive: true, timeout: IDLE_CONNECTION_MS });
  const lookup = guardedLookup(guard);
  const timeoutMs = config.SWITCHBOARD_OUTBOUND_TIMEOUT_MS;

  function send(hop: Hop, signal: AbortSignal): Promise<IncomingMessage> {
    const host = hop.url.hostname.replace(/^\[(.*)\]$/, '$1');
    // Node skips lookup for IP literals, so those are judged here.
    if (isIP(host) && !guard.allowsAddress(host)) {
      return Promise.reject(new OutboundError(`refused: ${host} is not a public address`));
    }
    return new Promise((resolve, reject) => {
      const fail = (err: unknown) => reject(err instanceof OutboundError ? err : failure(host, err));
      try {
        const req = https.request(
          {
            agent,
            lookup,
            host,
            port: hop.url.port || 443,
            path: hop.url.pathname + hop.url.search,
            method: hop.method,
            headers: hop.headers,
            auth: hop.url.username ? `${decodeURIComponent(hop.url.username)}:${decodeURIComponent(hop.url.password)}` : undefined,
            signal,
          },
          resolve,
        );
        req.on('error', fail);
        req.end(hop.body);
      } catch (err) {
        fail(err);
      }
    });
  }

  return {
    async request(req) {
      const limitMs = req.timeoutMs ?? timeoutMs;
      const signal = AbortSignal.timeout(limitMs);
      let hop: Hop = { url: httpsUrl(req.url), method: req.method, headers: req.headers ?? {}, body: req.body };
      try {
        for (let redirects = 0; ; redirects++) {
          const res = await send(hop, signal);
          const status = res.statusCode ?? 0;
          const location = res.headers.location;
          if (req.followRedirects === false || !REDIRECT_STATUSES.has(status) || !location)
            return await read(res, req.maxBytes ?? config.SWITCHBOARD_OUTBOUND_MAX_BYTES);
          res.destroy();
          if (redirects === MAX_REDIRECTS) throw new OutboundError(`refused: more than ${MAX_REDIRECTS} redirects`);
          hop = redirected(hop, status, location);
        }
      } catch (err) {
        if (signal.aborted) throw new OutboundError(`timed out after ${limitMs} ms`);
        throw err;
      }
    },
  };
}

/** A dns lookup that answers only with permitted addresses, so the address checked is the one connected to. */
function guardedLookup(guard: Guard): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, []);
      const permitted = guard.allowsName(hostname) ? addresses : addresses.filter((a) => guard.allowsAddress(a.address));
      if (permitted.length === 0) {
        return callback(new OutboundError(`refused: ${hostname} does not resolve to a public address`), []);
      }
      if (options.all) return callback(null, permitted);
      callback(null, permitted[0]!.address, permitted[0]!.family);
    });
  };
}

function redirected(hop: Hop, status: number, location: string): Hop {
  const url = httpsUrl(location, hop.url);
  const toGet = status === 303 || ((status === 301 || status === 302) && hop.method === 'POST');
  // Caller headers may carry credentials meant for the original origin only.
  const keep = (name: string) => (name.toLowerCase() === 'content-type' ? !toGet : url.origin === hop.url.origin);
  const headers = Object.fromEntries(Object.entries(hop.headers).filter(([name]) => keep(name)));
  return { url, method: toGet ? 'GET' : hop.method, headers, body: toGet ? undefined : hop.body };
}

function read(res: IncomingMessage, maxBytes: number): Promise<OutboundResponse> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = (truncated: boolean) => {
      const bytes = Buffer.concat(chunks);
      resolve({ status: res.statusCode ?? 0, headers: flatten(res.headers), body: bytes.toString('utf8'), bytes, truncated });
    };
    res.on('data', (chunk: Buffer) => {
      if (size + chunk.length > maxBytes) {
        chunks.push(chunk.subarray(0, maxBytes - size));
        res.destroy();
        done(true);
        return;
      }
      chunks.push(chunk);
      size += chunk.length;
    });
    res.on('end', () => done(false));
    // After 'end' or truncation the promise is settled and these are no-ops.
    res.on('error', () => reject(new OutboundError('the connection failed while reading the response')));
    res.on('close', () => reject(new OutboundError('the connection closed before the response was complete')));
  });
}

function httpsUrl(raw: string, base?: URL): URL {
  let url: URL;
  try {
    url = new URL(raw, base);
  } catch {
    throw new OutboundError('invalid URL');
  }
  if (url.protocol !== 'https:') throw new OutboundError(`refused: only https:// URLs may be called, not ${url.protocol}//`);
  return url;
}

/** Names only the host and Node's error code: messages of other errors may quote request headers. */
function failure(host: string, err: unknown): OutboundError {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  return new OutboundError(`request to ${host} failed${code ? ` (${code})` : ''}`);
}

/** A message's headers, repeated ones joined with ", ". */
export function flatten(headers: IncomingMessage['headers']): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}
