// The tenant's webhook secret: made on first need, replaced at once by rotation, sealed at rest
// when an encryption key is configured. Only the console's view (admin tenant show) returns it.
import { randomBytes } from 'node:crypto';
import type { Ctx } from '../context.js';
import { NotFound, Unavailable } from '../errors.js';
import { SECRET_PREFIX } from './sign.js';

type SecretCtx = Pick<Ctx, 'db' | 'clock' | 'secrets' | 'log'>;

let warnedUnsealed = false;

export const newWebhookSecret = (): string => `${SECRET_PREFIX}${randomBytes(32).toString('base64')}`;

function seal(ctx: SecretCtx, secret: string): string {
  if (ctx.secrets) return ctx.secrets.seal(secret);
  if (!warnedUnsealed) {
    warnedUnsealed = true;
    ctx.log.warn('SWITCHBOARD_ENCRYPTION_KEY is not set: webhook secrets are stored unencrypted (development only)');
  }
  return secret;
}

function unseal(ctx: SecretCtx, stored: string): string {
  // Stored before an encryption key was configured.
  if (stored.startsWith(SECRET_PREFIX)) return stored;
  if (!ctx.secrets) throw new Unavailable('The webhook secret is encrypted and SWITCHBOARD_ENCRYPTION_KEY is not set');
  return ctx.secrets.open<string>(stored);
}

/** The tenant's current secret, made now if it has none. */
export async function webhookSecret(ctx: SecretCtx, tenantId: string): Promise<string> {
  const row = await ctx.db('tenants').where({ id: tenantId }).first('webhook_secret');
  if (!row) throw new NotFound(`Unknown tenant ${tenantId}`);
  return openWebhookSecret(ctx, tenantId, row.webhook_secret);
}

/** The secret from `stored`, the tenant's webhook_secret as read along with other rows; made now if it was null. */
export async function openWebhookSecret(ctx: SecretCtx, tenantId: string, stored: string | null): Promise<string> {
  if (stored) return unseal(ctx, stored);
  // Two first needs at once: the first write wins and both read it back.
  await ctx
    .db('tenants')
    .where({ id: tenantId })
    .whereNull('webhook_secret')
    .update({ webhook_secret: seal(ctx, newWebhookSecret()) });
  return webhookSecret(ctx, tenantId);
}

/** Replace the secret; the next delivery is signed with the new one. */
export async function rotateWebhookSecret(ctx: SecretCtx, tenantId: string): Promise<void> {
  const updated = await ctx
    .db('tenants')
    .where({ id: tenantId })
    .update({ webhook_secret: seal(ctx, newWebhookSecret()), updated_at: ctx.clock.now() });
  if (!updated) throw new NotFound(`Unknown tenant ${tenantId}`);
}
