// A signed-in user sets their password: the first one after a sign-in link, or a new one given the
// current one. The user's other sessions end with the old password.
import { z } from 'zod';
import type { Ctx } from '../context.js';
import { invalid, parseInput } from '../validate.js';
import { audit } from './audit.js';
import { hashPassword, MIN_PASSWORD_LENGTH, verifyPassword } from './passwords.js';
import { endUserSessions, type ConsoleSession } from './sessions.js';
import { countPasswordAttempt } from './sign-in.js';
import type { RateLimits } from '../limits/rate-limit.js';

const passwordSchema = z
  .object({
    password: z.string().min(MIN_PASSWORD_LENGTH, `must be at least ${MIN_PASSWORD_LENGTH} characters`).max(1024),
    currentPassword: z.string().max(1024).optional(),
  })
  .strict();

/** Guesses at the current password count as sign-in attempts: a session is no way around their limit. */
export async function setPassword(
  ctx: Pick<Ctx, 'db' | 'clock' | 'config'>,
  limits: RateLimits,
  session: ConsoleSession,
  input: unknown,
  client: string,
): Promise<void> {
  const { password, currentPassword } = parseInput(passwordSchema, input, 'password');
  const { password_hash: stored } = await ctx.db('console_users').where({ id: session.user.id }).select('password_hash').first();
  if (stored) await countPasswordAttempt(ctx, limits, session.user.email, client);
  if (stored && !(currentPassword !== undefined && (await verifyPassword(currentPassword, stored)))) {
    throw invalid('password', [{ path: 'currentPassword', message: 'must be your current password' }]);
  }
  const hash = await hashPassword(password);
  await ctx.db.transaction(async (trx) => {
    await trx('console_users').where({ id: session.user.id }).update({ password_hash: hash, updated_at: ctx.clock.now() });
    await endUserSessions({ db: trx }, session.user.id, session.tokenHash);
    await audit({ ...ctx, db: trx }, { tenantId: session.account.id, user: session.user }, 'user.password_set', session.user.id);
  });
}
