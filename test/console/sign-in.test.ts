import { expect } from 'chai';
import type { Browser } from 'playwright-core';
import {
  accessibilityViolations,
  launchBrowser,
  openPage,
  refusedByCsp,
  screenshots,
  WIDTHS,
  type WatchedPage,
} from '../support/browser.js';
import { addUser } from '../../pkg/console/users.js';
import { endUserSessions } from '../../pkg/console/sessions.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { ConsoleBrowser, PASSWORD, signedInUser } from '../support/console.js';

/** Sign-in attempts one address may make a minute here: few, so the limit is reached in a test. */
const ATTEMPTS_PER_EMAIL = 3;

describe('The console sign-in page', () => {
  let server: TestApp;
  let browser: Browser;
  let watched: WatchedPage;
  /** This test's owner, with a password, of an account of its own. */
  let OWNER: { email: string; password: string; id: string; user: { name: string; email: string }; account: { id: string; name: string } };
  let accounts = 0;
  before(async () => {
    server = await startTestApp({
      env: { SWITCHBOARD_SIGN_IN_PER_EMAIL_PER_MINUTE: String(ATTEMPTS_PER_EMAIL), SWITCHBOARD_SIGN_IN_PER_CLIENT_PER_MINUTE: '10000' },
    });
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });
  beforeEach(async () => {
    const name = `Acme Clinics ${++accounts}`;
    const { tenantId } = await server.company({ name });
    const { id, email, browser: signedIn } = await signedInUser(server, tenantId, 'owner');
    const session = await signedIn.get('/console/api/session');
    OWNER = { email, password: PASSWORD, id, user: { name: session.body.user.name, email }, account: { id: tenantId, name } };
    watched = await openPage(browser);
  });
  afterEach(async () => {
    expect(refusedByCsp(watched.errors)).to.deep.equal([]);
    await watched.close();
  });

  /** Opens the sign-in page (or `path`, which sends there), and its form is ready. */
  async function openSignIn(path = '/sign-in'): Promise<void> {
    await watched.page.goto(`${server.url}${path}`);
    await watched.page.getByLabel('Email').waitFor();
  }

  /** Tab from the top of the page to each field, type, and submit with Enter: the keyboard alone. */
  async function signInByKeyboard(email = OWNER.email, password = OWNER.password): Promise<void> {
    const { page } = watched;
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('name'))).to.equal('email');
    await page.keyboard.type(email);
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('name'))).to.equal('password');
    await page.keyboard.type(password);
    await page.keyboard.press('Enter');
  }

  it('sends a signed-out visitor to sign in, with labelled fields and nothing WCAG AA finds wrong', async () => {
    const { page } = watched;
    await page.goto(`${server.url}/`);
    await page.getByRole('heading', { name: 'Sign in to Switchboard' }).waitFor();
    expect(new URL(page.url()).pathname).to.equal('/sign-in');
    expect(await page.getByLabel('Email').getAttribute('type')).to.equal('email');
    expect(await page.getByRole('textbox', { name: 'Password', exact: true }).getAttribute('autocomplete')).to.equal('current-password');
    expect(await accessibilityViolations(page)).to.deep.equal([]);
    await screenshots(page, 'sign-in');
  });

  it('shows a refused sign-in as an alert, and signs in with the keyboard alone', async () => {
    const { page } = watched;
    await openSignIn();
    await signInByKeyboard(OWNER.email, 'not the password');
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).to.equal('The email or password is not right.');
    await screenshots(page, 'sign-in-refused');

    await page.getByRole('textbox', { name: 'Password', exact: true }).fill(OWNER.password);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    expect(await page.getByRole('main').textContent())
      .to.include(OWNER.user.name)
      .and.include(OWNER.user.email)
      .and.include(OWNER.account.name);
    expect(await accessibilityViolations(page)).to.deep.equal([]);
    await screenshots(page, 'overview');
  });

  it('says when sign-in attempts are rate limited', async () => {
    const { page } = watched;
    // Wrong guesses up to the limit: the next attempt, right or not, is refused.
    const attacker = new ConsoleBrowser(server.url);
    for (let made = 0; made < ATTEMPTS_PER_EMAIL; made++) expect((await attacker.signIn(OWNER.email, 'a guess')).status).to.equal(401);
    await openSignIn();
    await signInByKeyboard();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).to.equal('Too many attempts. Wait a minute, then try again.');
  });

  it('returns to the deep link it was sent from, and signs out with the CSRF token', async () => {
    const { page } = watched;
    await openSignIn('/no-such-page/item_1?tab=details');
    expect(new URL(page.url()).searchParams.get('next')).to.equal('/no-such-page/item_1?tab=details');
    await signInByKeyboard();
    await page.getByRole('heading', { name: 'No such page' }).waitFor();
    expect(new URL(page.url()).pathname + new URL(page.url()).search).to.equal('/no-such-page/item_1?tab=details');

    const { csrf_token } = await page.evaluate(() => fetch('/console/api/session').then((r) => r.json()));
    const signOut = page.waitForRequest((r) => r.url().endsWith('/console/api/sign-out'));
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in to Switchboard' }).waitFor();
    expect([(await signOut).method(), (await signOut).headers()['x-csrf-token']]).to.deep.equal(['POST', csrf_token]);
    expect((await page.context().cookies(server.url)).find((c) => c.name === 'sb_session')).to.equal(undefined);
    // The session is gone: a reload stays on the sign-in page.
    await page.goto(`${server.url}/`);
    await page.getByRole('heading', { name: 'Sign in to Switchboard' }).waitFor();
  });

  it('sends a change made after the session ended elsewhere to sign in, then back', async () => {
    const { page } = watched;
    await openSignIn('/jobs/trg_1');
    await signInByKeyboard();
    await page.getByRole('heading', { name: 'No such page' }).waitFor();
    await endUserSessions(server.runtime.ctx, OWNER.id);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in to Switchboard' }).waitFor();
    expect(new URL(page.url()).searchParams.get('next')).to.equal('/jobs/trg_1');
    await signInByKeyboard();
    await page.getByRole('heading', { name: 'No such page' }).waitFor();
    expect(new URL(page.url()).pathname).to.equal('/jobs/trg_1');
  });

  it('after a one-time link (?set-password=1) has the password chosen, sent with the CSRF token', async () => {
    const { page } = watched;
    const email = `linked.${Date.now()}@example.com`;
    const { signInUrl } = await addUser(
      server.runtime.ctx,
      { tenantId: OWNER.account.id, user: null },
      { email, role: 'member', name: 'Linda Link' },
    );
    await page.goto(`${server.url}${new URL(signInUrl).pathname}`);
    await page.getByRole('heading', { name: 'Choose a password' }).waitFor();
    expect(new URL(page.url()).search).to.equal('?set-password=1');
    await page.getByRole('textbox', { name: 'New password', exact: true }).fill('a new long password');
    await page.getByRole('textbox', { name: 'New password again' }).fill('a different one');
    await page.getByRole('button', { name: 'Save password' }).click();
    expect(await page.getByRole('alert').textContent()).to.equal('The two passwords are not the same.');
    expect(await accessibilityViolations(page)).to.deep.equal([]);
    await screenshots(page, 'set-password');

    await page.getByRole('textbox', { name: 'New password again' }).fill('a new long password');
    const saved = page.waitForRequest((r) => r.url().endsWith('/console/api/password'));
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    expect(new URL(page.url()).search).to.equal('');
    const { csrf_token } = await page.evaluate(() => fetch('/console/api/session').then((r) => r.json()));
    expect((await saved).headers()['x-csrf-token']).to.equal(csrf_token);
    expect((await new ConsoleBrowser(server.url).signIn(email, 'a new long password')).status).to.equal(200);
  });

  it('folds the navigation behind a menu button on a phone, out of the tab order until opened', async () => {
    const { page } = watched;
    await page.setViewportSize(WIDTHS.phone);
    await openSignIn();
    await signInByKeyboard();
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    const navigation = page.getByRole('navigation', { name: 'Console' });
    const menu = page.getByRole('button', { name: 'Navigation' });
    expect(await menu.getAttribute('aria-expanded')).to.equal('false');
    expect(
      await navigation.evaluate((nav) => nav.getBoundingClientRect().right),
      'the folded navigation ends left of the screen',
    ).to.be.at.most(0);
    // Tabbing through the whole page never lands in the folded navigation.
    const focused: string[] = [];
    for (let i = 0; i < 8; i++) {
      await page.keyboard.press('Tab');
      focused.push(
        await page.evaluate(() => (document.activeElement?.closest('nav') ? 'nav' : (document.activeElement?.textContent ?? ''))),
      );
    }
    expect(focused).not.to.include('nav');

    await menu.focus();
    await page.keyboard.press('Enter');
    expect(await menu.getAttribute('aria-expanded')).to.equal('true');
    await page.waitForFunction(() => document.querySelector('nav[aria-label="Console"]')!.getBoundingClientRect().left >= 0);
    // Past the header's sign-out button, the next stop is the navigation.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).to.equal('Sign out');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.closest('nav')?.getAttribute('aria-label'))).to.equal('Console');
    expect(await accessibilityViolations(page)).to.deep.equal([]);
    await screenshots(page, 'navigation-open');
  });
});
