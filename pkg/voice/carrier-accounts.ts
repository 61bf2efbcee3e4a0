// The carrier an account's calls go through: its own carrier account when it has one (set by an
// operator; Twilio's auth token or Telnyx's API key sealed at rest and never shown), else the deployment's, else none (the
// simulated network). Every use of carrier credentials asks carrierCredentials.
import { carrierReachable } from '../config.js';
import type { Ctx } from '../context.js';
import { Invalid, Unavailable } from '../errors.js';
import { getTenant } from '../store/tenants.js';
import { carrierAccountRow, deleteCarrierAccountRow, putCarrierAccountRow, type CarrierAccountRow } from '../store/carrier-accounts.js';
import type { CarrierAccount, CarrierName } from './gateways/carrier.js';
import { telnyxPublicKey } from './gateways/telnyx/signature.js';

type CarrierCtx = Pick<Ctx, 'db' | 'config' | 'secrets'>;

export interface CarrierAccountInput {
  carrier: string;
  accountSid: string;
  /** Twilio's auth token, or Telnyx's API key. */
  authToken: string;
  /** Telnyx: the TeXML application the calls are placed through. */
  connectionId?: string;
  /** Telnyx: the account's public key (base64), which checks its signatures. */
  publicKey?: string;
}

/** What the account and its operator may see: never the token. */
export interface CarrierSettings {
  /** The network the account's calls go through. */
  carrier: CarrierName | 'sim';
  /** account: its own carrier account; deployment: the deployment's (its SID not shown). */
  source: 'account' | 'deployment';
  account_sid: string | null;
  /** Telnyx: its own TeXML application. */
  connection_id: string | null;
  auth_token_set: boolean;
}

const TWILIO_ACCOUNT_SID = /^AC[0-9a-f]{32}$/;
const TELNYX_ACCOUNT_SID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const CONNECTION_ID = /^[A-Za-z0-9_-]{1,64}$/;
const AUTH_TOKEN = /^[\x21-\x7e]{8,256}$/;

function deploymentAccount(config: CarrierCtx['config']): CarrierAccount | null {
  const timeoutMs = config.SWITCHBOARD_OUTBOUND_TIMEOUT_MS;
  if (config.SWITCHBOARD_CARRIER === 'twilio')
    return {
      carrier: 'twilio',
      accountSid: config.TWILIO_ACCOUNT_SID!,
      authToken: config.TWILIO_AUTH_TOKEN!,
      apiBase: config.TWILIO_API_BASE,
      timeoutMs,
    };
  if (config.SWITCHBOARD_CARRIER === 'telnyx') {
    return {
      carrier: 'telnyx',
      accountSid: config.TELNYX_ACCOUNT_SID!,
      connectionId: config.TELNYX_CONNECTION_ID!,
      apiKey: config.TELNYX_API_KEY!,
      publicKey: config.TELNYX_PUBLIC_KEY!,
      apiBase: config.TELNYX_API_BASE,
      timeoutMs,
    };
  }
  return null;
}

/** The carrier credentials of `tenantId`'s calls (the deployment's for null); null: the simulated network. */
export async function carrierCredentials(ctx: CarrierCtx, tenantId: string | null): Promise<CarrierAccount | null> {
  const own = tenantId === null ? undefined : await carrierAccountRow(ctx, tenantId);
  if (!own) return deploymentAccount(ctx.config);
  if (!ctx.secrets) throw new Unavailable(`The carrier auth token of ${tenantId} is encrypted and SWITCHBOARD_ENCRYPTION_KEY is not set`);
  const secret = ctx.secrets.open<string>(own.auth_token_sealed);
  const timeoutMs = ctx.config.SWITCHBOARD_OUTBOUND_TIMEOUT_MS;
  if (own.carrier === 'twilio')
    return { carrier: 'twilio', accountSid: own.account_sid, authToken: secret, apiBase: ctx.config.TWILIO_API_BASE, timeoutMs };
  return {
    carrier: 'telnyx',
    accountSid: own.account_sid,
    connectionId: own.connection_id!,
    apiKey: secret,
    publicKey: own.public_key!,
    apiBase: ctx.config.TELNYX_API_BASE,
    timeoutMs,
  };
}

export async function carrierSettings(ctx: CarrierCtx, tenantId: string): Promise<CarrierSettings> {
  const own = await carrierAccountRow(ctx, tenantId);
  if (own)
    return {
      carrier: own.carrier,
      source: 'account',
      account_sid: own.account_sid,
      connection_id: own.connection_id,
      auth_token_set: true,
    };
  return { carrier: ctx.config.SWITCHBOARD_CARRIER, source: 'deployment', account_sid: null, connection_id: null, auth_token_set: false };
}

/** The row's carrier-specific columns, from `input` checked for its carrier. */
function carrierColumns(input: CarrierAccountInput): Pick<CarrierAccountRow, 'carrier' | 'connection_id' | 'public_key'> {
  if (!AUTH_TOKEN.test(input.authToken))
    throw new Invalid(`${input.carrier === 'telnyx' ? 'API key' : 'auth token'} must be 8 to 256 printable characters, no spaces`);
  if (input.carrier === 'twilio') {
    if (!TWILIO_ACCOUNT_SID.test(input.accountSid)) throw new Invalid('account SID must be AC followed by 32 hexadecimal digits');
    return { carrier: 'twilio', connection_id: null, public_key: null };
  }
  if (input.carrier === 'telnyx') {
    if (!TELNYX_ACCOUNT_SID.test(input.accountSid)) throw new Invalid("account SID must be the Telnyx account's id, a UUID");
    if (!input.connectionId || !CONNECTION_ID.test(input.connectionId))
      throw new Invalid('connection ID (the TeXML application) must be 1 to 64 letters, digits, - or _');
    if (!input.publicKey || !telnyxPublicKey(input.publicKey))
      throw new Invalid("public key must be the Telnyx account's Ed25519 public key, 32 bytes in base64");
    return { carrier: 'telnyx', connection_id: input.connectionId, public_key: input.publicKey };
  }
  throw new Invalid(`carrier must be twilio or telnyx, got "${input.carrier}"`);
}

/** Gives the account its own carrier account (replacing one it had). */
export async function setCarrierAccount(
  ctx: CarrierCtx & Pick<Ctx, 'clock'>,
  tenantId: string,
  input: CarrierAccountInput,
): Promise<CarrierSettings> {
  const columns = carrierColumns(input);
  if (!ctx.secrets) throw new Unavailable('A carrier auth token needs the encryption key (SWITCHBOARD_ENCRYPTION_KEY)');
  if (!carrierReachable(ctx.config))
    throw new Unavailable("An account's carrier needs SWITCHBOARD_PUBLIC_URL (https://) on this deployment");
  await getTenant(ctx, tenantId);
  const now = ctx.clock.now();
  await putCarrierAccountRow(ctx, {
    tenant_id: tenantId,
    ...columns,
    account_sid: input.accountSid,
    auth_token_sealed: ctx.secrets.seal(input.authToken),
    created_at: now,
    updated_at: now,
  });
  return carrierSettings(ctx, tenantId);
}

/** The account goes back to the deployment's carrier; whether it had its own. */
export async function clearCarrierAccount(ctx: CarrierCtx, tenantId: string): Promise<boolean> {
  await getTenant(ctx, tenantId);
  return deleteCarrierAccountRow(ctx, tenantId);
}
