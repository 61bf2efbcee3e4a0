// Requests for every operation of a served OpenAPI document, and for every MCP tool the server lists:
// valid ones, and each kind of bad input a client or an attacker sends. Each request says what it is
// (`kind`) and, where the kind decides it, the statuses it must get.
import fc from 'fast-check';
import { mutated, outside, resolver, valid, type Schema } from './schema.js';
import type { Account, World } from './world.js';

export type Api = 'agent' | 'voice' | 'mcp';

export interface FuzzRequest {
  api: Api;
  /** `GET /v1/calls/{id}`, or `MCP tools/call place_call`: what the figures count by. */
  endpoint: string;
  kind: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
  /** The statuses this kind of request must get, when its kind decides them. */
  expect?: number[];
  /** Statuses it must not get (an id of another account: no success, and nothing of its state). */
  forbid?: (status: number) => boolean;
  /** For MCP: the tool call must fail (it names another account's call or campaign). */
  toolMustFail?: boolean;
}

export interface DocumentedOperation {
  api: 'agent' | 'voice';
  prefix: string;
  method: string;
  template: string;
  op: any;
}

/** Body size limits of each surface (api/server.ts, api/voice/index.ts, api/mcp/index.ts). */
export const BODY_LIMIT: Record<Api, number> = { agent: 1024 * 1024, voice: 128 * 1024, mcp: 128 * 1024 };

export function documentedOperations(doc: any, api: 'agent' | 'voice', prefix: string): DocumentedOperation[] {
  return Object.entries(doc.paths as Record<string, Record<string, any>>).flatMap(([template, ops]) =>
    Object.entries(ops)
      .filter(([, op]) => op && typeof op === 'object' && op.responses)
      .map(([method, op]) => ({ api, prefix, method: method.toUpperCase(), template, op })),
  );
}

export const endpointOf = (o: DocumentedOperation): string => `${o.method} ${o.prefix}${o.template}`;

/** The collection a path parameter names an id of: `calls` for `/calls/{id}`. */
const collectionOf = (template: string, param: string): string => {
  const segments = template.split('/');
  return segments[segments.indexOf(`{${param}}`) - 1] ?? param;
};

/** Paths whose percent-encoding is not UTF-8 or holds a NUL: they name nothing (404). */
const IMPOSSIBLE_SEGMENTS = ['%', '%zz', '%E0%A4%A', '%ff', '%C0%AF', '%ED%A0%80', '%00', 'a%00b', '%F4%90%80%80', '%c3%28'];

/** Ids that are well encoded but name nothing of anyone. */
const strangeId = fc.oneof(
  fc.uuid(),
  fc.constantFrom(
    'cal_01JAAAAAAAAAAAAAAAAAAAAAAA',
    'tnt_01JAAAAAAAAAAAAAAAAAAAAAAA',
    '0',
    '-1',
    '1e9',
    'null',
    'undefined',
    '__proto__',
    'constructor',
    '%2e%2e',
    '..%2F..',
    '%2B1',
  ),
  fc.string({ minLength: 1, maxLength: 80, unit: 'binary' }).map(encodeURIComponent),
  fc.constant('x'.repeat(2000)),
);

/** Fields of request bodies that name a resource, and where an account's id of it is found. */
const ID_FIELDS: Record<string, (a: Account) => (string | number)[]> = {
  agentId: (a) => [a.agentId],
  agent_id: (a) => [a.ids.agents![1]!],
  conversationId: (a) => a.ids.conversations!,
  contactId: (a) => a.contacts,
  connection_id: (a) => a.ids.connections!,
  queue_id: (a) => a.ids.queues!,
  mailbox_id: (a) => a.ids.mailboxes!,
  call_id: (a) => a.ids.calls!,
  campaign_id: (a) => a.ids.campaigns!,
  run_id: (a) => a.ids['campaign-runs']!,
};

