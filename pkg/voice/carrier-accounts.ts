// The carrier an account's calls go through: its own carrier account when it has one (set by an
// operator, the auth token sealed at rest and never shown), else the deployment's, else none (the
// simulated network). Every use of carrier credentials asks carrierCredentials.
import { carrierReachable } from '../config.js';
import type { Ctx } from '../context.js';
import { Invalid, Unavailable } from '../errors.js';
import { getTenant } from '../store/tenants.js';
import { carrierAccountRow, deleteCarrierAccountRow, putCarrierAccountRow } from '../store/carrier-accounts.js';
import type { TwilioAccount } from './gateways/twilio/rest.js';

type CarrierCtx = Pick<Ctx, 'db' | 'config' | 'secrets'>;

export interface CarrierAccountInput {
  carrier: string;
  accountSid: string;
  authToken: string;
}

/** What the account and its operator may see: never the token. */
export interface CarrierSettings {
  /** The network the account's calls go through. */
  carrier: 'twilio' | 'sim';
  /** account: its own carrier account; deployment: the deployment's (its SID not shown). */
  source: 'account' | 'deployment';
  account_sid: string | null;
  auth_token_set: boolean;
}

const ACCOUNT_SID = /^AC[0-9a-f]{32}$/;
const AUTH_TOKEN = /^[\x21-\x7e]{8,256}$/;

const deploymentAccount = (config: CarrierCtx['config']): TwilioAccount | null =>
  config.SWITCHBOARD_CARRIER === 'twilio'
    ? { accountSid: config.TWILIO_ACCOUNT_SID!, authToken: config.TWILIO_AUTH_TOKEN!, apiBase: config.TWILIO_API_BASE, timeoutMs: config.SWITCHBOARD_OUTBOUND_TIMEOUT_MS }
    : null;

/** The carrier credentials of `tenantId`'s calls (the deployment's for null); null: the simulated network. */
export async function carrierCredentials(ctx: CarrierCtx, tenantId: string | null): Promise<TwilioAccount | null> {
  const own = tenantId === null ? undefined : await carrierAccountRow(ctx, tenantId);
  if (!own) return deploymentAccount(ctx.config);
  if (!ctx.secrets) throw new Unavailable(`The carrier auth token of ${tenantId} is encrypted and SWITCHBOARD_ENCRYPTION_KEY is not set`);
  return {
    accountSid: own.account_sid,
    authToken: ctx.secrets.open<string>(own.auth_token_sealed),
    apiBase: ctx.config.TWILIO_API_BASE,
    timeoutMs: ctx.config.SWITCHBOARD_OUTBOUND_TIMEOUT_MS,
  };
}

export async function carrierSettings(ctx: CarrierCtx, tenantId: string): Promise<CarrierSettings> {
  const own = await carrierAccountRow(ctx, tenantId);
  if (own) return { carrier: own.carrier, source: 'account', account_sid: own.account_sid, auth_token_set: true };
  return { carrier: ctx.config.SWITCHBOARD_CARRIER, source: 'deployment', account_sid: null, auth_token_set: false };
}

/** Gives the account its own carrier account (replacing one it had). */
export async function setCarrierAccount(ctx: CarrierCtx & Pick<Ctx, 'clock'>, tenantId: string, input: CarrierAccountInput): Promise<CarrierSettings> {
  if (input.carrier !== 'twilio') throw new Invalid(`carrier must be twilio, got "${input.carrier}"`);
  if (!ACCOUNT_SID.test(input.accountSid)) throw new Invalid('account SID must be AC followed by 32 hexadecimal digits');
  if (!AUTH_TOKEN.test(input.authToken)) throw new Invalid('auth token must be 8 to 256 printable characters, no spaces');
  if (!ctx.secrets) throw new Unavailable('A carrier auth token needs the encryption key (SWITCHBOARD_ENCRYPTION_KEY)');
  if (!carrierReachable(ctx.config)) throw new Unavailable("An account's carrier needs SWITCHBOARD_PUBLIC_URL (https://) on this deployment");
  await getTenant(ctx, tenantId);
  const now = ctx.clock.now();
  await putCarrierAccountRow(ctx, {
    tenant_id: tenantId,
    carrier: 'twilio',
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
