// Everything a server process needs, built from the configuration: database (external or
// embedded), model endpoint (configured or the offline model), Redis, secrets, outbound guard.
import { createClient, type RedisClientType } from 'redis';
import { once } from 'node:events';
import { join } from 'node:path';
import type { Config } from './config.js';
import type { Ctx } from './context.js';
import type { Knex } from 'knex';
import type { Clock } from './clock.js';
import { DatabaseClock } from './db/clock.js';
import type { Logger } from './log.js';
import { createDb, shareConnections } from './db/index.js';
import { startEmbeddedPostgres } from './db/embedded.js';
import { TurnLocks } from './db/locks.js';
import { PipelinedPool } from './db/pipeline.js';
import { Notifier } from './db/notify.js';
import { createModelClient } from './agent/model.js';
import { startOfflineModel } from './agent/offline-model.js';
import { SecretBox } from './tools/secrets.js';
import { createOutbound } from './outbound/client.js';
import { createRateLimits, type RateLimits } from './limits/rate-limit.js';
import { createCallLimits } from './limits/calls.js';
import { createModelSlots } from './limits/model-slots.js';
import { createMetrics } from './metrics/index.js';
import { UsageMeter } from './metering/meter.js';
import { postgresRecordings } from './store/recordings.js';

export interface Runtime {
  ctx: Ctx;
  limits: RateLimits;
  /** What this process runs on, for the start-up line. */
  describe: { database: string; model: string; limits: string };
  close(): Promise<void>;
}

/** `given`: a clock of the caller's (tests move a manual one); else the database's (pkg/db/clock.ts). */
export async function startRuntime(config: Config, log: Logger, given?: Clock): Promise<Runtime> {
  const closers: (() => Promise<void>)[] = [];
  const describe = { database: 'external Postgres', model: '', limits: 'in-memory' };

  let databaseUrl = config.DATABASE_URL;
  if (!databaseUrl) {
    const dir = join(config.SWITCHBOARD_DATA_DIR, 'postgres');
    const embedded = await startEmbeddedPostgres(dir, { persistent: true, log: (line) => log.debug({ postgres: line }) });
    closers.push(embedded.stop);
    databaseUrl = embedded.url;
    describe.database = `embedded Postgres (data in ${embedded.dataDir})`;
  }
  // The process never opens more than SWITCHBOARD_DB_POOL_MAX connections: these two pools and the listener.
  const connections = shareConnections(config.SWITCHBOARD_DB_POOL_MAX);
  const db = createDb(databaseUrl, connections.queries, config.SWITCHBOARD_DB_ACQUIRE_TIMEOUT_MS);
  closers.unshift(() => db.destroy());
  const clock = given ?? startDatabaseClock(db, log, closers);
  const notifier = new Notifier(databaseUrl, log);
  await notifier.open();
  closers.unshift(() => notifier.close());
  const pipelined = new PipelinedPool(databaseUrl, connections.pipelined, config.SWITCHBOARD_DB_ACQUIRE_TIMEOUT_MS, log);
  closers.unshift(() => pipelined.close());
  const locks = new TurnLocks(pipelined, notifier, log);

  let baseURL = config.OPENAI_BASE_URL;
  if (!baseURL && !config.OPENAI_API_KEY) {
    const offline = await startOfflineModel();
    closers.unshift(offline.close);
    baseURL = offline.url;
    describe.model = 'the built-in offline model (set OPENAI_BASE_URL / OPENAI_API_KEY for a real one)';
  } else {
    baseURL ??= 'https://api.openai.com/v1';
    describe.model = `${baseURL} (default model ${config.SWITCHBOARD_DEFAULT_MODEL})`;
  }
  const model = createModelClient({
    baseURL,
    apiKey: config.OPENAI_API_KEY,
    defaultModel: config.SWITCHBOARD_DEFAULT_MODEL,
  });

  let redis: RedisClientType | null = null;
  if (config.REDIS_URL) {
    // No offline queue: while Redis is unreachable commands fail at once, and limits fall back to memory.
    redis = createClient({ url: config.REDIS_URL, disableOfflineQueue: true }) as RedisClientType;
    redis.on('error', (err: Error) => log.error({ err: err.message }, 'redis error'));
    const client = redis;
    // Start on the first attempt's outcome; an unreachable Redis is retried in the background.
    const connecting = client.connect().catch(() => undefined);
    const stopWaiting = new AbortController();
    const failed = once(client, 'error', { signal: stopWaiting.signal }).catch(() => undefined);
    await Promise.race([connecting, failed]);
    stopWaiting.abort();
    closers.unshift(async () => {
      if (client.isReady) await client.close();
      else client.destroy();
    });
    describe.limits = 'Redis';
  }

  const metrics = createMetrics();
  const limits = createRateLimits(redis, { metrics, log });
  const usage = new UsageMeter(db, clock, log);
  closers.unshift(() => usage.close());
  const ctx: Ctx = {
    db,
    clock,
    config,
    log,
    secrets: config.SWITCHBOARD_ENCRYPTION_KEY ? new SecretBox(config.SWITCHBOARD_ENCRYPTION_KEY) : null,
    model,
    outbound: createOutbound(config),
    pipelined,
    locks,
    notifier,
    metrics,
    usage,
    // A slot outlives two missed heartbeats of the controller that holds the call.
    callLimits: createCallLimits({ redis, limits, clock, log, leaseMs: config.SWITCHBOARD_LEASE_SEC * 2000 }),
    modelSlots: createModelSlots({
      redis,
      limits,
      clock,
      log,
      metrics,
      // Renewed by this replica while the call runs; a crashed replica's slots free themselves as calls' do.
      leaseMs: config.SWITCHBOARD_LEASE_SEC * 2000,
      max: config.SWITCHBOARD_MODEL_CONCURRENCY,
      waitMs: config.SWITCHBOARD_MODEL_WAIT_SEC * 1000,
    }),
    recordings: postgresRecordings(db),
  };
  return {
    ctx,
    limits,
    describe,
    close: async () => {
      for (const close of closers) await close().catch((err: Error) => log.warn({ err: err.message }, 'error while closing'));
    },
  };
}

function startDatabaseClock(db: Knex, log: Logger, closers: (() => Promise<void>)[]): Clock {
  const clock = new DatabaseClock(db, log);
  clock.start();
  closers.unshift(async () => clock.stop());
  return clock;
}