/** Values a client really sends for fields the schema types loosely: reachable numbers, receivers, zones, hours. */
const MEANINGFUL: Record<string, (a: Account) => unknown[]> = {
  to: () => ['+12025550110', '+12025550111', '+12025550190'],
  from: (a) => a.numbers,
  test_number: () => ['+12025550110'],
  phone: () => ['+12025550110'],
  email: () => ['fuzz@example.com'],
  url: () => ['https://127.0.0.1:9/tool'],
  base_url: () => ['https://127.0.0.1:9'],
  callback_url: () => ['https://127.0.0.1:9/result'],
  events_url: () => ['https://127.0.0.1:9/events', ''],
  timezone: () => ['Europe/Berlin', 'America/New_York'],
  voice: () => ['joanna'],
  calling_hours: () => [{ start: '09:00', end: '17:00' }],
  schedule: () => [{ days: ['mon', 'fri'], start_time: '10:00', timezone: 'Europe/Berlin' }],
  customTools: () => [[]],
  runAt: () => [undefined],
};

/**
 * `value` with the id fields found in it (at any depth) set to the account's ids; with `meaningful`,
 * also the loosely typed fields set to values that work, so valid requests get past the checks of meaning.
 */
function withIds(value: unknown, account: Account, pick: number, meaningful: boolean): unknown {
  if (Array.isArray(value)) return value.map((v) => withIds(v, account, pick, meaningful));
  if (!value || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    // Own keys only: generated objects have keys such as `constructor` and `__proto__`.
    const ids = Object.hasOwn(ID_FIELDS, k) ? ID_FIELDS[k]!(account) : undefined;
    const real = meaningful && Object.hasOwn(MEANINGFUL, k) ? MEANINGFUL[k]!(account) : undefined;
    if (ids?.length && typeof v === typeof ids[0]) out[k] = ids[pick % ids.length];
    else if (real) out[k] = real[pick % real.length];
    else out[k] = withIds(v, account, pick, meaningful);
  }
  return out;
}

const hasIdField = (value: unknown): boolean =>
  !!value &&
  typeof value === 'object' &&
  Object.entries(value).some(
    ([k, v]) => (Object.hasOwn(ID_FIELDS, k) && (typeof v === 'string' || typeof v === 'number')) || hasIdField(v),
  );

/** The string values of `value`, by path, to put hostile text in. */
function stringPaths(value: unknown, path: (string | number)[] = []): (string | number)[][] {
  if (typeof value === 'string') return [path];
  if (!value || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([k, v]) => stringPaths(v, [...path, Array.isArray(value) ? Number(k) : k]));
}

function setAt(value: unknown, path: (string | number)[], to: unknown): unknown {
  if (!path.length) return to;
  const copy: any = Array.isArray(value) ? [...value] : { ...(value as object) };
  copy[path[0]!] = setAt(copy[path[0]!], path.slice(1), to);
  return copy;
}

const MARK = '\u2063FUZZ\u2063';

/** Hostile text: a NUL, a lone surrogate (JSON-escaped), or bytes that are not UTF-8, in one string of the body. */
const HOSTILE = fc.constantFrom<{ name: string; text?: string; bytes?: number[] }>(
  { name: 'nul', text: 'a\u0000b' },
  { name: 'lone-surrogate', text: 'a\ud800b' },
  { name: 'lone-low-surrogate', text: '\udc00' },
  { name: 'invalid-utf8', bytes: [0xff, 0xfe] },
  { name: 'invalid-utf8', bytes: [0xc3, 0x28] },
  { name: 'overlong-utf8', bytes: [0xc0, 0xaf] },
  { name: 'utf8-surrogate', bytes: [0xed, 0xa0, 0x80] },
);

function hostileBody(base: unknown, pick: number, hostile: { text?: string; bytes?: number[] }, fallbackKey: string): Buffer {
  const paths = stringPaths(base);
  const target = paths.length ? paths[pick % paths.length]! : [fallbackKey];
  const object = base && typeof base === 'object' ? base : {};
  const text = JSON.stringify(setAt(object, target, `x${MARK}y`));
  const [before, after] = text.split(MARK) as [string, string];
  const middle = hostile.bytes ? Buffer.from(hostile.bytes) : Buffer.from(JSON.stringify(hostile.text).slice(1, -1));
  return Buffer.concat([Buffer.from(before), middle, Buffer.from(after)]);
}

