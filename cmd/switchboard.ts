#!/usr/bin/env node
// The switchboard command: dev | api | migrate | admin | openapi. Wiring only.
import type { RequestListener, Server } from 'node:http';
import express from 'express';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig, ConfigError, type Config } from '../pkg/config.js';
import { createLogger, type Logger } from '../pkg/log.js';
import { migrate, schemaIsCurrent } from '../pkg/db/index.js';
import { startRuntime, type Runtime } from '../pkg/runtime.js';
import { bootstrapTenant, type Bootstrapped } from '../pkg/tenants/bootstrap.js';
import { FEATURES } from '../pkg/store/tenants.js';
import { updateTenant } from '../pkg/tenants/settings.js';
import { addNumber, updateNumber } from '../pkg/store/phone-numbers.js';
import { agentRef } from '../pkg/ids.js';
import { addUser, listUsers } from '../pkg/console/users.js';
import { issueSignInLink } from '../pkg/console/links.js';
import { createApp, createHttpServer, healthRouter, metricsApp } from '../api/server.js';
import { startControllers, type Controllers } from '../controllers/index.js';
import { agentOpenApiDocument } from '../api/agents/openapi.js';
import { voiceOpenApiDocument } from '../api/voice/openapi.js';
import { runAdmin } from './admin.js';
import { serveRelay } from '../api/voice/carrier.js';
import { runSim } from './sim.js';

const USAGE = `usage: switchboard <command>
  dev       everything in one process on embedded defaults (API server and controllers)
  api       the API server only
  controllers  the controllers only (autonomous jobs); N replicas may run against one Postgres
  migrate   apply database migrations to DATABASE_URL and exit
  admin     operator commands (switchboard admin --help)
  sim call  the simulated phone network rings one of an account's numbers (switchboard sim call --to N --from N [--line T]... [--press K]...)
  openapi   print the Agent API's OpenAPI document (openapi voice: the Voice API's)`;

/** A server starts whatever the database's state; /readyz tells the probes (and requests meanwhile answer 503). */
async function warnIfNotReady(runtime: Runtime, log: Logger): Promise<void> {
  try {
    if (!(await schemaIsCurrent(runtime.ctx.db))) log.warn('database schema is not current: run `switchboard migrate`');
  } catch (err) {
    log.warn({ err: (err as Error).message }, 'database unreachable: requests are answered 503 until it is back');
  }
}

async function listenOn(config: Config, app: RequestListener, port: number): Promise<Server> {
  const server = createHttpServer(config, app);
  await new Promise<void>((resolve) => server.listen(port, config.HOST, resolve));
  return server;
}

/** `app` on PORT and /metrics on SWITCHBOARD_METRICS_PORT; logs both addresses once listening. */
async function listen(runtime: Runtime, config: Config, log: Logger, app: RequestListener): Promise<{ server: Server; metrics: Server }> {
  const server = await listenOn(config, app, config.PORT);
  const metrics = await listenOn(config, metricsApp(runtime.ctx), config.SWITCHBOARD_METRICS_PORT);
  log.info({ address: server.address(), metrics: metrics.address(), ...runtime.describe }, 'listening');
  return { server, metrics };
}

function closeServer(server: Server, graceMs: number): Promise<void> {
  return new Promise((resolve) => {
    server.closeIdleConnections();
    const force = setTimeout(() => server.closeAllConnections(), graceMs).unref();
    server.close(() => {
      clearTimeout(force);
      resolve();
    });
  });
}

/**
 * SIGTERM/SIGINT: stop taking connections and claiming work, let requests and runs in flight
 * finish within the grace period, then close.
 */
