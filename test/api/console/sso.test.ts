import { expect } from 'chai';
import { sha256 } from '../../../pkg/ids.js';
import { addUser } from '../../../pkg/console/users.js';
import { startTestApp, type HttpResult, type TestApp } from '../../support/app.js';
import { ConsoleBrowser, signedInUser } from '../../support/console.js';
import { startOpenIdProvider, startSsoDeployment, type SsoDeployment, type TestOpenIdProvider } from '../../support/oidc-provider.js';

/** The browser's single sign-on attempt cookie from the answer that started it. */
function attemptCookie(res: HttpResult): { value: string; attributes: string } {
  const header = res.headers.getSetCookie().find((c) => c.startsWith('sb_sso='));
  if (!header) throw new Error(`no sb_sso cookie in ${res.status}`);
  const [pair, ...attributes] = header.split('; ');
  return { value: pair!.slice('sb_sso='.length), attributes: attributes.join('; ') };
}

describe('Console single sign-on through OpenID Connect', () => {
  let deployment: SsoDeployment;
  let front: { url: string };
  let provider: TestOpenIdProvider;
  let app: TestApp;
  let tenantId: string;
  let people = 0;

  before(async () => {
    deployment = await startSsoDeployment({ env: { SWITCHBOARD_SIGN_IN_PER_CLIENT_PER_MINUTE: '10000' } });
    ({ provider, app } = deployment);
    front = deployment;
    ({ tenantId } = await app.company({ name: 'SSO Co' }));
  });
  after(async () => deployment?.close());

  /** A person at the provider with `email` (verified unless said otherwise): their login there. */
  function person(email: string, verified = true): string {
    const login = `person${++people}`;
    provider.people.set(login, { email, email_verified: verified });
    return login;
  }

  /** A console user invited to the account (no password), and the same person at the provider. */
  async function invited(role: 'owner' | 'viewer' = 'owner'): Promise<{ id: string; email: string; login: string }> {
    const email = `sso${++people}.${Date.now()}@example.com`;
    const { user } = await addUser(app.runtime.ctx, { tenantId, user: null }, { email, role, name: `SSO ${people}` });
    return { id: user.id, email, login: person(email.toUpperCase()) };
  }

  /** The browser starts at `/console/sso` (with `query`): the answer, and the attempt it holds. */
  async function start(browser: ConsoleBrowser, query = ''): Promise<{ res: HttpResult; location: URL; attempt: string }> {
    const res = await browser.get(`/console/sso${query}`);
    expect(res.status, JSON.stringify(res.body)).to.equal(303);
    return { res, location: new URL(res.headers.get('location')!), attempt: attemptCookie(res).value };
  }

  /** The browser comes back from the provider to `callback`, with the attempt's cookie (if any) and its session's. */
  function callback(browser: ConsoleBrowser, url: URL, attempt?: string): Promise<HttpResult> {
    const cookies = [attempt && `sb_sso=${attempt}`, browser.cookie && `sb_session=${browser.cookie}`].filter(Boolean);
    return browser.request('GET', `${url.pathname}${url.search}`, undefined, cookies.length ? { cookie: cookies.join('; ') } : {});
  }

  /** The whole flow for `login`: the callback's answer. */
  async function signIn(browser: ConsoleBrowser, login: string, query = ''): Promise<HttpResult> {
    const { location, attempt } = await start(browser, query);
    return callback(browser, await provider.signIn(location.href, login), attempt);
  }

  /** The reason the app last logged for a refusal. */
  const lastRefusal = (): string => app.logs.filter((line) => line.includes('console single sign-on refused')).at(-1) ?? '';

  /** The answer sends the browser back to the sign-in page saying why, and sets no session. */
  function expectRefused(res: HttpResult, reason: string): void {
    expect(res.status, JSON.stringify(res.body)).to.equal(303);
    expect(res.headers.get('location')).to.equal(`/sign-in?sso_error=${reason}`);
    expect(res.headers.getSetCookie().filter((c) => c.startsWith('sb_session='))).to.deep.equal([]);
  }

  it('offers single sign-on to the sign-in page, without a session', async () => {
    const res = await new ConsoleBrowser(front.url).get('/console/api/sign-in/options');
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({ password: true, sso: true });
  });

  it('sends the browser to the provider with the code flow, PKCE (S256), state and nonce, binding the attempt to an HttpOnly cookie', async () => {
    const { res, location } = await start(new ConsoleBrowser(front.url));
    expect(location.origin).to.equal(provider.issuer);
    const params = Object.fromEntries(location.searchParams);
    expect(params).to.include({
      client_id: provider.env.SWITCHBOARD_OIDC_CLIENT_ID,
      response_type: 'code',
      redirect_uri: `${front.url}/console/sso/callback`,
      scope: 'openid email',
      code_challenge_method: 'S256',
    });
    expect(params.state).to.match(/^[\w-]{32,}$/);
    expect(params.nonce)
      .to.match(/^[\w-]{32,}$/)
      .and.not.equal(params.state);
    expect(params.code_challenge).to.match(/^[\w-]{43}$/);
    expect(params).not.to.have.any.keys('client_secret', 'code_verifier');
    // Ten minutes to sign in at the provider.
    const { attributes } = attemptCookie(res);
    expect(attributes).to.match(/^Path=\/console\/sso; HttpOnly; SameSite=Lax; Max-Age=\d+; Secure$/);
    expect(Number(/Max-Age=(\d+)/.exec(attributes)![1])).to.be.within(1, 600);
    expect(res.headers.get('cache-control')).to.equal('no-store');
  });

  it('signs a known user with a verified email in with a new session that works on /console/api, audited as sso', async () => {
    const user = await invited('owner');
    const browser = new ConsoleBrowser(front.url);
    browser.cookie = 'planted-by-an-attacker-0123456789abcdefghijklmnopqrstuvwxyz';

    const asked = provider.paths.length;
    const res = await signIn(browser, user.login);

    expect(res.status, JSON.stringify(res.body)).to.equal(303);
    expect(res.headers.get('location')).to.equal('/');
    // The provider keeps the address out of the ID token of a code flow: it was asked at UserInfo.
    expect(provider.paths.slice(asked)).to.include.members(['/token', '/me']);
    const session = res.headers.getSetCookie().find((c) => c.startsWith('sb_session='))!;
    expect(session).to.match(/^sb_session=[\w-]{40,}; Path=\/; HttpOnly; SameSite=Lax; Max-Age=\d+; Secure$/);
    expect(browser.cookie).not.to.equal('planted-by-an-attacker-0123456789abcdefghijklmnopqrstuvwxyz');
    expect(res.headers.getSetCookie()).to.include('sb_sso=; Path=/console/sso; HttpOnly; SameSite=Lax; Max-Age=0; Secure');

    const me = await browser.get('/console/api/session');
    expect(me.status).to.equal(200);
    expect(me.body.user).to.include({ id: user.id, email: user.email, role: 'owner' });
    expect(me.body.account).to.deep.equal({ id: tenantId, name: 'SSO Co' });
    // A change with the session's CSRF token, as the console's pages make.
    const invite = await browser.post('/console/api/users', { email: `invited.${Date.now()}@example.com`, role: 'viewer' });
    expect(invite.status, JSON.stringify(invite.body)).to.equal(201);
    const audit = await browser.get('/console/api/audit?limit=5');
    const signedIn = audit.body.entries.find((e: any) => e.action === 'session.signed_in');
    expect(signedIn).to.deep.include({ user: { id: user.id, email: user.email }, target: user.id, details: { method: 'sso' } });

    const planted = new ConsoleBrowser(front.url);
    planted.cookie = 'planted-by-an-attacker-0123456789abcdefghijklmnopqrstuvwxyz';
    expect((await planted.get('/console/api/session')).status).to.equal(401);
  });

  it('ends the session the browser came with and gives it a new one', async () => {
    const { browser, email } = await signedInUser(app, tenantId, 'viewer');
    const login = person(email);
    const stale = new ConsoleBrowser(front.url);
    stale.cookie = browser.cookie;

    expect((await signIn(browser, login)).status).to.equal(303);

    expect(browser.cookie).not.to.equal(stale.cookie);
    expect((await stale.get('/console/api/session')).status).to.equal(401);
    expect((await browser.get('/console/api/session')).body.user.email).to.equal(email);
  });

  it('takes the address from the ID token when the provider puts it there', async () => {
    const inToken = await startSsoDeployment({ emailInIdToken: true });
    try {
      const { tenantId: otherTenant } = await inToken.app.company();
      const email = `idtoken.${Date.now()}@example.com`;
      await addUser(inToken.app.runtime.ctx, { tenantId: otherTenant, user: null }, { email, role: 'member' });
      inToken.provider.people.set('id-token-person', { email, email_verified: true });
      const browser = new ConsoleBrowser(inToken.url);
      const { location, attempt } = await start(browser);

      const res = await callback(browser, await inToken.provider.signIn(location.href, 'id-token-person'), attempt);
      expect(inToken.provider.paths).to.include('/token').and.not.include('/me');

      expect(res.status, JSON.stringify(res.body)).to.equal(303);
      expect(res.headers.get('location')).to.equal('/');
      expect((await browser.get('/console/api/session')).body.user.email).to.equal(email);
    } finally {
      await inToken.close();
    }
  });

  it('opens the console path the sign-in page was sent from, and never another site', async () => {
    const user = await invited('viewer');
    const deep = new ConsoleBrowser(front.url);
    expect(
      (await signIn(deep, user.login, `?next=${encodeURIComponent('/calls/call_1?tab=transcript')}`)).headers.get('location'),
    ).to.equal('/calls/call_1?tab=transcript');
    for (const next of ['//evil.example.com/x', '/\\evil.example.com', 'https://evil.example.com/']) {
      const res = await signIn(new ConsoleBrowser(front.url), user.login, `?next=${encodeURIComponent(next)}`);
      expect(res.headers.get('location'), next).to.equal('/');
    }
  });

  it('refuses an email no console user has: back to sign-in with not_a_user, no session, nobody created', async () => {
    const login = person(`stranger.${Date.now()}@example.com`);
    const users = await app.runtime.ctx.db('console_users').count({ n: '*' }).first();
    const browser = new ConsoleBrowser(front.url);

    expectRefused(await signIn(browser, login), 'not_a_user');

    expect(browser.cookie).to.equal(undefined);
    expect(await app.runtime.ctx.db('console_users').count({ n: '*' }).first()).to.deep.equal(users);
    expect((await browser.get('/console/api/session')).status).to.equal(401);
  });

  it("refuses an existing user's email the provider has not verified: email_unverified, no session", async () => {
    const user = await invited('owner');
    const login = person(user.email, false);
    const browser = new ConsoleBrowser(front.url);

    expectRefused(await signIn(browser, login), 'email_unverified');

    expect(browser.cookie).to.equal(undefined);
    const sessions = await app.runtime.ctx.db('console_sessions').where({ user_id: user.id });
    expect(sessions).to.deep.equal([]);
  });

  it('refuses a forged or missing state (failed), and the attempt is used up by it', async () => {
    const user = await invited();
    for (const forge of [
      (url: URL) => url.searchParams.set('state', 'forged-state-0123456789abcdefghijklmnop'),
      (url: URL) => url.searchParams.delete('state'),
    ]) {
      const browser = new ConsoleBrowser(front.url);
      const { location, attempt } = await start(browser);
      const answer = await provider.signIn(location.href, user.login);
      const forged = new URL(answer);
      forge(forged);

      expectRefused(await callback(browser, forged, attempt), 'failed');
      expect(lastRefusal()).to.include('state');
      expectRefused(await callback(browser, answer, attempt), 'expired');
      expect(browser.cookie).to.equal(undefined);
    }
  });

  it("refuses an ID token whose nonce is not the attempt's (failed)", async () => {
    const user = await invited();
    const browser = new ConsoleBrowser(front.url);
    const { location, attempt } = await start(browser);
    // The same request with another nonce: the provider's answer carries the attempt's state and code challenge.
    location.searchParams.set('nonce', 'another-nonce-0123456789abcdefghijklmnopqrstuv');

    expectRefused(await callback(browser, await provider.signIn(location.href, user.login), attempt), 'failed');
    expect(lastRefusal(), lastRefusal()).to.include('nonce');
    expect(browser.cookie).to.equal(undefined);
  });

  it('refuses an error from the provider (the person cancelled): denied', async () => {
    const browser = new ConsoleBrowser(front.url);
    const { location, attempt } = await start(browser);
    const answer = await provider.cancel(location.href);
    expect(answer.searchParams.get('error')).to.equal('access_denied');

    expectRefused(await callback(browser, answer, attempt), 'denied');
  });

  it('refuses a replayed answer, and one without the attempt cookie (another browser): expired', async () => {
    const user = await invited();
    const browser = new ConsoleBrowser(front.url);
    const { location, attempt } = await start(browser);
    const answer = await provider.signIn(location.href, user.login);

    const thief = new ConsoleBrowser(front.url);
    expectRefused(await callback(thief, answer), 'expired');
    expect((await callback(browser, answer, attempt)).headers.get('location')).to.equal('/');
    const replay = new ConsoleBrowser(front.url);
    expectRefused(await callback(replay, answer, attempt), 'expired');
    expect(replay.cookie).to.equal(undefined);
  });

  it('refuses an answer whose code was used already, even with a live attempt of the browser (failed)', async () => {
    const user = await invited();
    const browser = new ConsoleBrowser(front.url);
    const first = await start(browser);
    const used = await provider.signIn(first.location.href, user.login);
    expect((await callback(browser, used, first.attempt)).status).to.equal(303);
    const second = await start(browser);
    const replayed = new URL(used);
    replayed.searchParams.set('state', second.location.searchParams.get('state')!);
    const before = browser.cookie;

    expectRefused(await callback(browser, replayed, second.attempt), 'failed');
    expect(lastRefusal()).to.include('invalid_grant');
    expect(browser.cookie).to.equal(before);
  });

  it('refuses an expired attempt', async () => {
    const user = await invited();
    const browser = new ConsoleBrowser(front.url);
    const { location, attempt } = await start(browser);
    await app.runtime.ctx
      .db('console_sso_attempts')
      .where({ token_hash: sha256(attempt) })
      .update({ expires_at: new Date(Date.now() - 1000) });

    expectRefused(await callback(browser, await provider.signIn(location.href, user.login), attempt), 'expired');
  });

  it('never logs the client secret, the code, the attempt or the session', async () => {
    const user = await invited();
    const browser = new ConsoleBrowser(front.url);
    const { location, attempt } = await start(browser);
    const answer = await provider.signIn(location.href, user.login);
    await callback(browser, answer, attempt);
    // A refused one too: its reason is logged.
    await callback(browser, answer, attempt);

    const logs = app.logs.join('');
    expect(logs).to.include('console single sign-on refused');
    for (const secret of [provider.env.SWITCHBOARD_OIDC_CLIENT_SECRET, answer.searchParams.get('code')!, attempt, browser.cookie!]) {
      expect(logs.includes(secret), 'a secret is in the logs').to.equal(false);
    }
  });

  it('counts each start against the sign-in attempts of the client address: over the bound, back to sign-in (rate_limited)', async () => {
    const limited = await startSsoDeployment({ env: { SWITCHBOARD_SIGN_IN_PER_CLIENT_PER_MINUTE: '2' } });
    try {
      const browser = new ConsoleBrowser(limited.url);
      for (let i = 0; i < 2; i++)
        expect((await browser.get('/console/sso')).headers.get('location')).to.match(new RegExp(`^${limited.provider.issuer}/`));

      const refused = await browser.get('/console/sso');

      expect(refused.status).to.equal(303);
      expect(refused.headers.get('location')).to.equal('/sign-in?sso_error=rate_limited');
      expect(refused.headers.getSetCookie()).to.deep.equal([]);
      expect((await browser.signIn('someone@example.com')).status, 'password attempts share the bound').to.equal(429);
    } finally {
      await limited.close();
    }
  });

  it("sends the browser back to sign-in (unavailable) when the provider cannot be reached, under the public URL's path", async () => {
    const gone = await startOpenIdProvider({ redirectUri: 'https://voice.example.test/switchboard/console/sso/callback' });
    await gone.close();
    const unreachable = await startTestApp({ env: { SWITCHBOARD_PUBLIC_URL: 'https://voice.example.test/switchboard/', ...gone.env } });
    try {
      const res = await new ConsoleBrowser(unreachable.url).get('/console/sso');
      expect(res.status).to.equal(303);
      expect(res.headers.get('location')).to.equal('/switchboard/sign-in?sso_error=unavailable');
      expect(res.headers.getSetCookie()).to.deep.equal([]);
    } finally {
      await unreachable.close();
    }
  });

  describe('without SWITCHBOARD_OIDC_*', () => {
    let plain: TestApp;
    before(async () => {
      plain = await startTestApp();
    });
    after(async () => plain?.close());

    it('answers 404 in the console error shape for the start and the callback, and the sign-in page offers only passwords', async () => {
      const browser = new ConsoleBrowser(plain.url);
      for (const path of ['/console/sso', '/console/sso?next=/', '/console/sso/callback?code=x&state=y']) {
        const res = await browser.get(path);
        expect(res.status, path).to.equal(404);
        expect(res.body, path).to.deep.equal({ error: { code: 'not_found', message: 'Single sign-on is not set up on this deployment' } });
        expect(res.headers.getSetCookie(), path).to.deep.equal([]);
      }
      expect((await browser.get('/console/api/sign-in/options')).body).to.deep.equal({ password: true, sso: false });
    });
  });
});