/** Bodies that are not what a JSON API expects, or JSON that parsers treat differently. */
function rawBodies(
  base: unknown,
  schemaKeys: string[],
): fc.Arbitrary<{ name: string; body: string; contentType?: string; expect?: number[] }> {
  const text = JSON.stringify(base && typeof base === 'object' ? base : {});
  const inner = text.length > 2 ? text.slice(1, -1) : '';
  const keys = schemaKeys.length ? schemaKeys : ['field'];
  // After the valid fields: of a repeated key, JSON.parse keeps the last.
  const joined = (extra: string) => `{${inner ? `${inner},` : ''}${extra}}`;
  const deep = (n: number, open: string, close: string, leaf = '1') => open.repeat(n) + leaf + close.repeat(n);
  return fc.oneof(
    fc
      .constantFrom(
        '',
        '{',
        '[1,]',
        'nul',
        '{"a":1}{"b":2}',
        "{'a':1}",
        '\ufeff{}',
        '{"a":NaN}',
        '{"a":Infinity}',
        '[]',
        'null',
        '"text"',
        '123',
        'true',
      )
      .map((body) => ({ name: 'not-json-or-not-object', body })),
    fc.constantFrom(...keys).map((key) => ({ name: 'duplicate-keys', body: `{"${key}":{"__dup":true}${inner ? `,${inner}` : ''}}` })),
    fc.constantFrom(...keys).map((key) => ({ name: 'duplicate-keys', body: `{${inner}${inner ? ',' : ''}"${key}":[1,2,3]}` })),
    fc.constantFrom('__proto__', 'constructor', 'prototype', 'hasOwnProperty', 'toString').map((k) => ({
      name: 'proto-keys',
      body: joined(`"${k}":{"polluted":true,"prototype":{"polluted":true},"__proto__":{"admin":true}}`),
    })),
    fc
      .constantFrom(...keys)
      .map((key) => ({ name: 'proto-keys', body: joined(`"${key}":{"__proto__":{"length":1e9},"constructor":{"prototype":{"x":1}}}`) })),
    fc.constantFrom(64, 1000, 5000, 20_000).map((n) => ({ name: `deep-array-${n}`, body: deep(n, '[', ']') })),
    // Nested under each field in turn: free-form fields (metadata, context) take any JSON.
    fc.tuple(fc.constantFrom(...keys), fc.constantFrom(33, 1000, 5000, 20_000), fc.boolean()).map(([key, n, arrays]) => ({
      name: `deep-field-${n}`,
      body: joined(`"${key}":${arrays ? `{"x":${deep(n, '[', ']', '')}}` : deep(n, '{"a":', '}')}`),
    })),
    fc
      .tuple(
        fc.constantFrom(...keys),
        fc.constantFrom('1e400', '-1e400', '123456789012345678901234567890', '1e-400', '-0', '0.1e1', '9007199254740993', '1E+2'),
      )
      .map(([key, n]) => ({
        name: 'number-out-of-range',
        body: joined(`"${key}":${n}`),
      })),
    fc
      .constantFrom(
        'text/plain',
        'application/x-www-form-urlencoded',
        'multipart/form-data; boundary=x',
        'application/json; charset=latin1',
        'application/json; charset=utf-16',
        'application/xml',
      )
      .map((contentType) => ({
        name: `content-type ${contentType.split(';')[0]}`,
        body: text,
        contentType,
      })),
  );
}

