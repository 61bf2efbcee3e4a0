import { expect } from 'chai';
import type { Browser } from 'playwright-core';
import { addUser } from '../../pkg/console/users.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { accessibilityViolations, launchBrowser, openPage, refusedByCsp, screenshots, type WatchedPage } from '../support/browser.js';
import { startSsoDeployment, type SsoDeployment, type TestOpenIdProvider } from '../support/oidc-provider.js';

describe('Single sign-on from the console sign-in page', () => {
  let deployment: SsoDeployment;
  let front: { url: string };
  let provider: TestOpenIdProvider;
  let server: TestApp;
  let tenantId: string;
  let browser: Browser;
  let watched: WatchedPage;
  before(async () => {
    // The deployment behind TLS at its public URL, and its OpenID provider, both with the test certificate.
    deployment = await startSsoDeployment();
    ({ provider, app: server } = deployment);
    front = deployment;
    ({ tenantId } = await server.company({ name: 'Single Sign-On Clinics' }));
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await deployment?.close();
  });
  beforeEach(async () => {
    watched = await openPage(browser, { ignoreHTTPSErrors: true });
  });
  afterEach(async () => {
    expect(refusedByCsp(watched.errors)).to.deep.equal([]);
    await watched.close();
  });

  /** Clicks single sign-on on the sign-in page (opened at `path`) and signs in at the provider's own login page as `login`. */
  async function signInThroughProvider(login: string, path = '/sign-in'): Promise<void> {
    const { page } = watched;
    await page.goto(`${front.url}${path}`);
    await page.getByRole('link', { name: 'Sign in with single sign-on' }).click();
    await page.locator('input[name="login"]').waitFor();
    expect(new URL(page.url()).origin).to.equal(provider.issuer);
    await page.locator('input[name="login"]').fill(login);
    await page.locator('input[name="password"]').fill('any password');
    await page.getByRole('button', { name: 'Sign-in' }).click();
  }

  it("signs an invited user in through the provider's login page, back to the page they were sent from", async () => {
    const { page } = watched;
    const email = `sso.browser.${Date.now()}@example.com`;
    await addUser(server.runtime.ctx, { tenantId, user: null }, { email, role: 'admin', name: 'Sana Single' });
    provider.people.set('sana', { email, email_verified: true });
    await page.goto(`${front.url}/sign-in`);
    await page.getByRole('link', { name: 'Sign in with single sign-on' }).waitFor();
    expect(await accessibilityViolations(page)).to.deep.equal([]);
    await screenshots(page, 'sign-in-sso');

    await signInThroughProvider('sana', '/no-such-page/item_1?tab=details');

    await page.getByRole('heading', { name: 'No such page' }).waitFor();
    expect(new URL(page.url()).pathname + new URL(page.url()).search).to.equal('/no-such-page/item_1?tab=details');
    await page.goto(`${front.url}/`);
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    expect(await page.getByRole('main').textContent())
      .to.include('Sana Single')
      .and.include(email)
      .and.include('Single Sign-On Clinics');
    const cookie = (await page.context().cookies(front.url)).find((c) => c.name === 'sb_session')!;
    expect(cookie).to.include({ httpOnly: true, secure: true, sameSite: 'Lax' });
  });

  it('says why when the provider signs in someone who is not a console user, and nothing is made', async () => {
    const { page } = watched;
    provider.people.set('stranger', { email: `stranger.${Date.now()}@example.com`, email_verified: true });

    await signInThroughProvider('stranger');

    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).to.equal(
      'Single sign-on worked, but no Switchboard user has your email address. Ask an owner of your account to invite you.',
    );
    expect(new URL(page.url()).pathname).to.equal('/sign-in');
    expect((await page.context().cookies(front.url)).find((c) => c.name === 'sb_session')).to.equal(undefined);
    expect(await accessibilityViolations(page)).to.deep.equal([]);
    await screenshots(page, 'sign-in-sso-refused');
  });

  it('offers no single sign-on where the deployment has none', async () => {
    const plain = await startTestApp();
    try {
      const { page } = watched;
      const options = page.waitForResponse((r) => r.url().endsWith('/console/api/sign-in/options'));
      await page.goto(`${plain.url}/sign-in`);
      expect(await (await options).json()).to.deep.equal({ password: true, sso: false });
      await page.getByLabel('Email').waitFor();
      expect(await page.getByRole('link', { name: 'Sign in with single sign-on' }).count()).to.equal(0);
    } finally {
      await plain.close();
    }
  });
});
