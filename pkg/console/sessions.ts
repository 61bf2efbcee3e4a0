// Console sessions: a random token in the browser's cookie, its SHA-256 the key in Postgres; ended
// after 12 hours unused or 7 days in all, by the clock. The CSRF token is derived from the session's
// token, so it is bound to the session and never stored.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Ctx, DbClock } from '../context.js';
import { sha256 } from '../ids.js';
import { toUser, type ConsoleUser } from './users.js';

const IDLE_MS = 12 * 3600_000;
const ABSOLUTE_MS = 7 * 24 * 3600_000;
// Last use is written at most this often: a page's burst of requests costs one write.
const TOUCH_EVERY_MS = 60_000;

export interface ConsoleSession {
  user: ConsoleUser;
  account: { id: string; name: string };
  csrfToken: string;
  /** How the session is known in Postgres. */
  tokenHash: string;
}

const csrfTokenFor = (token: string): string => createHmac('sha256', token).update('switchboard console csrf').digest('base64url');

/** Whether `given` is the CSRF token of the session `token`, compared in constant time. */
export function csrfMatches(token: string, given: string | undefined): boolean {
  const expected = Buffer.from(csrfTokenFor(token));
  const actual = Buffer.from(given ?? '');
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** A new session of `userId`: its token, for the cookie, and when it ends at the latest. Also clears the user's ended ones. */
export async function startSession(ctx: DbClock, userId: string): Promise<{ token: string; expiresAt: Date }> {
  const token = randomBytes(32).toString('base64url');
  const now = ctx.clock.now();
  const expiresAt = new Date(now.getTime() + ABSOLUTE_MS);
  await ctx
    .db('console_sessions')
    .where({ user_id: userId })
    .andWhere((q) => {
      q.where('expires_at', '<=', now).orWhere('last_seen_at', '<=', new Date(now.getTime() - IDLE_MS));
    })
    .delete();
  await ctx
    .db('console_sessions')
    .insert({ token_hash: sha256(token), user_id: userId, created_at: now, last_seen_at: now, expires_at: expiresAt });
  return { token, expiresAt };
}

/** The live session of `token`, its use noted; null when there is none (unknown, ended, or idle or old past its limit). */
export async function findSession(ctx: DbClock, token: string): Promise<ConsoleSession | null> {
  const tokenHash = sha256(token);
  const now = ctx.clock.now();
  const row = await ctx
    .db('console_sessions as s')
    .join('console_users as u', 'u.id', 's.user_id')
    .join('tenants as t', 't.id', 'u.tenant_id')
    .select('u.*', 't.name as tenant_name', 's.last_seen_at', 's.expires_at')
    .where('s.token_hash', tokenHash)
    .first();
  if (!row) return null;
  if (row.expires_at <= now || now.getTime() - row.last_seen_at.getTime() >= IDLE_MS) {
    await endSession(ctx, token);
    return null;
  }
  if (now.getTime() - row.last_seen_at.getTime() >= TOUCH_EVERY_MS) {
    await ctx.db('console_sessions').where({ token_hash: tokenHash }).update({ last_seen_at: now });
  }
  return { user: toUser(row), account: { id: row.tenant_id, name: row.tenant_name }, csrfToken: csrfTokenFor(token), tokenHash };
}

export async function endSession(ctx: Pick<Ctx, 'db'>, token: string): Promise<void> {
  await ctx
    .db('console_sessions')
    .where({ token_hash: sha256(token) })
    .delete();
}

/** Ends every session of `userId`, or every one but `keepHash`. */
export async function endUserSessions(ctx: Pick<Ctx, 'db'>, userId: string, keepHash?: string): Promise<void> {
  const query = ctx.db('console_sessions').where({ user_id: userId });
  if (keepHash) query.whereNot({ token_hash: keepHash });
  await query.delete();
}