/** Query strings: valid ones from the parameters, and repeated, bracketed, badly encoded or out-of-range ones. */
function queries(doc: any, params: any[]): { valid: fc.Arbitrary<string>; invalid: fc.Arbitrary<{ name: string; query: string }> } {
  const query = params.filter((p) => p.in === 'query');
  const values = query.map((p) =>
    fc.option(
      // Long polls are held to a second: a run must not wait out minutes of them.
      (p.name === 'wait' ? fc.integer({ min: 1, max: 1 }) : valid(doc, p.schema ?? {})).map(
        (v) => `${encodeURIComponent(p.name)}=${encodeURIComponent(String(v))}`,
      ),
      { nil: '' },
    ),
  );
  const validQuery = (values.length ? fc.tuple(...values) : fc.constant([] as string[])).map((parts) => parts.filter(Boolean).join('&'));
  const names = query.length ? query.map((p) => p.name as string) : ['limit'];
  const invalid = fc.oneof(
    fc.tuple(fc.constantFrom(...names), fc.constantFrom(...(query.length ? query : [{ schema: {} }]))).chain(([name, p]) =>
      outside(doc, p.schema ?? {}).map((v) => ({
        name: 'query-out-of-range',
        query: `${name}=${encodeURIComponent(typeof v === 'string' ? v : JSON.stringify(v))}`,
      })),
    ),
    fc
      .tuple(fc.constantFrom(...names), validQuery)
      .map(([name, q]) => ({ name: 'query-repeated', query: `${name}=1&${name}=2${q ? `&${q}` : ''}&${name}=` })),
    fc.constantFrom(...names).map((name) => ({ name: 'query-bracketed', query: `${name}[]=1&${name}[x]=2` })),
    fc
      .constantFrom('__proto__[admin]=1', 'constructor[prototype][admin]=1', '__proto__=x', 'hasOwnProperty=1')
      .map((query) => ({ name: 'query-proto', query })),
    fc
      .tuple(fc.constantFrom(...names), fc.constantFrom('%', '%zz', '%ff', '%00', '%ED%A0%80', '%C0%AF', 'a%00b'))
      .map(([name, v]) => ({ name: 'query-bad-encoding', query: `${name}=${v}` })),
    fc
      .tuple(fc.string({ minLength: 1, maxLength: 20 }), fc.string({ maxLength: 20 }))
      .map(([k, v]) => ({ name: 'query-unknown', query: `${encodeURIComponent(k)}=${encodeURIComponent(v)}` })),
  );
  return { valid: validQuery, invalid };
}

/** Authorization headers that must be refused 401 ('' sends none): malformed, wrong, revoked, one character off. */
const badAuth = (world: World): string[] => {
  const key = world.own.apiKey;
  const offByOne = key.slice(0, -1) + (key.endsWith('A') ? 'B' : 'A');
  return [
    '',
    'Bearer',
    'Bearer ',
    'Bearer x',
    'Basic dXNlcjpwYXNz',
    'bearer  ',
    `Bearer ${'A'.repeat(40)}`,
    'Bearer \u00ff\u00fe',
    `Bearer ${world.revokedKey}`,
    `Bearer ${offByOne}`,
  ];
};
const authHeader = (auth: string): Record<string, string> => (auth ? { authorization: auth } : {});

