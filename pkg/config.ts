// Configuration comes only from the environment, parsed once at start.
import { z } from 'zod';

const optionalString = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()));

const intWithDefault = (def: number, min: number, max: number) =>
  z.coerce.number().int().min(min).max(max).default(def);

const encryptionKey = optionalString.refine(
  (v) => v === undefined || Buffer.from(v, 'base64').length === 32,
  'must be 32 bytes, base64-encoded (openssl rand -base64 32)',
);

export const configSchema = z.object({
  DATABASE_URL: optionalString,
  REDIS_URL: optionalString,
  HOST: z.string().default('0.0.0.0'),
  PORT: intWithDefault(8080, 0, 65535),
  OPENAI_BASE_URL: optionalString.pipe(z.url().optional()),
  OPENAI_API_KEY: optionalString,
  SWITCHBOARD_DEFAULT_MODEL: z.string().min(1).default('gpt-4o-mini'),
  SWITCHBOARD_ENCRYPTION_KEY: encryptionKey,
  SWITCHBOARD_OUTBOUND_ALLOW: optionalString,
  SWITCHBOARD_TURN_TIMEOUT_SEC: intWithDefault(120, 1, 3600),
  SWITCHBOARD_HEADERS_TIMEOUT_SEC: intWithDefault(10, 1, 3600),
  SWITCHBOARD_REQUEST_TIMEOUT_SEC: intWithDefault(30, 1, 3600),
  SWITCHBOARD_DATA_DIR: z.string().default('.switchboard'),
  SWITCHBOARD_LOG_LEVEL: z.enum(['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent']).default('info'),
  SWITCHBOARD_DB_POOL_MAX: intWithDefault(20, 3, 500),
  SWITCHBOARD_DB_ACQUIRE_TIMEOUT_MS: intWithDefault(10_000, 100, 120_000),
  SWITCHBOARD_CREDITS_PER_1K_TOKENS: z.coerce.number().positive().default(1),
  SWITCHBOARD_OUTBOUND_TIMEOUT_MS: intWithDefault(10_000, 100, 120_000),
  SWITCHBOARD_OUTBOUND_MAX_BYTES: intWithDefault(1_048_576, 1024, 50 * 1_048_576),
  SWITCHBOARD_MAX_TOOL_ROUNDS: intWithDefault(8, 1, 50),
  SWITCHBOARD_JOB_MAX_ATTEMPTS: intWithDefault(3, 1, 100),
  SWITCHBOARD_JOB_TTL_HOURS: intWithDefault(24, 1, 24 * 30),
  SWITCHBOARD_LEASE_SEC: intWithDefault(30, 1, 3600),
  SWITCHBOARD_CONTROLLER_CONCURRENCY: intWithDefault(8, 1, 256),
  SWITCHBOARD_CALL_CONCURRENCY: intWithDefault(64, 1, 1024),
  SWITCHBOARD_SHUTDOWN_GRACE_SEC: intWithDefault(25, 0, 3600),
  KUBECONFIG: optionalString,
  KUBERNETES_SERVICE_HOST: optionalString,
  SWITCHBOARD_KUBE_NAMESPACE: optionalString,
  SWITCHBOARD_MIRROR_RETENTION_MIN: intWithDefault(60, 0, 7 * 24 * 60),
  SWITCHBOARD_MIRROR_RESYNC_SEC: intWithDefault(2, 1, 3600),
  SWITCHBOARD_WEBHOOK_RETRY_SEC: intWithDefault(5, 1, 3600),
  SWITCHBOARD_SIM_SCENARIOS: optionalString,
  SWITCHBOARD_CALLER_ID: z.string().regex(/^\+[1-9]\d{6,14}$/, 'must be an E.164 number').default('+12025550100'),
});

export type Config = z.output<typeof configSchema>;

/** Thrown when the environment is invalid; names the variable. */
export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = configSchema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ConfigError(`invalid configuration: ${issue.path.join('.')}: ${issue.message}`);
  }
  return parsed.data;
}

