import { expect } from 'chai';
import { request, type IncomingHttpHeaders } from 'node:http';
import { addUser } from '../../../pkg/console/users.js';
import { startTestApp, type TestApp } from '../../support/app.js';
import { ConsoleBrowser, PASSWORD, signedInUser } from '../../support/console.js';
import { reachableRedis } from '../../support/redis.js';

const redisUrl = await reachableRedis();

describe('Console sign-in', () => {
  let app: TestApp;
  let tenantId: string;
  before(async () => {
    // Every test signs in from 127.0.0.1: the per-client limit has its own test below.
    app = await startTestApp({ env: { SWITCHBOARD_SIGN_IN_PER_CLIENT_PER_MINUTE: '10000' } });
    ({ tenantId } = await app.company({ name: 'Console Co' }));
  });
  after(async () => app.close());

  /** A password sign-in from another loopback address: another client, as the server sees it. */
  function signInFrom(localAddress: string, email: string, password: string): Promise<{ status: number; headers: IncomingHttpHeaders }> {
    return new Promise((resolve, reject) => {
      const body = JSON.stringify({ email, password });
      const { hostname, port } = new URL(app.url);
      const req = request(
        {
          hostname,
          port,
          localAddress,
          method: 'POST',
          path: '/console/api/sign-in',
          headers: { 'content-type': 'application/json', origin: app.url },
        },
        (res) => {
          res.resume().on('end', () => resolve({ status: res.statusCode!, headers: res.headers }));
        },
      );
      req.on('error', reject).end(body);
    });
  }

  describe('POST /console/api/sign-in', () => {
    it('answers the user, the account and a CSRF token, and sets an HttpOnly, SameSite=Lax session cookie for /', async () => {
      const { email } = await signedInUser(app, tenantId, 'admin');
      const browser = new ConsoleBrowser(app.url);

      const res = await browser.signIn(email);

      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.user).to.include({ email, role: 'admin' }).and.have.all.keys('id', 'email', 'name', 'role');
      expect(res.body.user.id).to.match(/^usr_/);
      expect(res.body.account).to.deep.equal({ id: tenantId, name: 'Console Co' });
      expect(res.body.csrf_token).to.be.a('string').with.length.above(20);
      expect(browser.setCookies).to.have.length(1);
      const cookie = browser.setCookies[0]!;
      expect(cookie).to.match(/^sb_session=[\w-]{40,};/);
      expect(cookie).to.include('; Path=/').and.include('; HttpOnly').and.include('; SameSite=Lax');
      expect(cookie, 'not Secure over http with an http public URL').not.to.include('Secure');
      expect(res.headers.get('cache-control')).to.equal('no-store');
      expect((await browser.get('/console/api/session')).body).to.deep.equal(res.body);
    });

    it('answers 401 invalid_credentials, the same for a wrong password, an unknown email and a user with no password yet, and sets no cookie', async () => {
      const { email } = await signedInUser(app, tenantId);
      const invited = await addUser(app.runtime.ctx, { tenantId, user: null }, { email: 'no-password@example.com', role: 'member' });
      const browser = new ConsoleBrowser(app.url);

      const answers = [
        await browser.signIn(email, 'wrong password, long enough'),
        await browser.signIn('nobody@example.com'),
        await browser.signIn(invited.user.email, ''),
      ];

      for (const res of answers) {
        expect(res.status).to.equal(401);
        expect(res.body).to.deep.equal({ error: { code: 'invalid_credentials', message: 'Wrong email or password' } });
      }
      expect(browser.cookie).to.equal(undefined);
      expect((await browser.get('/console/api/session')).status).to.equal(401);
    });

    it('reads the email without regard to case or surrounding spaces', async () => {
      const { email } = await signedInUser(app, tenantId);

      const res = await new ConsoleBrowser(app.url).signIn(`  ${email.toUpperCase()} `);

      expect(res.status, JSON.stringify(res.body)).to.equal(200);
    });

    it('answers 422 naming the field, or 400 for a body that is not an object, and never 500', async () => {
      const browser = new ConsoleBrowser(app.url);
      const cases: [unknown, number, string][] = [
        [{ email: 'not an email', password: 'x' }, 422, 'invalid_email'],
        [{ email: 'a@example.com' }, 422, 'invalid_password'],
        [{ email: 'a@example.com', password: 'x', remember: true }, 422, 'invalid_remember'],
        [{ email: 'a\u0000b@example.com', password: 'x' }, 422, 'invalid_email'],
        [{ email: 'a@example.com', password: 'x\ud800' }, 422, 'invalid_password'],
        [[1, 2], 400, 'invalid_json'],
      ];
      for (const [body, status, code] of cases) {
        const res = await browser.post('/console/api/sign-in', body);
        expect(res.status, JSON.stringify(body)).to.equal(status);
        expect(res.body.error.code, JSON.stringify(body)).to.equal(code);
      }
      const broken = await browser.request('POST', '/console/api/sign-in', undefined, { 'content-type': 'application/json' });
      expect(broken.status).to.equal(422);
      const malformed = await fetch(`${app.url}/console/api/sign-in`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"email":',
      });
      expect(malformed.status).to.equal(400);
      expect((await malformed.json()).error.code).to.equal('invalid_json');
    });
  });

  describe('sign-in attempts', () => {
    it('answers 429 rate_limited with Retry-After after 10 attempts a minute at one email from one client, even with the right password; other emails still sign in', async () => {
      const target = await signedInUser(app, tenantId);
      const other = await signedInUser(app, tenantId);
      const browser = new ConsoleBrowser(app.url);

      for (let i = 0; i < 10; i++) expect((await browser.signIn(target.email, `wrong password ${i}`)).status).to.equal(401);
      const refused = await browser.signIn(target.email);

      expect(refused.status).to.equal(429);
      expect(refused.body.error.code).to.equal('rate_limited');
      expect(Number(refused.headers.get('retry-after'))).to.equal(60);
      expect(browser.cookie).to.equal(undefined);
      expect((await browser.signIn(` ${target.email.toUpperCase()}`)).status, 'the same email, spelled otherwise').to.equal(429);
      expect((await browser.signIn(other.email)).status).to.equal(200);
    });

    it('doubles the wait of the client that keeps trying, up to an hour, while the owner signs in from another address', async () => {
      const target = await signedInUser(app, tenantId);
      for (let i = 0; i < 10; i++) expect((await signInFrom('127.0.0.2', target.email, `guess ${i}`)).status).to.equal(401);

      const waits: number[] = [];
      for (let i = 0; i < 8; i++) {
        const refused = await signInFrom('127.0.0.2', target.email, PASSWORD);
        expect(refused.status).to.equal(429);
        waits.push(Number(refused.headers['retry-after']));
      }

      expect(waits).to.deep.equal([60, 120, 240, 480, 960, 1920, 3600, 3600]);
      expect((await signInFrom('127.0.0.3', target.email, PASSWORD)).status, 'the owner, elsewhere').to.equal(200);
      expect((await new ConsoleBrowser(app.url).signIn(target.email)).status, 'the owner, from 127.0.0.1').to.equal(200);
    });

    it("counts the client a trusted proxy names (SWITCHBOARD_TRUSTED_PROXIES), and no one else's X-Forwarded-For", async () => {
      const trusting = await startTestApp({
        env: { SWITCHBOARD_TRUSTED_PROXIES: '127.0.0.0/8', SWITCHBOARD_SIGN_IN_PER_EMAIL_PER_MINUTE: '2' },
      });
      const untrusting = await startTestApp({ env: { SWITCHBOARD_SIGN_IN_PER_EMAIL_PER_MINUTE: '2' } });
      try {
        for (const server of [trusting, untrusting]) {
          const { tenantId: company } = await server.company();
          const { email } = await signedInUser(server, company);
          const browser = new ConsoleBrowser(server.url);
          const from = (client: string) => ({ 'x-forwarded-for': client });
          for (let i = 0; i < 3; i++)
            await browser.request('POST', '/console/api/sign-in', { email, password: 'guess' }, from('203.0.113.9'));

          const owner = await browser.request('POST', '/console/api/sign-in', { email, password: PASSWORD }, from('198.51.100.7'));

          expect(owner.status, server === trusting ? 'another client behind the proxy' : 'one client, whatever it claims').to.equal(
            server === trusting ? 200 : 429,
          );
        }
      } finally {
        await Promise.all([trusting.close(), untrusting.close()]);
      }
    });

    it('answers 429 rate_limited after the bound of attempts a minute from one client address, whichever emails', async () => {
      const limited = await startTestApp({ env: { SWITCHBOARD_SIGN_IN_PER_CLIENT_PER_MINUTE: '3' } });
      try {
        const browser = new ConsoleBrowser(limited.url);
        for (let i = 0; i < 3; i++) expect((await browser.signIn(`someone${i}@example.com`)).status).to.equal(401);

        const refused = await browser.signIn('someone-else@example.com');

        expect(refused.status).to.equal(429);
        expect(refused.body.error.code).to.equal('rate_limited');
        expect(refused.headers.get('retry-after')).to.match(/^\d+$/);
      } finally {
        await limited.close();
      }
    });
  });

  describe('session fixation', () => {
    it('never makes a session of a cookie planted before sign-in: sign-in issues a new id', async () => {
      const { email } = await signedInUser(app, tenantId);
      const victim = new ConsoleBrowser(app.url);
      victim.cookie = 'planted-by-an-attacker-0123456789abcdefghijklmnopqrstuvwxyz';

      expect((await victim.signIn(email)).status).to.equal(200);

      expect(victim.cookie).not.to.equal('planted-by-an-attacker-0123456789abcdefghijklmnopqrstuvwxyz');
      const attacker = new ConsoleBrowser(app.url);
      attacker.cookie = 'planted-by-an-attacker-0123456789abcdefghijklmnopqrstuvwxyz';
      expect((await attacker.get('/console/api/session')).status).to.equal(401);
      expect((await victim.get('/console/api/session')).status).to.equal(200);
    });

    it('signing in with a live session cookie starts a new session and ends the one presented', async () => {
      const { browser } = await signedInUser(app, tenantId);
      const before = browser.cookie!;
      const stale = new ConsoleBrowser(app.url);
      stale.cookie = before;
      const { email } = (await browser.get('/console/api/session')).body.user;

      expect((await browser.signIn(email)).status).to.equal(200);

      expect(browser.cookie).to.be.a('string').and.not.equal(before);
      expect((await stale.get('/console/api/session')).status).to.equal(401);
      expect((await browser.get('/console/api/session')).status).to.equal(200);
    });
  });

  describe('GET /console/api/session', () => {
    it('answers 401 not_signed_in without a cookie or with an unknown one', async () => {
      const browser = new ConsoleBrowser(app.url);
      expect((await browser.get('/console/api/session')).body).to.deep.include({
        error: { code: 'not_signed_in', message: 'Not signed in (or the session ended): sign in again' },
      });
      browser.cookie = 'unknown';
      expect((await browser.get('/console/api/session')).status).to.equal(401);
    });
  });

  describe('POST /console/api/sign-out', () => {
    it("answers 204, ends this session and clears the cookie; the user's other sessions stay", async () => {
      const { browser, email } = await signedInUser(app, tenantId);
      const elsewhere = new ConsoleBrowser(app.url);
      await elsewhere.signIn(email);
      const token = browser.cookie;

      const res = await browser.post('/console/api/sign-out');

      expect(res.status).to.equal(204);
      expect(browser.setCookies[0]).to.match(/^sb_session=; Path=\/; HttpOnly; SameSite=Lax; Max-Age=0/);
      const replay = new ConsoleBrowser(app.url);
      replay.cookie = token;
      expect((await replay.get('/console/api/session')).status).to.equal(401);
      expect((await elsewhere.get('/console/api/session')).status).to.equal(200);
    });
  });

  describe('POST /console/api/sign-out-everywhere', () => {
    it("answers 204 and ends every session of the user, not other users'", async () => {
      const { browser, email } = await signedInUser(app, tenantId);
      const elsewhere = new ConsoleBrowser(app.url);
      await elsewhere.signIn(email);
      const someoneElse = await signedInUser(app, tenantId);

      expect((await browser.post('/console/api/sign-out-everywhere')).status).to.equal(204);

      expect((await elsewhere.get('/console/api/session')).status).to.equal(401);
      expect((await browser.get('/console/api/session')).status).to.equal(401);
      expect((await someoneElse.browser.get('/console/api/session')).status).to.equal(200);
    });
  });

  describe('CSRF', () => {
    it('refuses a change without the X-CSRF-Token header, or with a wrong one, with 403 csrf_failed and changes nothing', async () => {
      const { browser } = await signedInUser(app, tenantId);
      const other = await signedInUser(app, tenantId);

      const missing = await browser.request('POST', '/console/api/sign-out', {}, { 'x-csrf-token': '' });
      const wrong = await browser.request('POST', '/console/api/sign-out', {}, { 'x-csrf-token': `${browser.csrfToken!.slice(0, -2)}xx` });
      const anotherSessions = await browser.request('POST', '/console/api/sign-out', {}, { 'x-csrf-token': other.browser.csrfToken! });
      const invite = await browser.request(
        'POST',
        '/console/api/users',
        { email: 'csrf@example.com', role: 'owner' },
        { 'x-csrf-token': '' },
      );

      for (const res of [missing, wrong, anotherSessions, invite]) {
        expect(res.status).to.equal(403);
        expect(res.body.error.code).to.equal('csrf_failed');
      }
      expect((await browser.get('/console/api/session')).status, 'still signed in').to.equal(200);
      const users = (await browser.get('/console/api/users')).body.users;
      expect(users.map((u: { email: string }) => u.email)).not.to.include('csrf@example.com');
    });

    it('refuses a change from another origin or site with 403 csrf_failed even with the right token, sign-in included', async () => {
      const { browser, email } = await signedInUser(app, tenantId);
      const cases: Record<string, string>[] = [
        { origin: 'https://evil.example' },
        { origin: 'null' },
        { origin: app.url, 'sec-fetch-site': 'cross-site' },
        { origin: app.url, 'sec-fetch-site': 'same-site' },
      ];
      for (const headers of cases) {
        const res = await browser.request('POST', '/console/api/sign-out', {}, headers);
        expect(res.status, JSON.stringify(headers)).to.equal(403);
        expect(res.body.error.code).to.equal('csrf_failed');
        const signIn = await new ConsoleBrowser(app.url).request('POST', '/console/api/sign-in', { email, password: PASSWORD }, headers);
        expect(signIn.status, JSON.stringify(headers)).to.equal(403);
      }
      expect((await browser.get('/console/api/session')).status, 'still signed in').to.equal(200);
      expect((await browser.request('POST', '/console/api/sign-out', {}, { 'sec-fetch-site': 'same-origin' })).status).to.equal(204);
    });
  });
});