export function documentedRequests(doc: any, o: DocumentedOperation, world: World): fc.Arbitrary<FuzzRequest> {
  const endpoint = endpointOf(o);
  const params: any[] = o.op.parameters ?? [];
  const pathParams = [...o.template.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
  const bodySchema: Schema | undefined = o.op.requestBody?.content?.['application/json']?.schema;
  const canHaveBody = o.method !== 'GET' && o.method !== 'DELETE';
  const schemaKeys = bodySchema ? Object.keys(resolver(doc)(bodySchema).properties ?? {}) : [];
  const q = queries(doc, params);
  const idsOf = (account: Account, param: string) => account.ids[collectionOf(o.template, param)] ?? [];
  const ownIds = pathParams.length
    ? fc.tuple(...pathParams.map((p) => fc.constantFrom(...(idsOf(world.own, p).length ? idsOf(world.own, p) : ['none']))))
    : fc.constant([] as string[]);
  const pathWith = (ids: string[]) => o.prefix + pathParams.reduce((path, p, i) => path.replace(`{${p}}`, ids[i]!), o.template);
  const body = bodySchema
    ? fc.tuple(valid(doc, bodySchema), fc.nat(), fc.boolean()).map(([b, pick, meaningful]) => withIds(b, world.own, pick, meaningful))
    : fc.constant(undefined);
  const json = (v: unknown): Buffer | undefined =>
    v === undefined ? (canHaveBody ? Buffer.from('{}') : undefined) : Buffer.from(JSON.stringify(v));
  const make = (
    kind: string,
    path: string,
    b: Buffer | undefined,
    extra: Partial<FuzzRequest> = {},
    contentType = 'application/json',
  ): FuzzRequest => ({
    api: o.api,
    endpoint,
    kind,
    method: o.method,
    path,
    headers: { authorization: `Bearer ${world.own.apiKey}`, ...(b ? { 'content-type': contentType } : {}) },
    body: b,
    ...extra,
  });
  const withQuery = (path: string, query: string) => (query ? `${path}?${query}` : path);
  const documentedMethods = Object.keys(doc.paths[o.template]).map((m) => m.toUpperCase());
  const otherMethods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'PROPFIND'].filter((m) => !documentedMethods.includes(m));

  const kinds: fc.WeightedArbitrary<FuzzRequest>[] = [
    {
      weight: 5,
      arbitrary: fc.tuple(ownIds, q.valid, body).map(([ids, query, b]) => make('valid', withQuery(pathWith(ids), query), json(b))),
    },
    {
      weight: 2,
      arbitrary: fc.tuple(ownIds, q.invalid).map(([ids, { name, query }]) => make(name, `${pathWith(ids)}?${query}`, json(undefined))),
    },
    {
      weight: 1,
      arbitrary: fc.tuple(ownIds, fc.constantFrom(...badAuth(world))).map(([ids, auth]) => ({
        ...make('bad-auth', pathWith(ids), json(undefined)),
        headers: { ...authHeader(auth), ...(canHaveBody ? { 'content-type': 'application/json' } : {}) },
        // The document itself is public.
        ...(o.op.security?.length === 0 ? {} : { expect: [401] }),
      })),
    },
    {
      weight: 1,
      arbitrary: fc.tuple(ownIds, fc.constantFrom(...otherMethods)).map(([ids, method]) => ({
        ...make('wrong-method', pathWith(ids), method === 'GET' || method === 'DELETE' ? undefined : Buffer.from('{}')),
        method,
        expect: [404, 405],
      })),
    },
  ];
  if (pathParams.length) {
    const position = fc.nat(pathParams.length - 1);
    kinds.push(
      {
        weight: 3,
        arbitrary: fc.tuple(ownIds, position, fc.nat(), body).map(([ids, at, pick, b]) => {
          const theirs = idsOf(world.other, pathParams[at]!);
          const replaced = [...ids];
          replaced[at] = theirs.length ? theirs[pick % theirs.length]! : 'none';
          // Only the id differs from a request that may succeed: the other account's thing is not found, or forbidden.
          return make(
            'other-account-path-id',
            pathWith(replaced),
            json(b),
            canHaveBody ? { forbid: (s) => s < 300 || s === 409 } : { expect: [403, 404] },
          );
        }),
      },
      {
        weight: 2,
        arbitrary: fc.tuple(ownIds, position, fc.constantFrom(...IMPOSSIBLE_SEGMENTS)).map(([ids, at, bad]) => {
          const replaced = [...ids];
          replaced[at] = bad;
          return make('path-bad-encoding', pathWith(replaced), json(undefined), { expect: [404] });
        }),
      },
      {
        weight: 2,
        arbitrary: fc.tuple(ownIds, position, strangeId, body).map(([ids, at, strange, b]) => {
          const replaced = [...ids];
          replaced[at] = strange;
          return make('path-unknown-id', pathWith(replaced), json(b), { forbid: (s) => s < 300 || s === 409 });
        }),
      },
    );
  }
  if (canHaveBody) {
    kinds.push(
      {
        weight: 2,
        arbitrary: fc
          .tuple(ownIds, fc.nat(), HOSTILE, body)
          .map(([ids, pick, hostile, b]) =>
            make(`body-${hostile.name}`, pathWith(ids), hostileBody(b ?? {}, pick, hostile, schemaKeys[0] ?? 'field')),
          ),
      },
      {
        weight: 3,
        arbitrary: fc
          .tuple(ownIds, body)
          .chain(([ids, b]) =>
            rawBodies(b, schemaKeys).map((raw) =>
              make(`body-${raw.name}`, pathWith(ids), Buffer.from(raw.body), raw.expect ? { expect: raw.expect } : {}, raw.contentType),
            ),
          ),
      },
      {
        weight: 1,
        arbitrary: fc
          .tuple(ownIds, fc.constantFrom(1, 64 * 1024))
          .map(([ids, over]) =>
            make(
              'body-over-size-limit',
              pathWith(ids),
              Buffer.from(JSON.stringify({ [schemaKeys[0] ?? 'field']: 'x'.repeat(BODY_LIMIT[o.api] + over) })),
              { expect: [413] },
            ),
          ),
      },
    );
  }
  if (bodySchema) {
    kinds.push({
      weight: 4,
      arbitrary: fc
        .tuple(ownIds, mutated(doc, bodySchema), fc.nat())
        .map(([ids, b, pick]) => make('body-invalid-field', pathWith(ids), json(withIds(b, world.own, pick, true)))),
    });
    // Only where the body can name a resource (a sample of it does): else no value would pass the filter.
    if (fc.sample(body, { seed: 1, numRuns: 30 }).some(hasIdField))
      kinds.push({
        weight: 1,
        arbitrary: fc
          .tuple(ownIds, body, fc.nat())
          .filter(([, b]) => hasIdField(b))
          .map(([ids, b, pick]) =>
            make('other-account-body-id', pathWith(ids), json(withIds(withIds(b, world.own, pick, true), world.other, pick, false)), {
              forbid: (s) => s < 300,
            }),
          ),
      });
  }
  kinds.push({
    weight: 1,
    arbitrary: fc
      .tuple(
        ownIds,
        body,
        fc.constantFrom<Record<string, string>>(
          { 'content-encoding': 'gzip' },
          { 'content-encoding': 'br' },
          { 'content-encoding': 'compress' },
          { 'switchboard-app': 'a'.repeat(1000) },
          { 'switchboard-app': '\u00ff\u00fe' },
          { 'x-request-id': 'r'.repeat(1000) },
          { accept: 'text/csv' },
          { 'content-type': 'application/json; charset=utf-8; boundary=x' },
        ),
      )
      .map(([ids, b, headers]) => {
        const request = make('header-odd', pathWith(ids), json(b));
        return { ...request, headers: { ...request.headers, ...headers } };
      }),
  });
  if (params.some((p) => p.in === 'header')) {
    kinds.push({
      weight: 1,
      arbitrary: fc
        .tuple(ownIds, body, fc.constantFrom('', 'k'.repeat(256), 'k'.repeat(255), '\u00ff\u00fe', ' ', 'a,b', '%00'))
        .map(([ids, b, key]) => ({
          ...make('header-idempotency-key', pathWith(ids), json(b)),
          headers: { authorization: `Bearer ${world.own.apiKey}`, 'content-type': 'application/json', 'idempotency-key': key },
        })),
    });
  }
  return fc.oneof(...kinds);
}

