// Outbound HTTP for tools (and later webhooks and campaign endpoints): https only, public
// addresses only unless allowed, no redirects to refused addresses, a timeout, a size cap.
import { lookup as dnsLookup } from 'node:dns';
import https from 'node:https';
import type { IncomingMessage } from 'node:http';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { ConfigError, type Config } from '../config.js';

export interface OutboundRequest {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: string;
  headers?: Record<string, string>;
  body?: string;
  /** Overrides SWITCHBOARD_OUTBOUND_TIMEOUT_MS (webhooks give receivers 5 s to answer). */
  timeoutMs?: number;
  /** False: a redirect is the answer, not followed (a webhook's receiver must answer 2xx itself). */
  followRedirects?: boolean;
}

export interface OutboundResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** True when the body was cut at the configured size cap. */
  truncated: boolean;
}

export interface Outbound {
  request(req: OutboundRequest): Promise<OutboundResponse>;
}

/** Raised when a destination is refused or the request fails; the message is safe to show the model. */
export class OutboundError extends Error {}

const MAX_REDIRECTS = 5;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

// IANA special-purpose blocks. For IPv6, everything outside global unicast 2000::/3 (loopback,
// unspecified, ULA fc00::/7, link-local fe80::/10, multicast ff00::/8…) plus the special blocks inside it.
const nonPublic = ranges([
  '0.0.0.0/8', '10.0.0.0/8', '100.64.0.0/10', '127.0.0.0/8', '169.254.0.0/16', '172.16.0.0/12',
  '192.0.0.0/24', '192.0.2.0/24', '192.88.99.0/24', '192.168.0.0/16', '198.18.0.0/15',
  '198.51.100.0/24', '203.0.113.0/24', '224.0.0.0/4', '240.0.0.0/4',
  '::/3', '4000::/2', '8000::/1', '2001::/23', '2001:db8::/32', '2002::/16', '3fff::/20',
]);

// IPv4-mapped and NAT64 addresses reach the IPv4 address in their low 32 bits.
const embedsIPv4 = ranges(['::ffff:0:0/96', '64:ff9b::/96']);

/** Whether an IP address is publicly routable; one that embeds an IPv4 address is judged by that. */
export function isPublicAddress(address: string): boolean {
  return isIP(address) !== 0 && !nonPublic.has(embeddedIPv4(address) ?? address);
}

interface Hop {
  url: URL;
  method: OutboundRequest['method'];
  headers: Record<string, string>;
  body?: string;
}

export function createOutbound(config: Config): Outbound {
  const guard = parseAllowList(config.SWITCHBOARD_OUTBOUND_ALLOW);
  // Our own agent, so a pooled socket is always one that went through the guarded lookup.
  const agent = new https.Agent({ keepAlive: true });
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
          if (req.followRedirects === false || !REDIRECT_STATUSES.has(status) || !location) return await read(res, config.SWITCHBOARD_OUTBOUND_MAX_BYTES);
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

interface Guard {
  allowsName(host: string): boolean;
  allowsAddress(address: string): boolean;
}

function parseAllowList(setting: string | undefined): Guard {
  const names = new Set<string>();
  const nets = ranges([]);
  for (const entry of (setting ?? '').split(',').map((e) => e.trim()).filter(Boolean)) {
    if (nets.add(entry)) continue;
    if (entry.includes('/')) {
      throw new ConfigError(`invalid configuration: SWITCHBOARD_OUTBOUND_ALLOW: ${entry} is not a valid CIDR`);
    }
    names.add(normalizeName(entry));
  }
  return {
    allowsName: (host) => names.has(normalizeName(host)),
    allowsAddress: (address) => nets.has(embeddedIPv4(address) ?? address) || isPublicAddress(address),
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
    const done = (truncated: boolean) =>
      resolve({ status: res.statusCode ?? 0, headers: flatten(res.headers), body: Buffer.concat(chunks).toString('utf8'), truncated });
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

interface Ranges {
  /** Adds an address or CIDR; false when it is neither. */
  add(cidr: string): boolean;
  has(address: string): boolean;
}

// One BlockList per family: a single one would match IPv4 addresses against IPv6 rules
// (as ::ffff:a.b.c.d), so ::/3 would cover every IPv4 address.
function ranges(cidrs: string[]): Ranges {
  const lists = { ipv4: new BlockList(), ipv6: new BlockList() };
  const familyOf = (address: string) => (isIP(address) === 4 ? 'ipv4' : 'ipv6');
  const set: Ranges = {
    add(cidr) {
      const match = /^\[?([^\]/]+)\]?(?:\/(\d{1,3}))?$/.exec(cidr);
      if (!match || !isIP(match[1]!)) return false;
      const family = familyOf(match[1]!);
      const max = family === 'ipv4' ? 32 : 128;
      const prefix = match[2] === undefined ? max : Number(match[2]);
      if (prefix > max) return false;
      lists[family].addSubnet(match[1]!, prefix, family);
      return true;
    },
    has: (address) => lists[familyOf(address)].check(address, familyOf(address)),
  };
  for (const cidr of cidrs) set.add(cidr);
  return set;
}

function embeddedIPv4(address: string): string | undefined {
  if (isIP(address) !== 6 || !embedsIPv4.has(address)) return undefined;
  // The URL parser writes IPv6 canonically; an empty group there lies inside the zero run "::".
  const groups = new URL(`https://[${address}]/`).hostname.slice(1, -1).split(':');
  const [high, low] = groups.slice(-2).map((g) => parseInt(g || '0', 16)) as [number, number];
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

function normalizeName(host: string): string {
  return host.toLowerCase().replace(/\.$/, '');
}

/** A message's headers, repeated ones joined with ", ". */
export function flatten(headers: IncomingMessage['headers']): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}

/**
 * Why `raw` may not be a customer-side address (webhook receivers, callback URLs), or null when it
 * may: https, and a public host or one allowed. Names are judged again by the guarded lookup when called.
 */
export function destinationProblem(raw: string, config: Pick<Config, 'SWITCHBOARD_OUTBOUND_ALLOW'>): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'must be a URL';
  }
  if (url.protocol !== 'https:') return 'must be an https:// address';
  const guard = parseAllowList(config.SWITCHBOARD_OUTBOUND_ALLOW);
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (isIP(host)) return guard.allowsAddress(host) ? null : `${host} is not a public address`;
  const name = normalizeName(host);
  if (guard.allowsName(name)) return null;
  if (name === 'localhost' || name.endsWith('.localhost') || !name.includes('.')) return `${host} is not a public host name`;
  return null;
}
