// A real Switchboard API server on an ephemeral port, against the test database and the model
// stand-in. Tests talk to it over HTTP only.
import type { Server } from 'node:http';
import { Writable } from 'node:stream';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { createParser } from 'eventsource-parser';
import { loadConfig } from '../../pkg/config.js';
import { createLogger } from '../../pkg/log.js';
import type { Clock } from '../../pkg/clock.js';
import { ManualClock } from './clock.js';
import { startRuntime, type Runtime } from '../../pkg/runtime.js';
import { bootstrapTenant, type Bootstrapped } from '../../pkg/tenants/bootstrap.js';
import { addNumber } from '../../pkg/store/phone-numbers.js';
import { createApp, createHttpServer, metricsApp } from '../../api/server.js';
import { serveRelay } from '../../api/voice/carrier.js';
import { startControllers, type Controllers } from '../../controllers/index.js';
import { testDatabaseUrl } from './hooks.js';
import { startScriptedModel, type ScriptedModel } from './model.js';

/** A new account's calls_per_minute (migration 032's default): benches spread their placements over accounts by it. */
export const NEW_ACCOUNT_CALLS_PER_MINUTE = 30;

export const TEST_ENCRYPTION_KEY = Buffer.alloc(32, 7).toString('base64');

export interface HttpResult<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export interface Client {
  request<T = any>(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<HttpResult<T>>;
  get<T = any>(path: string): Promise<HttpResult<T>>;
  post<T = any>(path: string, body?: unknown): Promise<HttpResult<T>>;
  patch<T = any>(path: string, body?: unknown): Promise<HttpResult<T>>;
  /** POST expecting an event stream; returns the parsed `data:` events. */
  stream(path: string, body: unknown): Promise<{ status: number; headers: Headers; events: any[]; body?: any }>;
}

export interface TestApp {
  url: string;
  /** The metrics port's address: GET `${metricsUrl}/metrics`. */
  metricsUrl: string;
  runtime: Runtime;
  model: ScriptedModel;
  clock: Clock;
  /** Every log line the server wrote, raw. */
  logs: string[];
  /** `numbers`: phone numbers (E.164) the operator assigns it, as `admin number add` does; the first is its default. */
  company(opts?: {
    name?: string;
    credits?: number;
    systemPrompt?: string;
    numbers?: string[];
  }): Promise<Bootstrapped & { client: Client }>;
  client(apiKey?: string): Client;
  /** The controller manager, when started with `controllers: true`. */
  controllers?: Controllers;
  /** Move the manual clock forward and let the controllers look again. */
  advance(ms: number): void;
  close(): Promise<void>;
}

export function clientFor(url: string, apiKey?: string): Client {
  const headersFor = (extra: Record<string, string> = {}) => ({
    'content-type': 'application/json',
    ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}),
    ...extra,
  });
  const request = async (method: string, path: string, body?: unknown, headers?: Record<string, string>) => {
    const res = await fetch(`${url}${path}`, {
      method,
      headers: headersFor(headers),
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON: keep the text
    }
    return { status: res.status, headers: res.headers, body: parsed as any };
  };
  return {
    request,
    get: (path) => request('GET', path),
    post: (path, body) => request('POST', path, body ?? {}),
    patch: (path, body) => request('PATCH', path, body ?? {}),
    async stream(path, body) {
      const res = await fetch(`${url}${path}`, { method: 'POST', headers: headersFor(), body: JSON.stringify(body) });
      if (!res.headers.get('content-type')?.startsWith('text/event-stream')) {
        return { status: res.status, headers: res.headers, events: [], body: await res.json() };
      }
      const events: any[] = [];
      const parser = createParser({ onEvent: (e) => events.push(JSON.parse(e.data)) });
      const decoder = new TextDecoder();
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) parser.feed(decoder.decode(chunk, { stream: true }));
      return { status: res.status, headers: res.headers, events };
    },
  };
}

/** A new conversation of the client's company with `agentId` and the rest of `body` (contact, metadata, ...): the 201 answer's body. */
export async function createConversation(
  client: Client,
  agentId: string,
  body: Record<string, unknown> = {},
): Promise<{ conversationId: string; contactId: number | null }> {
  const created = await client.post('/api/v1/conversations', { agentId, ...body });
  expect(created.status, JSON.stringify(created.body)).to.equal(201);
  return created.body;
}

/** As createConversation; the new conversation's id. */
export async function openConversation(client: Client, agentId: string, body: Record<string, unknown> = {}): Promise<string> {
  return (await createConversation(client, agentId, body)).conversationId;
}

export async function startTestApp(
  opts: {
    env?: Record<string, string>;
    manualClock?: boolean;
    /** Where the manual clock starts (default: now); moving it back later would strand the timers already set. */
    startAt?: Date;
    /** Default: the root hooks' database (the benchmark brings its own). */
    databaseUrl?: string;
    /** Run the controllers in this process too, as `switchboard dev` does. */
    controllers?: boolean;
    /** A model stand-in shared with other servers or processes; the caller closes it. */
    model?: ScriptedModel;
  } = {},
): Promise<TestApp> {
  const model = opts.model ?? (await startScriptedModel());
  const config = loadConfig({
    DATABASE_URL: opts.databaseUrl ?? testDatabaseUrl(),
    OPENAI_BASE_URL: model.url,
    SWITCHBOARD_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
    SWITCHBOARD_OUTBOUND_ALLOW: '127.0.0.1/32',
    SWITCHBOARD_DB_POOL_MAX: '10',
    ...opts.env,
  });
  const logs: string[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      logs.push(String(chunk));
      done();
    },
  });
  const clock = opts.manualClock ? new ManualClock(opts.startAt) : undefined;
  const runtime = await startRuntime(config, createLogger('debug', sink), clock);
  const server: Server = createHttpServer(config, createApp(runtime.ctx, { limits: runtime.limits }));
  const stopRelay = serveRelay(server, runtime.ctx);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const metrics: Server = createHttpServer(config, metricsApp(runtime.ctx));
  await new Promise<void>((resolve) => metrics.listen(0, '127.0.0.1', resolve));
  const metricsUrl = `http://127.0.0.1:${(metrics.address() as AddressInfo).port}`;
  const controllers = opts.controllers ? await startControllers(runtime.ctx) : undefined;
  let companies = 0;
  return {
    url,
    metricsUrl,
    runtime,
    model,
    clock: runtime.ctx.clock,
    logs,
    async company(o = {}) {
      const made = await bootstrapTenant(runtime.ctx, {
        name: o.name ?? `Company ${++companies}`,
        credits: o.credits,
        systemPrompt: o.systemPrompt,
      });
      for (const number of o.numbers ?? []) await addNumber(runtime.ctx, made.tenantId, number);
      return { ...made, client: clientFor(url, made.apiKey) };
    },
    client: (apiKey) => clientFor(url, apiKey),
    controllers,
    advance(ms) {
      if (!(clock instanceof ManualClock)) throw new Error('advance() needs startTestApp({ manualClock: true })');
      clock.advance(ms);
      controllers?.wake();
    },
    async close() {
      await controllers?.stop();
      stopRelay();
      for (const open of [server, metrics]) {
        open.closeAllConnections();
        await new Promise<void>((resolve) => open.close(() => resolve()));
      }
      await runtime.close();
      if (!opts.model) await model.close();
    },
  };
}