/** An MCP tool as tools/list describes it. */
export interface McpTool {
  name: string;
  inputSchema: Schema;
  outputSchema?: Schema;
}

const rpc = (id: unknown, method: string, params?: unknown) => ({
  jsonrpc: '2.0',
  id,
  method,
  ...(params === undefined ? {} : { params }),
});
const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

/** Requests to the MCP server: every tool with valid, refused and hostile arguments, and malformed JSON-RPC. */
export function mcpRequests(tool: McpTool, world: World): fc.Arbitrary<FuzzRequest> {
  const endpoint = `MCP tools/call ${tool.name}`;
  // As in queries, a long poll is held to a second (a wait out of range stays, to be refused).
  const shortWait = (a: unknown) =>
    a && typeof a === 'object' && 'wait' in a && typeof a.wait === 'number' && a.wait >= 1 && a.wait <= 60 ? { ...a, wait: 1 } : a;
  const args = fc
    .tuple(valid({}, tool.inputSchema), fc.nat(), fc.boolean())
    .map(([a, pick, meaningful]) => shortWait(withIds(a, world.own, pick, meaningful)));
  const make = (
    kind: string,
    body: Buffer | string,
    extra: Partial<FuzzRequest> = {},
    headers: Record<string, string> = MCP_HEADERS,
  ): FuzzRequest => ({
    api: 'mcp',
    endpoint,
    kind,
    method: 'POST',
    path: '/mcp',
    headers: { authorization: `Bearer ${world.own.apiKey}`, ...headers },
    body: Buffer.from(body),
    ...extra,
  });
  const call = (a: unknown, id: unknown = 1) => JSON.stringify(rpc(id, 'tools/call', { name: tool.name, arguments: a }));
  const keys = Object.keys(tool.inputSchema.properties ?? {});
  const kinds: fc.WeightedArbitrary<FuzzRequest>[] = [
    { weight: 5, arbitrary: args.map((a) => make('valid', call(a))) },
    {
      weight: 4,
      arbitrary: fc
        .tuple(mutated({}, tool.inputSchema), fc.nat())
        .map(([a, pick]) => make('arguments-invalid-field', call(shortWait(withIds(a, world.own, pick, true))))),
    },
    {
      weight: 2,
      arbitrary: fc.tuple(args, fc.nat(), HOSTILE).map(([a, pick, hostile]) => {
        const text = hostileBody(
          { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: tool.name, arguments: a ?? {} } },
          pick,
          hostile,
          'x',
        );
        return make(`arguments-${hostile.name}`, text);
      }),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(args, fc.nat())
        .map(([a, pick]) =>
          make('other-account-argument-id', call(withIds(a, world.other, pick, false)), hasIdField(a) ? { toolMustFail: true } : {}),
        ),
    },
    {
      weight: 2,
      arbitrary: args.chain((a) =>
        rawBodies(rpc(1, 'tools/call', { name: tool.name, arguments: a }), ['params', ...keys]).map((raw) =>
          make(`body-${raw.name}`, raw.body, {}, { ...MCP_HEADERS, ...(raw.contentType ? { 'content-type': raw.contentType } : {}) }),
        ),
      ),
    },
    {
      weight: 2,
      arbitrary: fc
        .constantFrom<[string, unknown]>(
          ['arguments-not-object', rpc(1, 'tools/call', { name: tool.name, arguments: [1, 2] })],
          ['arguments-null', rpc(1, 'tools/call', { name: tool.name, arguments: null })],
          ['unknown-tool', rpc(1, 'tools/call', { name: `${tool.name}_nope`, arguments: {} })],
          ['unknown-method', rpc(1, 'tools/nope', {})],
          ['no-jsonrpc-version', { id: 1, method: 'tools/call', params: { name: tool.name, arguments: {} } }],
          ['wrong-jsonrpc-version', { ...rpc(1, 'tools/call', { name: tool.name, arguments: {} }), jsonrpc: '1.0' }],
          ['id-object', rpc({ a: 1 }, 'tools/list')],
          ['id-huge', rpc(1e300, 'tools/list')],
          ['params-string', rpc(1, 'tools/call', 'x')],
          ['batch', [rpc(1, 'tools/list'), rpc(2, 'tools/call', { name: tool.name, arguments: {} })]],
          ['empty-batch', []],
          ['notification', { jsonrpc: '2.0', method: 'notifications/initialized' }],
          ['response-sent-as-request', { jsonrpc: '2.0', id: 1, result: {} }],
        )
        .map(([name, message]) => make(`jsonrpc-${name}`, JSON.stringify(message))),
    },
    {
      weight: 1,
      arbitrary: args.map((a) =>
        make('body-over-size-limit', call({ ...(a as object), task: 'x'.repeat(BODY_LIMIT.mcp + 1) }), { expect: [413] }),
      ),
    },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom(...badAuth(world))
        .map((auth) => ({ ...make('bad-auth', call({})), headers: { ...MCP_HEADERS, ...authHeader(auth) }, expect: [401] })),
    },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom('application/json', 'text/event-stream', 'text/html', '')
        .map((accept) =>
          make(`accept ${accept || 'none'}`, call({}), {}, { 'content-type': 'application/json', ...(accept ? { accept } : {}) }),
        ),
    },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom('GET', 'DELETE', 'PUT')
        .map((method) => ({ ...make('wrong-method', ''), method, body: undefined, expect: [405] })),
    },
  ];
  return fc.oneof(...kinds);
}
