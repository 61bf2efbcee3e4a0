// HTTP in and out: bearer-token authentication, URL routing to a resource and verb, content
// negotiation (JSON, Table, PartialObjectMetadata), query options, and Status bodies for failures.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse as parseYaml } from 'yaml';
import type { Discovery } from './discovery.js';
import { openApiDocument } from './openapi.js';
import { ApiError, statusError, type Obj } from './errors.js';
import type { ResourceType } from './resources.js';
import type { Store } from './store.js';
import { toTable, type TableOptions } from './table.js';
import type { Api, Outcome, Target, WriteOptions } from './verbs.js';
import { serveWatch } from './watch.js';

export interface HandlerContext {
  api: Api;
  store: Store;
  discovery: Discovery;
  types: ResourceType[];
  token: string;
  bookmarkIntervalMs: number;
  /** Remembers an open watch (while `res` is open) so closing the server or an outage can end it. */
  trackWatch(end: () => void, res: ServerResponse): void;
}

const PUBLIC_PATHS = new Set(['/version', '/healthz', '/livez', '/readyz']);

type Negotiated = { as: 'json' } | { as: 'Table' | 'PartialObjectMetadata'; apiVersion: string };

/** The first Accept entry this server can produce; undefined when none (406). */
function negotiate(accept: string | undefined): Negotiated | undefined {
  if (!accept?.trim()) return { as: 'json' };
  for (const entry of accept.split(',')) {
    const [mediaType, ...rawParams] = entry.split(';').map((part) => part.trim());
    const params = Object.fromEntries(rawParams.map((param) => param.split('=').map((part) => part.trim())));
    if (!['application/json', 'application/*', '*/*'].includes(mediaType)) continue;
    if (!params.as) return { as: 'json' };
    if (params.g !== 'meta.k8s.io' || (params.v !== 'v1' && params.v !== 'v1beta1')) continue;
    if (params.as === 'Table') return { as: 'Table', apiVersion: `meta.k8s.io/${params.v}` };
    if (params.as === 'PartialObjectMetadata' || params.as === 'PartialObjectMetadataList') return { as: 'PartialObjectMetadata', apiVersion: `meta.k8s.io/${params.v}` };
  }
  return undefined;
}

function send(res: ServerResponse, code: number, body: unknown, warnings: string[] = []): void {
  const headers: Record<string, string | string[]> = { 'Content-Type': 'application/json', 'Cache-Control': 'no-cache, private' };
  if (warnings.length) headers.Warning = warnings.map((warning) => `299 - ${JSON.stringify(warning)}`);
  res.writeHead(code, headers).end(JSON.stringify(body));
}

/** /api/v1/... or /apis/<group>/<version>/..., optionally namespaced, with a name and subresource. */
function route(path: string, discovery: Discovery): Target | undefined {
  const match = /^\/api\/v1\/(.+)$/.exec(path) ?? /^\/apis\/([^/]+\/[^/]+)\/(.+)$/.exec(path);
  if (!match) return undefined;
  const [group, version] = path.startsWith('/api/') ? ['', 'v1'] : match[1].split('/');
  const segments = match[match.length - 1].split('/').map(decodeURIComponent);
  const namespaced = segments[0] === 'namespaces' && segments.length >= 3;
  const [namespace, rest] = namespaced ? [segments[1], segments.slice(2)] : [undefined, segments];
  const [plural, name, subresource, ...extra] = rest;
  const type = discovery.find(group, version, plural);
  if (!type || extra.length > 0) return undefined;
  if (namespaced && !type.namespaced) return undefined;
  if (name !== undefined && type.namespaced && !namespaced) return undefined;
  if (subresource !== undefined && !(subresource === 'status' && type.statusSubresource)) return undefined;
  return { type, namespace, name, subresource: subresource as 'status' | undefined };
}

function writeOptions(req: IncomingMessage, query: URLSearchParams): WriteOptions {
  const fieldValidation = query.get('fieldValidation') ?? 'Warn';
  if (!['Strict', 'Warn', 'Ignore'].includes(fieldValidation)) throw statusError.badRequest(`fieldValidation must be one of Ignore, Warn, or Strict; got ${fieldValidation}`);
  return {
    manager: query.get('fieldManager') ?? (req.headers['user-agent'] ?? 'unknown').split('/')[0].slice(0, 128),
    dryRun: query.getAll('dryRun').includes('All'),
    fieldValidation: fieldValidation as WriteOptions['fieldValidation'],
  };
}

function parseJson(raw: string): unknown {
  if (!raw) return undefined;
  try {
    return JSON.parse(raw);
  } catch (error) {
    throw statusError.badRequest(`error decoding request body: ${(error as Error).message}`);
  }
}

