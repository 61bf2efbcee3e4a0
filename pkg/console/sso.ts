// Single sign-on to the console through the operator's OpenID provider (SWITCHBOARD_OIDC_*): the
// authorization code flow with PKCE, `state` and `nonce`, the ID token's signature checked. A person
// signs in as the EXISTING console user whose address the provider says it verified; nobody is
// created here (owners invite users). Each attempt is kept in Postgres, bound to the browser by a
// cookie, and used up by the provider's answer, so a replayed answer finds nothing.
import { randomBytes } from 'node:crypto';
import * as oidc from 'openid-client';
import type { Ctx } from '../context.js';
import { publicUrl, type Config } from '../config.js';
import { sha256 } from '../ids.js';
import { beginSignedIn, type SignedIn } from './sign-in.js';
import { emailSchema } from './users.js';

type SsoCtx = Pick<Ctx, 'db' | 'clock' | 'config'>;

/** How long a person has at the provider before the attempt is void. */
const ATTEMPT_TTL_MS = 10 * 60_000;

/** Why a single sign-on did not sign anyone in: the code the sign-in page explains. */
export type SsoRefusal = 'not_a_user' | 'email_unverified' | 'denied' | 'expired' | 'failed' | 'unavailable';

/** A refused single sign-on; `message` is for the operator's log and never holds a token. */
export class SsoRefused extends Error {
  constructor(
    readonly reason: SsoRefusal,
    message: string,
  ) {
    super(message);
  }
}

export const ssoConfigured = (config: Config): boolean => config.SWITCHBOARD_OIDC_ISSUER !== undefined;

/** Where the provider sends the browser back: registered with the provider as the client's redirect URI. */
export const ssoCallbackUrl = (config: Config): string => `${publicUrl(config)}/console/sso/callback`;

/** A console path to open after signing in: only a path of this site, else the overview. */
export function consolePath(next: unknown): string {
  return typeof next === 'string' && /^\/(?![/\\])/.test(next) && next.length <= 2000 ? next : '/';
}

/** What went wrong, for the log: the messages of the error and its causes, and the provider's error code; never a token. */
function whatFailed(err: unknown): string {
  const said: string[] = [];
  for (let e = err; e instanceof Error && said.length < 3; e = e.cause) said.push(e.message);
  if (err instanceof oidc.ResponseBodyError) said.push(err.error);
  return said.join(': ');
}

export class SingleSignOn {
  private discovered?: Promise<oidc.Configuration>;

  constructor(private readonly ctx: SsoCtx) {}

  /** The provider's metadata, discovered once (again after a failure). */
  private provider(): Promise<oidc.Configuration> {
    const { config } = this.ctx;
    this.discovered ??= oidc
      .discovery(
        new URL(config.SWITCHBOARD_OIDC_ISSUER!),
        config.SWITCHBOARD_OIDC_CLIENT_ID!,
        { redirect_uris: [ssoCallbackUrl(config)], response_types: ['code'] },
        oidc.ClientSecretBasic(config.SWITCHBOARD_OIDC_CLIENT_SECRET!),
        // The ID token's signature is checked against the provider's keys, not only its claims.
        { execute: [oidc.enableNonRepudiationChecks], timeout: Math.ceil(config.SWITCHBOARD_OUTBOUND_TIMEOUT_MS / 1000) },
      )
      .catch((err: Error) => {
        this.discovered = undefined;
        throw new SsoRefused('unavailable', `discovery of ${config.SWITCHBOARD_OIDC_ISSUER} failed: ${whatFailed(err)}`);
      });
    return this.discovered;
  }

  /** A new attempt: the token of the browser's cookie that binds it, when it ends, and the provider's URL to send the browser to. */
  async start(next: unknown): Promise<{ token: string; expiresAt: Date; url: string }> {
    const provider = await this.provider();
    const token = randomBytes(32).toString('base64url');
    const [state, nonce, codeVerifier] = [oidc.randomState(), oidc.randomNonce(), oidc.randomPKCECodeVerifier()];
    const now = this.ctx.clock.now();
    const expiresAt = new Date(now.getTime() + ATTEMPT_TTL_MS);
    await this.ctx.db('console_sso_attempts').where('expires_at', '<=', now).delete();
    await this.ctx.db('console_sso_attempts').insert({
      token_hash: sha256(token),
      state,
      nonce,
      code_verifier: codeVerifier,
      return_to: consolePath(next),
      created_at: now,
      expires_at: expiresAt,
    });
    const url = oidc.buildAuthorizationUrl(provider, {
      redirect_uri: ssoCallbackUrl(this.ctx.config),
      scope: 'openid email',
      state,
      nonce,
      code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
    });
    return { token, expiresAt, url: url.href };
  }

  /**
   * Uses up the attempt of the browser's `token` with the provider's answer (the callback's query
   * string): the new session of the console user with the verified address, and the path to open.
   */
  async finish(
    token: string | undefined,
    search: string,
    previousToken: string | undefined,
  ): Promise<{ signedIn: SignedIn; returnTo: string }> {
    const now = this.ctx.clock.now();
    const [attempt] = token
      ? await this.ctx
          .db('console_sso_attempts')
          .where({ token_hash: sha256(token) })
          .andWhere('expires_at', '>', now)
          .delete()
          .returning('*')
      : [];
    if (!attempt)
      throw new SsoRefused('expired', 'no live single sign-on attempt for this browser (none started, used already or expired)');
    const provider = await this.provider();
    const claims = await this.verifiedClaims(provider, search, attempt);
    if (claims.email_verified !== true) throw new SsoRefused('email_unverified', 'the provider did not say the email address is verified');
    const email = emailSchema.safeParse(claims.email);
    const user = email.success ? await this.ctx.db('console_users').where({ email: email.data }).first('id') : undefined;
    if (!user) throw new SsoRefused('not_a_user', 'no console user has the email address the provider gave');
    return { signedIn: await beginSignedIn(this.ctx, user.id, previousToken, 'sso'), returnTo: attempt.return_to };
  }

  /** The person's claims: the ID token's when it has the address, else the UserInfo endpoint's (for the same subject). */
  private async verifiedClaims(
    provider: oidc.Configuration,
    search: string,
    attempt: Record<string, string>,
  ): Promise<Record<string, unknown>> {
    try {
      const tokens = await oidc.authorizationCodeGrant(provider, new URL(`${ssoCallbackUrl(this.ctx.config)}${search}`), {
        pkceCodeVerifier: attempt.code_verifier,
        expectedState: attempt.state,
        expectedNonce: attempt.nonce,
        idTokenExpected: true,
      });
      const idToken = tokens.claims()!;
      return idToken.email !== undefined ? idToken : await oidc.fetchUserInfo(provider, tokens.access_token, idToken.sub);
    } catch (err) {
      if (err instanceof oidc.AuthorizationResponseError) throw new SsoRefused('denied', `the provider answered ${err.error}`);
      throw new SsoRefused('failed', `the provider's answer was refused: ${whatFailed(err)}`);
    }
  }
}
