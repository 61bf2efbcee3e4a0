// A real OpenID provider (the `oidc-provider` library) on loopback HTTPS with the test certificate,
// its development login page accepting any password for the people the test registers, and one
// confidential client: the Switchboard under test. `signIn` plays a person's browser at the provider.
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import Provider, { type KoaContextWithOIDC } from 'oidc-provider';
import { startTestApp, type TestApp } from './app.js';
import { TLS_DIR } from './https.js';
import { startTlsFront, type TlsFront } from './tls-front.js';

export interface ProviderPerson {
  email: string;
  email_verified: boolean;
}

export interface TestOpenIdProvider {
  issuer: string;
  /** The SWITCHBOARD_OIDC_* settings of the client the provider knows. */
  env: { SWITCHBOARD_OIDC_ISSUER: string; SWITCHBOARD_OIDC_CLIENT_ID: string; SWITCHBOARD_OIDC_CLIENT_SECRET: string };
  /** People who can sign in at the provider, by their login name there. */
  people: Map<string, ProviderPerson>;
  /** The paths of every request the provider answered, in order. */
  paths: string[];
  /** Plays the person `login` at the provider from its authorization URL: the URL it sends the browser back to. */
  signIn(authorizationUrl: string, login: string): Promise<URL>;
  /** Cancels at the provider's login page instead: the URL it sends the browser back to (an `error`). */
  cancel(authorizationUrl: string): Promise<URL>;
  close(): Promise<void>;
}

/** `redirectUri`: Switchboard's callback. `emailInIdToken`: the address in the ID token too, not only from UserInfo. */
export async function startOpenIdProvider(opts: { redirectUri: string; emailInIdToken?: boolean }): Promise<TestOpenIdProvider> {
  const server = createServer({ cert: readFileSync(join(TLS_DIR, 'cert.pem')), key: readFileSync(join(TLS_DIR, 'key.pem')) });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const env = {
    SWITCHBOARD_OIDC_ISSUER: issuer,
    SWITCHBOARD_OIDC_CLIENT_ID: 'switchboard-console',
    SWITCHBOARD_OIDC_CLIENT_SECRET: randomBytes(24).toString('base64url'),
  };
  const people = new Map<string, ProviderPerson>();
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: env.SWITCHBOARD_OIDC_CLIENT_ID,
        client_secret: env.SWITCHBOARD_OIDC_CLIENT_SECRET,
        redirect_uris: [opts.redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    jwks: {
      keys: [
        {
          ...generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' }),
          kid: 'test',
          use: 'sig',
          alg: 'RS256',
        },
      ],
    },
    cookies: { keys: [randomBytes(32).toString('base64url')] },
    claims: { openid: ['sub'], email: ['email', 'email_verified'] },
    conformIdTokenClaims: !opts.emailInIdToken,
    pkce: { required: () => true },
    features: { devInteractions: { enabled: true } },
    async findAccount(_ctx, sub) {
      const person = people.get(sub);
      return person && { accountId: sub, claims: async () => ({ sub, ...person }) };
    },
    // The console is a first-party client: the person is not asked to consent.
    async loadExistingGrant(ctx: KoaContextWithOIDC) {
      const { client, session } = ctx.oidc;
      const grant = new ctx.oidc.provider.Grant({ clientId: client!.clientId, accountId: session!.accountId! });
      grant.addOIDCScope('openid email');
      await grant.save();
      return grant;
    },
  });
  const paths: string[] = [];
  provider.use(async (ctx: { path: string }, next: () => Promise<void>) => {
    paths.push(ctx.path);
    await next();
  });
  server.on('request', provider.callback());

  /** Follows the provider's redirects with its cookies, posting its login form once: where it sends the browser back. */
  async function browse(
    authorizationUrl: string,
    atLogin: (page: URL, html: string) => { url: string; form?: URLSearchParams },
  ): Promise<URL> {
    const jar = new Map<string, string>();
    let next: { url: string; form?: URLSearchParams } = { url: authorizationUrl };
    for (let hop = 0; hop < 10; hop++) {
      const res = await fetch(next.url, {
        method: next.form ? 'POST' : 'GET',
        redirect: 'manual',
        headers: {
          cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; '),
          ...(next.form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
        },
        body: next.form?.toString(),
      });
      for (const c of res.headers.getSetCookie()) {
        const [pair] = c.split(';');
        const eq = pair!.indexOf('=');
        jar.set(pair!.slice(0, eq), pair!.slice(eq + 1));
      }
      const location = res.headers.get('location');
      if (location) {
        const to = new URL(location, next.url);
        if (to.origin !== issuer) return to;
        next = { url: to.href };
      } else if (res.status === 200) {
        next = atLogin(new URL(next.url), await res.text());
      } else {
        throw new Error(`the provider answered ${res.status}: ${await res.text()}`);
      }
    }
    throw new Error('too many redirects at the provider');
  }

  return {
    issuer,
    env,
    people,
    paths,
    signIn: (authorizationUrl, login) =>
      browse(authorizationUrl, (page, html) => {
        const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
        if (!action) throw new Error(`no login form at ${page.href}`);
        return { url: new URL(action, page).href, form: new URLSearchParams({ prompt: 'login', login, password: 'any password' }) };
      }),
    cancel: (authorizationUrl) => browse(authorizationUrl, (page) => ({ url: `${page.href}/abort` })),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface SsoDeployment {
  /** The deployment's public URL, https (its TLS front). */
  url: string;
  app: TestApp;
  provider: TestOpenIdProvider;
  close(): Promise<void>;
}

/** A Switchboard behind TLS at its public URL, signing in through its own OpenID provider; `env` adds to its configuration. */
export async function startSsoDeployment(opts: { env?: Record<string, string>; emailInIdToken?: boolean } = {}): Promise<SsoDeployment> {
  const front: TlsFront = await startTlsFront();
  const provider = await startOpenIdProvider({ redirectUri: `${front.url}/console/sso/callback`, emailInIdToken: opts.emailInIdToken });
  const app = await startTestApp({ env: { SWITCHBOARD_PUBLIC_URL: front.url, ...opts.env, ...provider.env } });
  front.forwardTo(app.url);
  return {
    url: front.url,
    app,
    provider,
    async close() {
      await app.close();
      await provider.close();
      await front.close();
    },
  };
}
