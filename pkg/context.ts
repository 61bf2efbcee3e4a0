// The bundle of resources domain functions are given, instead of importing singletons.
import type { Db } from './db/index.js';
import type { Clock } from './clock.js';
import type { Config } from './config.js';
import type { Logger } from './log.js';
import type { SecretBox } from './tools/secrets.js';
import type { ModelClient } from './agent/model.js';
import type { Outbound } from './outbound/client.js';
import type { TurnLocks } from './db/locks.js';
import type { PipelinedPool } from './db/pipeline.js';
import type { Notifier } from './db/notify.js';
import type { Metrics } from './metrics/index.js';
import type { UsageMeter } from './metering/meter.js';
import type { CallLimits } from './limits/calls.js';
import type { ModelSlots } from './limits/model-slots.js';
import type { RecordingStore } from './messages/recordings.js';

export interface Ctx {
  db: Db;
  clock: Clock;
  config: Config;
  log: Logger;
  /** null when SWITCHBOARD_ENCRYPTION_KEY is unset: authenticated tools are refused. */
  secrets: SecretBox | null;
  model: ModelClient;
  /** Slots of the deployment-wide cap on simultaneous model calls (pkg/agent/model-call.ts takes them). */
  modelSlots: ModelSlots;
  outbound: Outbound;
  /** Pipelined connections: every store statement sent outside a transaction, and a turn lock's reads and closing transaction. */
  pipelined: PipelinedPool;
  locks: TurnLocks;
  notifier: Notifier;
  metrics: Metrics;
  /** API and MCP request counts per tenant, key, app, channel and day (batched into Postgres). */
  usage: UsageMeter;
  /** Calls placed per minute and simultaneous-call slots, per tenant. */
  callLimits: CallLimits;
  /** Voicemail recordings. */
  recordings: RecordingStore;
}

/** What a store function that writes timestamps needs: the database and the clock. */
export type DbClock = Pick<Ctx, 'db' | 'clock'>;
