// Signing in to the console, with a password or a one-time link, and signing out. Every sign-in
// starts a new session (a session id known before sign-in is never promoted) and ends the one the
// browser came with.
import { z } from 'zod';
import type { Ctx } from '../context.js';
import { NotFound, TooManyRequests, Unauthorized } from '../errors.js';
import type { RateLimits } from '../limits/rate-limit.js';
import { parseInput } from '../validate.js';
import { audit } from './audit.js';
import { redeemSignInLink } from './links.js';
import { verifyNothing, verifyPassword } from './passwords.js';
import { endSession, endUserSessions, findSession, startSession, type ConsoleSession } from './sessions.js';
import { emailSchema } from './users.js';

type SignInCtx = Pick<Ctx, 'db' | 'clock' | 'config'>;

const signInSchema = z.object({ email: emailSchema, password: z.string().max(1024) }).strict();

/** A new session: the cookie's token and the session it is. */
export interface SignedIn {
  token: string;
  expiresAt: Date;
  session: ConsoleSession;
}

/** The same answer for an unknown address, a user without a password and a wrong password. */
const invalidCredentials = () => new Unauthorized('Wrong email or password', 'invalid_credentials');

/** The longest a client waits to try one address's password again, however long it kept trying. */
const MAX_EMAIL_BLOCK_SEC = 3600;

/**
 * Counts an attempt at a password for the address from this client, and for the client; 429 when
 * either is over its limit per minute. The address is counted per client, its wait growing with each
 * refusal, so that someone hammering a known address delays only themselves, never its owner.
 */
export async function countPasswordAttempt(ctx: SignInCtx, limits: RateLimits, email: string, client: string): Promise<void> {
  await countAttempts([
    limits.consumeBackingOff(
      'sign_in_email',
      `${client} ${email}`,
      ctx.config.SWITCHBOARD_SIGN_IN_PER_EMAIL_PER_MINUTE,
      MAX_EMAIL_BLOCK_SEC,
    ),
    limits.consume('sign_in_client', client, ctx.config.SWITCHBOARD_SIGN_IN_PER_CLIENT_PER_MINUTE),
  ]);
}

/** Counts a sign-in attempt of another kind (single sign-on) for the client; 429 when it is over its limit per minute. */
export async function countClientAttempt(ctx: SignInCtx, limits: RateLimits, client: string): Promise<void> {
  await countAttempts([limits.consume('sign_in_client', client, ctx.config.SWITCHBOARD_SIGN_IN_PER_CLIENT_PER_MINUTE)]);
}

async function countAttempts(consumed: ReturnType<RateLimits['consume']>[]): Promise<void> {
  const refused = (await Promise.all(consumed)).filter((d) => !d.allowed);
  if (refused.length)
    throw new TooManyRequests('Too many sign-in attempts; try again later', Math.max(...refused.map((d) => d.retryAfterSec)));
}

/** Ends the session the browser came with (if any), starts the user's new one and records the sign-in. */
export async function beginSignedIn(
  ctx: SignInCtx,
  userId: string,
  previousToken: string | undefined,
  method: 'password' | 'link' | 'sso',
): Promise<SignedIn> {
  if (previousToken) await endSession(ctx, previousToken);
  const { token, expiresAt } = await startSession(ctx, userId);
  const session = (await findSession(ctx, token))!;
  await audit(ctx, { tenantId: session.account.id, user: session.user }, 'session.signed_in', session.user.id, { method });
  return { token, expiresAt, session };
}

export async function signInWithPassword(
  ctx: SignInCtx,
  limits: RateLimits,
  input: unknown,
  from: { client: string; previousToken?: string },
): Promise<SignedIn> {
  const { email, password } = parseInput(signInSchema, input, 'sign-in');
  await countPasswordAttempt(ctx, limits, email, from.client);
  const row = await ctx.db('console_users').where({ email }).select('id', 'password_hash').first();
  const ok = row?.password_hash ? await verifyPassword(password, row.password_hash) : await verifyNothing(password);
  if (!ok) throw invalidCredentials();
  return beginSignedIn(ctx, row.id, from.previousToken, 'password');
}

/** Uses up a one-time link; 404 `link_invalid` when it is unknown, used or expired. */
export async function signInWithLink(ctx: SignInCtx, linkToken: string, previousToken?: string): Promise<SignedIn> {
  const userId = await redeemSignInLink(ctx, linkToken);
  if (!userId)
    throw new NotFound('This sign-in link is unknown, used already or expired; ask an owner of the account for a new one', 'link_invalid');
  return beginSignedIn(ctx, userId, previousToken, 'link');
}

export async function signOut(ctx: Pick<Ctx, 'db' | 'clock'>, session: ConsoleSession, token: string): Promise<void> {
  await endSession(ctx, token);
  await audit(ctx, { tenantId: session.account.id, user: session.user }, 'session.signed_out', session.user.id);
}

export async function signOutEverywhere(ctx: Pick<Ctx, 'db' | 'clock'>, session: ConsoleSession): Promise<void> {
  await endUserSessions(ctx, session.user.id);
  await audit(ctx, { tenantId: session.account.id, user: session.user }, 'session.signed_out_everywhere', session.user.id);
}