describe('Console sign-in behind https', () => {
  it('marks the session cookie Secure when the request came over https through a proxy (X-Forwarded-Proto), and takes that origin', async () => {
    const app = await startTestApp();
    try {
      const { tenantId } = await app.company();
      const { email } = await signedInUser(app, tenantId);
      const browser = new ConsoleBrowser(app.url);
      const httpsOrigin = app.url.replace('http:', 'https:');

      const res = await browser.request(
        'POST',
        '/console/api/sign-in',
        { email, password: PASSWORD },
        { 'x-forwarded-proto': 'https', origin: httpsOrigin },
      );

      expect(res.status).to.equal(200);
      expect(browser.setCookies[0]).to.include('; Secure');
      const signOut = await browser.request('POST', '/console/api/sign-out', {}, { 'x-forwarded-proto': 'https', origin: httpsOrigin });
      expect(signOut.status).to.equal(204);
      expect(browser.setCookies[0]).to.include('; Secure');
    } finally {
      await app.close();
    }
  });

  it('marks the session cookie Secure when SWITCHBOARD_PUBLIC_URL is https', async () => {
    const app = await startTestApp({ env: { SWITCHBOARD_PUBLIC_URL: 'https://console.example.com' } });
    try {
      const { tenantId } = await app.company();
      const { email } = await signedInUser(app, tenantId);
      const browser = new ConsoleBrowser(app.url);

      expect((await browser.signIn(email)).status).to.equal(200);

      expect(browser.setCookies[0]).to.include('; Secure').and.include('; HttpOnly');
      const fromPublicOrigin = await browser.request('POST', '/console/api/sign-out', {}, { origin: 'https://console.example.com' });
      expect(fromPublicOrigin.status).to.equal(204);
    } finally {
      await app.close();
    }
  });
});

if (redisUrl) {
  describe('Console sign-in attempts across replicas (Redis)', () => {
    it('counts the attempts for one email on every replica sharing the Redis', async () => {
      const env = { REDIS_URL: redisUrl, SWITCHBOARD_SIGN_IN_PER_EMAIL_PER_MINUTE: '4' };
      const [a, b] = await Promise.all([startTestApp({ env }), startTestApp({ env })]);
      try {
        const email = `replicas.${Date.now()}@example.com`;
        for (const replica of [a, b, a, b]) expect((await new ConsoleBrowser(replica.url).signIn(email)).status).to.equal(401);

        const refused = await new ConsoleBrowser(a.url).signIn(email);

        expect(refused.status).to.equal(429);
        expect((await new ConsoleBrowser(b.url).signIn(email)).status).to.equal(429);
      } finally {
        await Promise.all([a.close(), b.close()]);
      }
    });
  });
}
