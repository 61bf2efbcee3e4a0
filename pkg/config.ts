// Configuration comes only from the environment, parsed once at start.
import { telnyxPublicKey } from './voice/gateways/telnyx/signature.js';
import { isIP } from 'node:net';
import { catalogueSchema, TRANSCRIPTION_PROVIDERS, voiceProblem } from './voice/voices.js';
import { z } from 'zod';

const optionalString = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()));

const intWithDefault = (def: number, min: number, max: number) => z.coerce.number().int().min(min).max(max).default(def);

/** An address, a CIDR range, or one of Express's names for a range. */
const isProxyRange = (entry: string): boolean => {
  if (['loopback', 'linklocal', 'uniquelocal'].includes(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (!family || rest.length) return false;
  return prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128));
};
/** A setting holding JSON, parsed, then checked by `schema`. */
const jsonSetting = <T extends z.ZodType>(schema: T) =>
  optionalString
    .transform((v, c) => {
      if (v === undefined) return undefined;
      try {
        return JSON.parse(v) as unknown;
      } catch {
        c.addIssue({ code: 'custom', message: 'must be JSON' });
        return z.NEVER;
      }
    })
    .pipe(schema.optional());

const encryptionKey = optionalString.refine(
  (v) => v === undefined || Buffer.from(v, 'base64').length === 32,
  'must be 32 bytes, base64-encoded (openssl rand -base64 32)',
);

export const configSchema = z.object({
  DATABASE_URL: optionalString,
  REDIS_URL: optionalString,
  HOST: z.string().default('0.0.0.0'),
  PORT: intWithDefault(8080, 0, 65535),
  /** /metrics is served here only, never on PORT: its series name every account and key. */
  SWITCHBOARD_METRICS_PORT: intWithDefault(9464, 0, 65535),
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
  /** Pay-as-you-go invoices (pkg/billing): prices in minor units of the currency (cents for USD). */
  SWITCHBOARD_PRICE_PER_CREDIT: intWithDefault(1, 0, 1_000_000_000),
  SWITCHBOARD_PRICE_PER_CALL_MINUTE: intWithDefault(2, 0, 1_000_000_000),
  SWITCHBOARD_CURRENCY: z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^[A-Z]{3}$/, 'must be an ISO 4217 currency code such as USD or EUR')
    .default('USD'),
  SWITCHBOARD_OUTBOUND_TIMEOUT_MS: intWithDefault(10_000, 100, 120_000),
  SWITCHBOARD_OUTBOUND_MAX_BYTES: intWithDefault(1_048_576, 1024, 50 * 1_048_576),
  SWITCHBOARD_MAX_TOOL_ROUNDS: intWithDefault(8, 1, 50),
  /** Simultaneous model calls across every replica (shared through Redis); 0: no cap. */
  SWITCHBOARD_MODEL_CONCURRENCY: intWithDefault(0, 0, 100_000),
  SWITCHBOARD_MODEL_WAIT_SEC: intWithDefault(60, 1, 3600),
  SWITCHBOARD_JOB_MAX_ATTEMPTS: intWithDefault(3, 1, 100),
  SWITCHBOARD_JOB_TTL_HOURS: intWithDefault(24, 1, 24 * 30),
  SWITCHBOARD_LEASE_SEC: intWithDefault(30, 1, 3600),
  /** Runs wait on their model and tools holding no connection (pkg/db/locks.ts): a replica carries many. */
  SWITCHBOARD_CONTROLLER_CONCURRENCY: intWithDefault(1000, 1, 10_000),
  SWITCHBOARD_CALL_CONCURRENCY: intWithDefault(500, 1, 4096),
  SWITCHBOARD_RELAY_CONCURRENCY: intWithDefault(500, 1, 4096),
  SWITCHBOARD_SHUTDOWN_GRACE_SEC: intWithDefault(25, 0, 3600),
  KUBECONFIG: optionalString,
  KUBERNETES_SERVICE_HOST: optionalString,
  SWITCHBOARD_KUBE_NAMESPACE: optionalString,
  SWITCHBOARD_MIRROR_RETENTION_MIN: intWithDefault(60, 0, 7 * 24 * 60),
  SWITCHBOARD_MIRROR_RESYNC_SEC: intWithDefault(2, 1, 3600),
  SWITCHBOARD_WEBHOOK_RETRY_SEC: intWithDefault(5, 1, 3600),
  SWITCHBOARD_WEBHOOK_CONCURRENCY: intWithDefault(256, 1, 4096),
  SWITCHBOARD_SIM_SCENARIOS: optionalString,
  /** The voice catalogue (pkg/voice/voices.ts): a JSON array; unset, the built-in one. */
  SWITCHBOARD_VOICES: jsonSetting(catalogueSchema),
  SWITCHBOARD_DEFAULT_VOICE: optionalString,
  SWITCHBOARD_TRANSCRIPTION_PROVIDER: z.enum(TRANSCRIPTION_PROVIDERS).default('Deepgram'),
  SWITCHBOARD_CALLER_ID: z
    .string()
    .regex(/^\+[1-9]\d{6,14}$/, 'must be an E.164 number')
    .default('+12025550100'),
  SWITCHBOARD_SIGN_IN_PER_EMAIL_PER_MINUTE: intWithDefault(10, 1, 10_000),
  SWITCHBOARD_SIGN_IN_PER_CLIENT_PER_MINUTE: intWithDefault(60, 1, 100_000),
  /** The proxies in front (addresses, CIDR ranges, `loopback`…): a request through one is from its X-Forwarded-For client. */
  SWITCHBOARD_TRUSTED_PROXIES: optionalString
    .transform((v) =>
      v
        ? v
            .split(',')
            .map((e) => e.trim())
            .filter(Boolean)
        : [],
    )
    .refine((list) => list.every(isProxyRange), 'must list addresses, CIDR ranges, loopback, linklocal or uniquelocal, comma-separated'),
  SWITCHBOARD_PUBLIC_URL: optionalString.pipe(z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional()),
  /** Single sign-on to the console through an OpenID provider: all three or none. */
  SWITCHBOARD_OIDC_ISSUER: optionalString.pipe(z.url({ protocol: /^https$/, error: 'must be an https URL' }).optional()),
  SWITCHBOARD_OIDC_CLIENT_ID: optionalString,
  SWITCHBOARD_OIDC_CLIENT_SECRET: optionalString,
  /** The telephone network: the built-in simulator, or a real carrier. */
  SWITCHBOARD_CARRIER: z.enum(['sim', 'twilio', 'telnyx']).default('sim'),
  TWILIO_ACCOUNT_SID: optionalString,
  TWILIO_AUTH_TOKEN: optionalString,
  TWILIO_API_BASE: z.url().default('https://api.twilio.com'),
  TELNYX_ACCOUNT_SID: optionalString,
  /** The TeXML application (connection) calls are placed through. */
  TELNYX_CONNECTION_ID: optionalString,
  TELNYX_API_KEY: optionalString,
  /** The account's Ed25519 public key (base64), which checks Telnyx's signatures. */
  TELNYX_PUBLIC_KEY: optionalString.refine(
    (v) => v === undefined || telnyxPublicKey(v) !== null,
    "must be the account's Ed25519 public key, 32 bytes in base64",
  ),
  TELNYX_API_BASE: z.url().default('https://api.telnyx.com'),
});

