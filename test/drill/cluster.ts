// The fault drills' deployment on loopback: a Postgres and a Redis of the drill's own (so restarting
// or flushing them disturbs no other run), two `switchboard api` and two `switchboard controllers`
// replicas as child processes of the built app (behind a TLS front, when the drill gives one), a model
// stand-in, and a company with its API key.
import pg from 'pg';
import { loadConfig } from '../../pkg/config.js';
import { createDb, migrate } from '../../pkg/db/index.js';
import { createLogger } from '../../pkg/log.js';
import { startRuntime } from '../../pkg/runtime.js';
import { bootstrapTenant } from '../../pkg/tenants/bootstrap.js';
import { updateTenant, type TenantSettings } from '../../pkg/tenants/settings.js';
import { webhookSecret } from '../../pkg/webhooks/secret.js';
import { addNumber } from '../../pkg/store/phone-numbers.js';
import { addUser } from '../../pkg/console/users.js';
import { systemClock } from '../../pkg/clock.js';
import { Writable } from 'node:stream';
import { TEST_ENCRYPTION_KEY } from '../support/app.js';
import { startScriptedModel, type ScriptedModel } from '../support/model.js';
import { startProcess, type SwitchboardProcess } from '../support/processes.js';
import type { TlsFront } from '../support/tls-front.js';
export { startPrivatePostgres, startPrivateRedis, type PrivatePostgres, type PrivateRedis } from '../support/private-servers.js';

/** The customers' systems (receivers) are on loopback. */
const OUTBOUND_ALLOW = '127.0.0.1/32';

/** A migrated database `name` on the server. */
export async function createDatabase(serverUrl: string, name: string): Promise<string> {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const db = createDb(url.toString(), 2);
  await migrate(db);
  await db.destroy();
  return url.toString();
}

export interface Company {
  tenantId: string;
  agentId: string;
  apiKey: string;
  /** The secret its webhooks are signed with. */
  webhookSecret: string;
  /** Its console users' one-time sign-in links. */
  signInLinks: string[];
}

/**
 * A company made on the database directly, as `switchboard admin tenant create` does, with `settings`,
 * the operator's `numbers` (the first its default) and `users` console users besides.
 */
export async function makeCompany(
  databaseUrl: string,
  opts: { credits?: number; settings?: TenantSettings; numbers?: string[]; users?: number } = {},
): Promise<Company> {
  const quiet = new Writable({ write: (_c, _e, done) => done() });
  // Its webhook addresses are the drill's receivers, on loopback as the deployment allows.
  const config = loadConfig({
    DATABASE_URL: databaseUrl,
    SWITCHBOARD_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
    SWITCHBOARD_DB_POOL_MAX: '3',
    SWITCHBOARD_OUTBOUND_ALLOW: OUTBOUND_ALLOW,
  });
  const runtime = await startRuntime(config, createLogger('warn', quiet), systemClock);
  try {
    const made = await bootstrapTenant(runtime.ctx, { name: 'Drill Company', credits: opts.credits ?? 1_000_000 });
    // The drill's load is above the default 300 requests a minute of a key.
    await runtime.ctx.db('tenants').where({ id: made.tenantId }).update({ requests_per_minute: 100_000 });
    if (opts.settings) await updateTenant(runtime.ctx, made.tenantId, opts.settings);
    for (const number of opts.numbers ?? []) await addNumber(runtime.ctx, made.tenantId, number);
    const signInLinks: string[] = [];
    for (let i = 0; i < (opts.users ?? 0); i++) {
      const { signInUrl } = await addUser(
        runtime.ctx,
        { tenantId: made.tenantId, user: null },
        { email: `user${i}@drill.example.com`, role: 'viewer', name: `User ${i}` },
      );
      signInLinks.push(signInUrl);
    }
    return {
      tenantId: made.tenantId,
      agentId: made.agentId,
      apiKey: made.apiKey,
      webhookSecret: await webhookSecret(runtime.ctx, made.tenantId),
      signInLinks,
    };
  } finally {
    await runtime.close();
  }
}

export interface Replica {
  process: SwitchboardProcess;
  /** The API's base URL (api replicas). */
  url?: string;
}

/**
 * Replicas of one deployment: `api` and `controllers` processes sharing env (database, Redis,
 * model, encryption key); each may be killed and started again in its place.
 */
export class Deployment {
  readonly api: Replica[] = [];
  readonly controllers: Replica[] = [];
  private readonly all: SwitchboardProcess[] = [];

  /** `front`, when given, is kept forwarding to the API replicas running now. */
  constructor(
    readonly env: Record<string, string>,
    private readonly front?: TlsFront,
  ) {}

  async startApi(extra: Record<string, string> = {}): Promise<Replica> {
    const p = await startProcess('api', { ...this.env, ...extra });
    this.all.push(p);
    const { address } = p.logs.find((l) => l.msg === 'listening')!;
    const replica = { process: p, url: `http://127.0.0.1:${address.port}` };
    this.api.push(replica);
    // As a load balancer's health checks would: a replica killed is forgotten only once the next one listens.
    this.frontApi();
    return replica;
  }

  async startControllers(extra: Record<string, string> = {}): Promise<Replica> {
    const p = await startProcess('controllers', { ...this.env, ...extra }, 'controllers started');
    this.all.push(p);
    const replica = { process: p };
    this.controllers.push(replica);
    return replica;
  }

  /** kill -9 of the replica, and a new one started in its place (same role, same env). */
  async replace(replica: Replica): Promise<Replica> {
    await replica.process.kill();
    const list = replica.url ? this.api : this.controllers;
    list.splice(list.indexOf(replica), 1);
    return replica.url ? this.startApi() : this.startControllers();
  }

  /** The front forwards to the API replicas running now. */
  private frontApi(): void {
    this.front?.forwardTo(...this.api.map((r) => r.url!));
  }

  async close(): Promise<void> {
    for (const p of this.all) await p.kill();
  }
}

export interface World {
  model: ScriptedModel;
  databaseUrl: string;
  company: Company;
  deployment: Deployment;
  close(): Promise<void>;
}

/** A model stand-in, a fresh database on `serverUrl`, a company, and a deployment of both roles. */
export async function startWorld(opts: {
  serverUrl: string;
  name: string;
  redisUrl?: string;
  env?: Record<string, string>;
  apis?: number;
  controllers?: number;
  company?: TenantSettings & { numbers?: string[]; users?: number };
  /** The deployment's public address, forwarding to its API replicas. */
  front?: TlsFront;
}): Promise<World> {
  const model = await startScriptedModel();
  const databaseUrl = await createDatabase(opts.serverUrl, opts.name);
  const { numbers, users, ...settings } = opts.company ?? {};
  const company = await makeCompany(databaseUrl, { settings, numbers, users });
  const deployment = new Deployment(
    {
      DATABASE_URL: databaseUrl,
      OPENAI_BASE_URL: model.url,
      SWITCHBOARD_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
      SWITCHBOARD_OUTBOUND_ALLOW: OUTBOUND_ALLOW,
      SWITCHBOARD_LEASE_SEC: '2',
      SWITCHBOARD_DB_POOL_MAX: '10',
      ...(opts.redisUrl ? { REDIS_URL: opts.redisUrl } : {}),
      ...opts.env,
    },
    opts.front,
  );
  await Promise.all([
    ...Array.from({ length: opts.apis ?? 2 }, () => deployment.startApi()),
    ...Array.from({ length: opts.controllers ?? 2 }, () => deployment.startControllers()),
  ]);
  return {
    model,
    databaseUrl,
    company,
    deployment,
    async close() {
      await deployment.close();
      await model.close();
    },
  };
}