/** The documented variables, their defaults and meaning (README table and `switchboard config`). */
export const configDocs: Record<keyof Config, string> = {
  DATABASE_URL: 'Postgres URL. Unset: embedded Postgres with data under SWITCHBOARD_DATA_DIR',
  REDIS_URL: 'Redis URL for limits shared across replicas. Unset: in-memory limits',
  HOST: 'Address the HTTP server binds (default 0.0.0.0)',
  PORT: 'HTTP port (default 8080; 0 picks a free one)',
  OPENAI_BASE_URL: 'OpenAI-compatible endpoint (OpenAI, vLLM, Ollama, llama.cpp). Unset with no key: the built-in offline model',
  OPENAI_API_KEY: 'Key for that endpoint',
  SWITCHBOARD_DEFAULT_MODEL: 'Model for agents without one (default gpt-4o-mini)',
  SWITCHBOARD_ENCRYPTION_KEY: '32 bytes, base64: encrypts tool credentials and webhook secrets at rest. Unset: authenticated tools are refused (503); webhook secrets are stored unencrypted (development only)',
  SWITCHBOARD_OUTBOUND_ALLOW: 'Comma-separated hosts or CIDRs that outbound calls may reach although not public (development, tests)',
  SWITCHBOARD_TURN_TIMEOUT_SEC: 'Synchronous agent turn timeout in seconds (default 120)',
  SWITCHBOARD_HEADERS_TIMEOUT_SEC: 'Seconds a client has to send a request\'s headers, at most SWITCHBOARD_REQUEST_TIMEOUT_SEC; past it 408 and the connection closes (default 10)',
  SWITCHBOARD_REQUEST_TIMEOUT_SEC: 'Seconds a client has to send a whole request, body included; past it 408 and the connection closes. Answers (SSE streams, long polls) are not limited (default 30)',
  SWITCHBOARD_DATA_DIR: 'Where embedded Postgres keeps its data (default .switchboard)',
  SWITCHBOARD_LOG_LEVEL: 'trace|debug|info|warn|error|fatal|silent (default info)',
  SWITCHBOARD_DB_POOL_MAX: 'Postgres connections one process opens at most, all told (default 20): one listens, the rest are shared by queries and conversation locks. Keep replicas × this well under the server\'s max_connections',
  SWITCHBOARD_DB_ACQUIRE_TIMEOUT_MS: 'How long a request waits for a free Postgres connection before it is answered 503 with Retry-After (default 10000)',
  SWITCHBOARD_CREDITS_PER_1K_TOKENS: 'Credits consumed per 1,000 tokens (default 1)',
  SWITCHBOARD_OUTBOUND_TIMEOUT_MS: 'Timeout of one outbound tool call in ms (default 10000)',
  SWITCHBOARD_OUTBOUND_MAX_BYTES: 'Largest tool response read, in bytes (default 1048576)',
  SWITCHBOARD_MAX_TOOL_ROUNDS: 'Model calls one turn may make while running tools (default 8)',
  SWITCHBOARD_JOB_MAX_ATTEMPTS: 'Executions a job may have (maxAttempts, default 3)',
  SWITCHBOARD_JOB_TTL_HOURS: 'Hard runtime window of a job from its start (expiresAt, default 24)',
  SWITCHBOARD_LEASE_SEC: 'Lease of claimed work; heartbeated while it runs, lost when the heartbeat stops (default 30)',
  SWITCHBOARD_CONTROLLER_CONCURRENCY: 'Jobs, and webhook deliveries, one controller replica runs at once (default 8)',
  SWITCHBOARD_CALL_CONCURRENCY: 'Calls one controller replica conducts at once, each for its whole length (default 64)',
  SWITCHBOARD_SHUTDOWN_GRACE_SEC: 'On SIGTERM, how long running work may take to finish (default 25)',
  KUBECONFIG: 'Kubeconfig of the cluster to mirror jobs into as Trigger objects. Unset and not in a cluster: the mirror is off',
  KUBERNETES_SERVICE_HOST: 'Set by Kubernetes inside a pod: the mirror uses the service account',
  SWITCHBOARD_KUBE_NAMESPACE: 'Namespace of the mirrored objects (default: the pod\'s namespace, else the kubeconfig\'s, else default)',
  SWITCHBOARD_MIRROR_RETENTION_MIN: 'How long finished jobs stay mirrored, in minutes (default 60)',
  SWITCHBOARD_MIRROR_RESYNC_SEC: 'Mirror resync period in seconds; changes are also pushed at once (default 2)',
  SWITCHBOARD_WEBHOOK_RETRY_SEC: 'Seconds between tries of a webhook that is tried more than once (message.created; default 5)',
  SWITCHBOARD_SIM_SCENARIOS: 'JSON scenario table of the simulated phone network, replacing the shipped one (number → answer, busy, no-answer, voicemail, fail; ring time; the callee\'s lines)',
  SWITCHBOARD_CALLER_ID: 'The number placed calls come from when they name no `from` (E.164, default +12025550100)',
};
