import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { addUser } from '../../../pkg/console/users.js';
import { issueSignInLink } from '../../../pkg/console/links.js';
import { startTestApp, type TestApp } from '../../support/app.js';
import { ConsoleBrowser, PASSWORD, signedInUser } from '../../support/console.js';

const HOUR = 3600_000;

describe('Console sessions and sign-in links', () => {
  let app: TestApp;
  let tenantId: string;
  before(async () => {
    app = await startTestApp({ manualClock: true, env: { SWITCHBOARD_SIGN_IN_PER_CLIENT_PER_MINUTE: '10000' } });
    ({ tenantId } = await app.company());
  });
  after(async () => app.close());

  it('stores only the SHA-256 of the session token, never the token', async () => {
    const { browser, id } = await signedInUser(app, tenantId);

    const rows = await app.runtime.ctx.db('console_sessions').where({ user_id: id });

    expect(rows).to.have.length(1);
    expect(rows[0].token_hash).to.equal(createHash('sha256').update(browser.cookie!).digest('hex'));
    expect(JSON.stringify(rows)).not.to.include(browser.cookie!);
  });

  describe('expiry', () => {
    it('ends a session unused for 12 hours', async () => {
      const { browser } = await signedInUser(app, tenantId);
      app.advance(11 * HOUR);
      expect((await browser.get('/console/api/session')).status).to.equal(200);

      app.advance(12 * HOUR);

      const res = await browser.get('/console/api/session');
      expect(res.status).to.equal(401);
      expect(res.body.error.code).to.equal('not_signed_in');
    });

    it('ends a session 7 days after sign-in however often it is used', async () => {
      const { browser } = await signedInUser(app, tenantId);
      for (let hours = 10; hours < 7 * 24; hours += 10) {
        app.advance(10 * HOUR);
        expect((await browser.get('/console/api/session')).status, `after ${hours} hours`).to.equal(200);
      }

      app.advance(7 * 24 * HOUR - 160 * HOUR);

      expect((await browser.get('/console/api/session')).status).to.equal(401);
    });
  });

  describe('GET /console/sign-in/:token', () => {
    it('signs in once and redirects 303 to /?set-password=1 for a user with no password; the link then no longer works', async () => {
      const { signInUrl } = await addUser(app.runtime.ctx, { tenantId, user: null }, { email: 'link-once@example.com', role: 'viewer' });
      const browser = new ConsoleBrowser(app.url);

      const res = await browser.openLink(signInUrl);

      expect(res.status).to.equal(303);
      expect(res.headers.get('location')).to.equal('/?set-password=1');
      expect(res.headers.getSetCookie()[0]).to.match(/^sb_session=[\w-]{40,}; Path=\/; HttpOnly; SameSite=Lax/);
      const session = await browser.get('/console/api/session');
      expect(session.body.user).to.include({ email: 'link-once@example.com', role: 'viewer' });

      const again = await new ConsoleBrowser(app.url).openLink(signInUrl);
      const token = signInUrl.split('/').at(-1)!;
      expect(
        app.logs.filter((line) => line.includes(token.slice(0, 16))),
        'the token is never logged',
      ).to.deep.equal([]);
      expect(again.status).to.equal(404);
      expect(again.body.error.code).to.equal('link_invalid');
      expect(again.headers.get('set-cookie')).to.equal(null);
    });

    it('is not used up by a HEAD request (a link checker)', async () => {
      const { signInUrl } = await addUser(app.runtime.ctx, { tenantId, user: null }, { email: 'link-head@example.com', role: 'member' });

      const head = await fetch(signInUrl.replace('http://localhost:8080', app.url), { method: 'HEAD', redirect: 'manual' });

      expect(head.headers.get('set-cookie')).to.equal(null);
      expect((await new ConsoleBrowser(app.url).openLink(signInUrl)).status).to.equal(303);
    });

    it('redirects to / for a user who has a password', async () => {
      const { id } = await signedInUser(app, tenantId);
      const link = await issueSignInLink(app.runtime.ctx, id);

      const res = await new ConsoleBrowser(app.url).openLink(link);

      expect(res.status).to.equal(303);
      expect(res.headers.get('location')).to.equal('/');
    });

    it('refuses a link 24 hours after it was given, and an unknown one', async () => {
      const { signInUrl } = await addUser(app.runtime.ctx, { tenantId, user: null }, { email: 'link-late@example.com', role: 'member' });
      app.advance(24 * HOUR);

      const late = await new ConsoleBrowser(app.url).openLink(signInUrl);
      const unknown = await new ConsoleBrowser(app.url).request('GET', '/console/sign-in/not-a-link');

      expect(late.status).to.equal(404);
      expect(late.body.error.code).to.equal('link_invalid');
      expect(unknown.status).to.equal(404);
    });

    it('gives a new session, not the one the browser came with', async () => {
      const { signInUrl } = await addUser(
        app.runtime.ctx,
        { tenantId, user: null },
        { email: 'link-fixation@example.com', role: 'member' },
      );
      const browser = new ConsoleBrowser(app.url);
      browser.cookie = 'planted-by-an-attacker-0123456789abcdefghijklmnopqrstuvwxyz';

      await browser.openLink(signInUrl);

      expect(browser.cookie).not.to.equal('planted-by-an-attacker-0123456789abcdefghijklmnopqrstuvwxyz');
      expect((await browser.get('/console/api/session')).status).to.equal(200);
    });
  });

  describe('POST /console/api/password', () => {
    it('sets the first password without the current one; the user then signs in with it', async () => {
      const { signInUrl } = await addUser(
        app.runtime.ctx,
        { tenantId, user: null },
        { email: 'first-password@example.com', role: 'member' },
      );
      const browser = new ConsoleBrowser(app.url);
      await browser.openLink(signInUrl);

      expect((await browser.post('/console/api/password', { password: PASSWORD })).status).to.equal(204);

      expect((await new ConsoleBrowser(app.url).signIn('first-password@example.com')).status).to.equal(200);
    });

    it('counts guesses at the current password as sign-in attempts: 429 rate_limited after 10 a minute', async () => {
      const { browser, email } = await signedInUser(app, tenantId);

      for (let i = 0; i < 10; i++) {
        expect(
          (await browser.post('/console/api/password', { password: 'a whole new password', current_password: `guess ${i}` })).status,
        ).to.equal(422);
      }
      const refused = await browser.post('/console/api/password', { password: 'a whole new password', current_password: PASSWORD });

      expect([refused.status, refused.body.error.code]).to.deep.equal([429, 'rate_limited']);
      expect((await new ConsoleBrowser(app.url).signIn(email)).status).to.equal(429);
    });

    it('refuses a password under 12 characters with 422 invalid_password', async () => {
      const { browser } = await signedInUser(app, tenantId);

      const res = await browser.post('/console/api/password', { password: 'elevenchars', current_password: PASSWORD });

      expect(res.status).to.equal(422);
      expect(res.body.error.code).to.equal('invalid_password');
      expect(res.body.error.message).to.include('at least 12 characters');
    });

    it('needs the current password once one is set (422 invalid_current_password), then ends the other sessions', async () => {
      const { browser, email } = await signedInUser(app, tenantId);
      const elsewhere = new ConsoleBrowser(app.url);
      await elsewhere.signIn(email);

      const missing = await browser.post('/console/api/password', { password: 'a whole new password' });
      const wrong = await browser.post('/console/api/password', { password: 'a whole new password', current_password: 'not the password' });
      expect([missing.status, wrong.status]).to.deep.equal([422, 422]);
      expect(missing.body.error.code).to.equal('invalid_current_password');
      expect(wrong.body.error.code).to.equal('invalid_current_password');
      expect((await new ConsoleBrowser(app.url).signIn(email)).status, 'the old password still works').to.equal(200);

      const changed = await browser.post('/console/api/password', { password: 'a whole new password', current_password: PASSWORD });

      expect(changed.status).to.equal(204);
      expect((await browser.get('/console/api/session')).status, 'this session stays').to.equal(200);
      expect((await elsewhere.get('/console/api/session')).status, 'other sessions end').to.equal(401);
      expect((await new ConsoleBrowser(app.url).signIn(email)).status).to.equal(401);
      expect((await new ConsoleBrowser(app.url).signIn(email, 'a whole new password')).status).to.equal(200);
    });
  });
});