function onShutdown(
  log: Logger,
  config: Config,
  runtime: Runtime,
  servers: { server: Server; metrics: Server },
  controllers?: Controllers,
): void {
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    const graceMs = config.SWITCHBOARD_SHUTDOWN_GRACE_SEC * 1000;
    const [, , released] = await Promise.all([
      closeServer(servers.server, graceMs),
      closeServer(servers.metrics, graceMs),
      controllers?.stop(),
    ]);
    // Runs given up after the grace period hold connections until they end; they are lost anyway.
    if (!released?.length) await runtime.close();
    log.info('stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

/** Where the demo of this database is kept: demo.json beside the embedded data, else one file per database (its address, no credentials). */
function demoFile(config: Config): string {
  if (!config.DATABASE_URL) return join(config.SWITCHBOARD_DATA_DIR, 'demo.json');
  const url = new URL(config.DATABASE_URL);
  const database = createHash('sha256').update(`${url.hostname}:${url.port}${url.pathname}`).digest('hex').slice(0, 16);
  return join(config.SWITCHBOARD_DATA_DIR, `demo-${database}.json`);
}

/** The demo tenant is created on the first start against a database, whole or not at all; its key is kept in demoFile. */
async function demoTenant(runtime: Runtime, config: Config): Promise<Bootstrapped> {
  const file = demoFile(config);
  if (existsSync(file)) {
    const saved = JSON.parse(readFileSync(file, 'utf8')) as Bootstrapped;
    const still = await runtime.ctx.db('api_keys').where({ id: saved.keyId }).whereNull('revoked_at').first();
    if (still) return saved;
  }
  const demo = await runtime.ctx.db.transaction(async (trx) => {
    const tx = { ...runtime.ctx, db: trx };
    const made = await bootstrapTenant(tx, { name: 'Demo Company' });
    // The demo has every feature, so every endpoint can be tried.
    await updateTenant(tx, made.tenantId, { features: [...FEATURES] });
    // And a number its agent answers, which the simulated network can ring (POST /v1/sim/calls).
    await addNumber(tx, made.tenantId, config.SWITCHBOARD_CALLER_ID, true);
    await updateNumber(tx, made.tenantId, config.SWITCHBOARD_CALLER_ID, {
      name: 'Demo line',
      routing: { type: 'ai', agent_id: agentRef(made.agentId) },
    });
    return made;
  });
  mkdirSync(config.SWITCHBOARD_DATA_DIR, { recursive: true });
  writeFileSync(file, JSON.stringify(demo, null, 2), { mode: 0o600 });
  return demo;
}

/** A new one-time console sign-in link of the demo company's owner on every start (the owner is added on the first). */
async function demoOwnerLink(runtime: Runtime, tenantId: string): Promise<string> {
  // An address of this demo company's own: a demo company made again gets an owner of its own.
  const email = `owner+${tenantId.toLowerCase()}@example.com`;
  const owner = (await listUsers(runtime.ctx, tenantId)).find((u) => u.email === email);
  if (owner) return issueSignInLink(runtime.ctx, owner.id);
  return (await addUser(runtime.ctx, { tenantId, user: null }, { email, name: 'Demo Owner', role: 'owner' })).signInUrl;
}

function printWelcome(servers: { server: Server; metrics: Server }, demo: Bootstrapped, number: string, consoleLink: string): void {
  const { port } = servers.server.address() as { port: number };
  const url = `http://localhost:${port}`;
  const metrics = `http://localhost:${(servers.metrics.address() as { port: number }).port}/metrics`;
  process.stdout.write(`
Switchboard is running at ${url}
  Demo company ${demo.tenantId}, agent ${demo.agentId}
  API key: ${demo.apiKey}
  Console: ${url}${new URL(consoleLink).pathname} (the demo owner's one-time sign-in link; a new one on every start)

Try it:
  curl -s ${url}/api/v1/conversations -H 'Authorization: Bearer ${demo.apiKey}' \\
    -H 'Content-Type: application/json' -d '{"agentId":"${demo.agentId}"}'
  curl -s ${url}/api/v1/conversations/<conversationId>/messages -H 'Authorization: Bearer ${demo.apiKey}' \\
    -H 'Content-Type: application/json' -d '{"message":"Hello!"}'
  curl -s ${url}/api/v1/triggers -H 'Authorization: Bearer ${demo.apiKey}' \\
    -H 'Content-Type: application/json' -d '{"agentId":"${demo.agentId}","task":"Summarize our plans"}'
  curl -s ${url}/v1/calls -H 'Authorization: Bearer ${demo.apiKey}' \\
    -H 'Content-Type: application/json' -d '{"to":"+12025550101","task":"Confirm the appointment"}'
  curl -s ${url}/v1/sim/calls -H 'Authorization: Bearer ${demo.apiKey}' \\
    -H 'Content-Type: application/json' -d '{"to":"${number}","from":"+12025550150","lines":["Hi, are you open on Sunday?"]}'
Docs: ${url}/docs/    API reference: ${url}/docs/api/
OpenAPI: ${url}/api/v1/openapi.json and ${url}/v1/openapi.json
MCP: ${url}/mcp    Metrics: ${metrics}    Stop: Ctrl-C

`);
}

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  if (command === 'openapi') {
    const document = rest[0] === 'voice' ? voiceOpenApiDocument() : agentOpenApiDocument();
    process.stdout.write(`${JSON.stringify(document, null, 2)}\n`);
    return;
  }
  if (!command || command === '--help' || command === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const config = loadConfig();
  // Admin output goes to stdout as JSON; its logs go to stderr and stay quiet unless asked.
  const log = createLogger(
    command === 'admin' || command === 'sim' ? (process.env.SWITCHBOARD_LOG_LEVEL ?? 'warn') : config.SWITCHBOARD_LOG_LEVEL,
    command === 'admin' || command === 'sim' ? process.stderr : undefined,
  );

  switch (command) {
    case 'migrate': {
      if (!config.DATABASE_URL) throw new ConfigError('invalid configuration: DATABASE_URL: required by migrate');
      const runtime = await startRuntime(config, log);
      const applied = await migrate(runtime.ctx.db);
      log.info({ applied }, 'migrations applied');
      await runtime.close();
      return;
    }
    case 'dev': {
      const runtime = await startRuntime(config, log);
      await migrate(runtime.ctx.db);
      const demo = await demoTenant(runtime, config);
      const consoleLink = await demoOwnerLink(runtime, demo.tenantId);
      const servers = await listen(runtime, config, log, createApp(runtime.ctx, { limits: runtime.limits }));
      serveRelay(servers.server, runtime.ctx);
      onShutdown(log, config, runtime, servers, await startControllers(runtime.ctx));
      printWelcome(servers, demo, config.SWITCHBOARD_CALLER_ID, consoleLink);
      return;
    }
    case 'api': {
      const runtime = await startRuntime(config, log);
      await warnIfNotReady(runtime, log);
      const servers = await listen(runtime, config, log, createApp(runtime.ctx, { limits: runtime.limits }));
      serveRelay(servers.server, runtime.ctx);
      onShutdown(log, config, runtime, servers);
      return;
    }
    case 'controllers': {
      const runtime = await startRuntime(config, log);
      await warnIfNotReady(runtime, log);
      // Controllers serve only health, on PORT, for the probes.
      const servers = await listen(runtime, config, log, express().use(healthRouter(runtime.ctx)));
      onShutdown(log, config, runtime, servers, await startControllers(runtime.ctx));
      return;
    }
    case 'sim': {
      const runtime = await startRuntime(config, log);
      try {
        process.exitCode = await runSim(runtime.ctx, rest);
      } finally {
        await runtime.close();
      }
      return;
    }
    case 'admin': {
      const runtime = await startRuntime(config, log);
      try {
        await migrate(runtime.ctx.db);
        process.exitCode = await runAdmin(runtime.ctx, rest);
      } finally {
        await runtime.close();
      }
      return;
    }
    default:
      process.stderr.write(`unknown command: ${command}\n${USAGE}\n`);
      process.exitCode = 2;
  }
}

main(process.argv.slice(2)).catch((err: Error) => {
  process.stderr.write(`${err instanceof ConfigError ? err.message : (err.stack ?? err.message)}\n`);
  process.exit(1);
});
