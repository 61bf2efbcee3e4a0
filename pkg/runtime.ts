// Everything a server process needs, built from the configuration: database (external or
// embedded), model endpoint (configured or the offline model), Redis, secrets, outbound guard.
import { createClient, type RedisClientType } from 'redis';
import { join } from 'node:path';
import type { Config } from './config.js';
import type { Ctx } from './context.js';
import { systemClock, type Clock } from './clock.js';
import type { Logger } from './log.js';
import { createDb } from './db/index.js';
import { startEmbeddedPostgres } from './db/embedded.js';
import { TurnLocks } from './db/locks.js';
import { Notifier } from './db/notify.js';
import { createModelClient } from './agent/model.js';
import { startOfflineModel } from './agent/offline-model.js';
import { SecretBox } from './tools/secrets.js';
import { createOutbound } from './tools/outbound.js';
import { createRateLimits, type RateLimits } from './limits/rate-limit.js';
import { createMetrics } from './metrics/index.js';

export interface Runtime {
  ctx: Ctx;
  limits: RateLimits;
  /** What this process runs on, for the start-up line. */
  describe: { database: string; model: string; limits: string };
  close(): Promise<void>;
}

export async function startRuntime(config: Config, log: Logger, clock: Clock = systemClock): Promise<Runtime> {
  const closers: (() => Promise<void>)[] = [];
  const describe = { database: 'external Postgres', model: '', limits: 'in-memory' };

  let databaseUrl = config.DATABASE_URL;
  if (!databaseUrl) {
    const dir = join(config.SWITCHBOARD_DATA_DIR, 'postgres');
    const embedded = await startEmbeddedPostgres(dir, { persistent: true, log: (line) => log.debug({ postgres: line }) });
    closers.push(embedded.stop);
    databaseUrl = embedded.url;
    describe.database = `embedded Postgres (data in ${dir})`;
  }
  const db = createDb(databaseUrl, config.SWITCHBOARD_DB_POOL_MAX);
  closers.unshift(() => db.destroy());
  const locks = new TurnLocks(databaseUrl, config.SWITCHBOARD_DB_POOL_MAX * 4);
  closers.unshift(() => locks.close());
  const notifier = new Notifier(databaseUrl, log);
  await notifier.start();
  closers.unshift(() => notifier.close());

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
    redis = createClient({ url: config.REDIS_URL }) as RedisClientType;
    redis.on('error', (err: Error) => log.error({ err: err.message }, 'redis error'));
    await redis.connect();
    closers.unshift(async () => {
      await redis!.quit();
    });
    describe.limits = 'Redis';
  }

  const ctx: Ctx = {
    db,
    clock,
    config,
    log,
    secrets: config.SWITCHBOARD_ENCRYPTION_KEY ? new SecretBox(config.SWITCHBOARD_ENCRYPTION_KEY) : null,
    model,
    outbound: createOutbound(config),
    locks,
    notifier,
    metrics: createMetrics(),
  };
  return {
    ctx,
    limits: createRateLimits(redis),
    describe,
    close: async () => {
      for (const close of closers) await close().catch((err: Error) => log.warn({ err: err.message }, 'error while closing'));
    },
  };
}
