// Browser tests of the console's pages against the real app: signing in through the real sign-in
// page, as a person does, and the suite's browser and pages.
import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import type { Role } from '../../pkg/console/roles.js';
import { startTestApp, type TestApp } from './app.js';
import { launchBrowser, openPage, refusedByCsp, type WatchedPage } from './browser.js';
import { PASSWORD, signedInUser } from './console.js';

/** Makes a user of `tenantId` with `role` and signs them in on `page`; the Overview is shown. */
export async function signInOnPage(page: Page, app: TestApp, tenantId: string, role: Role): Promise<void> {
  const { email } = await signedInUser(app, tenantId, role);
  await page.goto(`${app.url}/sign-in`);
  await page.getByLabel('Email').fill(email);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(PASSWORD);
  await page.keyboard.press('Enter');
  await page.getByRole('heading', { name: 'Overview' }).waitFor();
}

/**
 * Inside a describe: the real app (`start`'s) and a Chromium for the whole suite, a fresh watched page
 * for each test, and after each that the Content-Security-Policy refused nothing. Read the fields in tests.
 */
export function consolePageHooks<A extends TestApp = TestApp>(
  start: () => Promise<A> = startTestApp as () => Promise<A>,
): { app: A; browser: Browser; watched: WatchedPage } {
  const s = {} as { app: A; browser: Browser; watched: WatchedPage };
  before(async () => {
    s.app = await start();
    s.browser = await launchBrowser();
  });
  after(async () => {
    await s.browser?.close();
    await s.app?.close();
  });
  beforeEach(async () => {
    s.watched = await openPage(s.browser);
  });
  afterEach(async () => {
    expect(refusedByCsp(s.watched.errors)).to.deep.equal([]);
    await s.watched.close();
  });
  return s;
}
