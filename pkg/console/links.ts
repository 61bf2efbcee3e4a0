// One-time sign-in links: given out once (by `admin user add` or an invitation), good for one
// sign-in before they expire; only the token's hash is stored.
import { randomBytes } from 'node:crypto';
import type { Ctx } from '../context.js';
import { publicUrl } from '../config.js';
import { sha256 } from '../ids.js';

/** How long a link from `admin user add` or an invitation stays good. */
const LINK_TTL_MS = 24 * 3600_000;

/** A new link for `userId`: the URL to give the user, on SWITCHBOARD_PUBLIC_URL. */
export async function issueSignInLink(ctx: Pick<Ctx, 'db' | 'clock' | 'config'>, userId: string): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  const now = ctx.clock.now();
  await ctx.db('console_sign_in_links').insert({
    token_hash: sha256(token),
    user_id: userId,
    created_at: now,
    expires_at: new Date(now.getTime() + LINK_TTL_MS),
  });
  return `${publicUrl(ctx.config)}/console/sign-in/${token}`;
}

/** Uses up the link `token`: its user's id, or null when it is unknown, used or expired. */
export async function redeemSignInLink(ctx: Pick<Ctx, 'db' | 'clock'>, token: string): Promise<string | null> {
  const now = ctx.clock.now();
  const [row] = await ctx
    .db('console_sign_in_links')
    .where({ token_hash: sha256(token), used_at: null })
    .andWhere('expires_at', '>', now)
    .update({ used_at: now })
    .returning('user_id');
  return row?.user_id ?? null;
}