/** A request body for create/update: JSON, or YAML when the Content-Type says so. */
function decodeWriteBody(contentType: string, raw: string): unknown {
  if (contentType === 'application/yaml') return parseYaml(raw);
  if (contentType && contentType !== 'application/json') throw statusError.unsupportedMediaType(contentType, ['application/json', 'application/yaml']);
  return parseJson(raw);
}

function verbOf(method: string, target: Target, query: URLSearchParams): string {
  const item = target.name !== undefined;
  switch (method) {
    case 'GET':
      return item ? 'get' : query.get('watch') === 'true' || query.get('watch') === '1' ? 'watch' : 'list';
    case 'POST':
      return item ? '' : 'create';
    case 'PUT':
      return item ? 'update' : '';
    case 'PATCH':
      return item ? 'patch' : '';
    case 'DELETE':
      return item ? (target.subresource ? '' : 'delete') : 'deletecollection';
    default:
      return '';
  }
}

function shown(type: ResourceType, body: Obj, negotiated: Negotiated, query: URLSearchParams, list: boolean): Obj {
  if (negotiated.as === 'json') return body;
  if (negotiated.as === 'PartialObjectMetadata') {
    const partial = (object: Obj) => ({ kind: 'PartialObjectMetadata', apiVersion: negotiated.apiVersion, metadata: object.metadata });
    return list ? { kind: 'PartialObjectMetadataList', apiVersion: negotiated.apiVersion, metadata: body.metadata, items: body.items.map(partial) } : partial(body);
  }
  const options: TableOptions = { apiVersion: negotiated.apiVersion, includeObject: query.get('includeObject') ?? '', noHeaders: false };
  return list ? toTable(type, body.items, options, body.metadata) : toTable(type, [body], options);
}

export function handle(context: HandlerContext, req: IncomingMessage, res: ServerResponse, raw: string): void {
  const url = new URL(req.url ?? '/', 'http://server');
  const path = url.pathname.replace(/\/$/, '') || '/';
  const query = url.searchParams;
  try {
    if (!PUBLIC_PATHS.has(path) && req.headers.authorization !== `Bearer ${context.token}`) throw statusError.unauthorized();
    if (['/healthz', '/livez', '/readyz'].includes(path)) {
      res.writeHead(200, { 'Content-Type': 'text/plain' }).end('ok');
      return;
    }
    const document = path.startsWith('/openapi/v3') ? openApiDocument(context.types, path) : context.discovery.document(path);
    if (document) {
      if (req.method !== 'GET') throw statusError.methodNotAllowed();
      send(res, 200, document);
      return;
    }
    const target = route(path, context.discovery);
    if (!target) throw statusError.pathNotFound();
    const verb = verbOf(req.method ?? '', target, query);
    if (!verb || !target.type.verbs.includes(verb)) throw statusError.methodNotAllowed();
    // Without a namespace in the path, a namespaced resource can only be listed or watched.
    if (target.type.namespaced && target.namespace === undefined && verb !== 'list' && verb !== 'watch') throw statusError.methodNotAllowed();
    const negotiated = negotiate(req.headers.accept);
    if (!negotiated) throw statusError.notAcceptable();
    const contentType = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
    const { api } = context;
    let outcome: Outcome;
    switch (verb) {
      case 'watch': {
        const table = negotiated.as === 'Table' ? { apiVersion: negotiated.apiVersion, includeObject: query.get('includeObject') ?? '', noHeaders: false } : undefined;
        const request = { type: target.type, namespace: target.namespace, query, table, bookmarkIntervalMs: context.bookmarkIntervalMs };
        context.trackWatch(serveWatch(api, context.store, request, res), res);
        return;
      }
      case 'get':
        send(res, 200, shown(target.type, api.get(target), negotiated, query, false));
        return;
      case 'list':
        send(res, 200, shown(target.type, api.list(target, query), negotiated, query, true));
        return;
      case 'create':
        outcome = api.create(target, decodeWriteBody(contentType, raw), writeOptions(req, query));
        break;
      case 'update':
        outcome = api.update(target, decodeWriteBody(contentType, raw), writeOptions(req, query));
        break;
      case 'patch':
        outcome = api.patch(target, contentType, raw, query, writeOptions(req, query));
        break;
      case 'delete':
        outcome = api.delete(target, parseJson(raw), writeOptions(req, query));
        break;
      default:
        outcome = api.deleteCollection(target, query, writeOptions(req, query));
    }
    send(res, outcome.code, outcome.body, outcome.warnings);
  } catch (error) {
    const failure = error instanceof ApiError ? error : statusError.internal((error as Error).message);
    if (!res.headersSent) send(res, failure.code, failure.status());
    else res.end();
  }
}