export type Config = z.output<typeof configSchema>;

/** Settings a carrier cannot work without, named when missing. */
const CARRIER_NEEDS = {
  sim: [],
  twilio: ['TWILIO_ACCOUNT_SID', 'TWILIO_AUTH_TOKEN', 'SWITCHBOARD_PUBLIC_URL'],
  telnyx: ['TELNYX_ACCOUNT_SID', 'TELNYX_CONNECTION_ID', 'TELNYX_API_KEY', 'TELNYX_PUBLIC_KEY', 'SWITCHBOARD_PUBLIC_URL'],
} as const;

const OIDC_SETTINGS = ['SWITCHBOARD_OIDC_ISSUER', 'SWITCHBOARD_OIDC_CLIENT_ID', 'SWITCHBOARD_OIDC_CLIENT_SECRET'] as const;

/** Where clients reach this deployment, for the links the API gives out: SWITCHBOARD_PUBLIC_URL, else the address `make run` serves. */
export const publicUrl = (config: Pick<Config, 'SWITCHBOARD_PUBLIC_URL' | 'PORT'>): string =>
  (config.SWITCHBOARD_PUBLIC_URL ?? `http://localhost:${config.PORT}`).replace(/\/+$/, '');

/** Whether a carrier can reach this deployment (over TLS only): for the deployment's carrier or an account's own. */
export const carrierReachable = (config: Pick<Config, 'SWITCHBOARD_PUBLIC_URL'>): boolean =>
  config.SWITCHBOARD_PUBLIC_URL?.startsWith('https:') ?? false;

/** Thrown when the environment is invalid; names the variable. */
export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = configSchema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ConfigError(`invalid configuration: ${issue.path.join('.')}: ${issue.message}`);
  }
  const config = parsed.data;
  for (const name of CARRIER_NEEDS[config.SWITCHBOARD_CARRIER]) {
    if (!config[name])
      throw new ConfigError(`invalid configuration: ${name}: required by SWITCHBOARD_CARRIER=${config.SWITCHBOARD_CARRIER}`);
  }
  const oidcSet = OIDC_SETTINGS.filter((name) => config[name]);
  const oidcMissing = OIDC_SETTINGS.find((name) => !config[name]);
  if (oidcSet.length && oidcMissing)
    throw new ConfigError(`invalid configuration: ${oidcMissing}: required with ${oidcSet[0]} (single sign-on)`);
  if (config.SWITCHBOARD_DEFAULT_VOICE !== undefined) {
    const problem = voiceProblem(config, config.SWITCHBOARD_DEFAULT_VOICE);
    if (problem) throw new ConfigError(`invalid configuration: SWITCHBOARD_DEFAULT_VOICE: ${problem}`);
  }
  if (config.SWITCHBOARD_CARRIER !== 'sim' && !carrierReachable(config)) {
    throw new ConfigError(
      `invalid configuration: SWITCHBOARD_PUBLIC_URL: must be https:// with SWITCHBOARD_CARRIER=${config.SWITCHBOARD_CARRIER}`,
    );
  }
  return config;
}
