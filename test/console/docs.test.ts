import { expect } from 'chai';
import type { Browser } from 'playwright-core';
import { startTestApp, type TestApp } from '../support/app.js';
import { launchBrowser, openPage, screenshots, type WatchedPage } from '../support/browser.js';

describe('GET /docs/api/ (the interactive API reference)', () => {
  let app: TestApp;
  let browser: Browser;
  let watched: WatchedPage;
  before(async () => {
    app = await startTestApp();
    browser = await launchBrowser();
    watched = await openPage(browser);
  });
  after(async () => {
    await watched?.close();
    await browser?.close();
    await app?.close();
  });

  it('is a page of its own, never cached, its scripts only the served files, not to be framed', async () => {
    const res = await fetch(`${app.url}/docs/api/`);
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.match(/^text\/html/);
    expect(res.headers.get('cache-control')).to.equal('no-cache');
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).to.include("script-src 'self';").and.include("connect-src 'self'").and.include("frame-ancestors 'none'");
    expect(res.headers.get('x-content-type-options')).to.equal('nosniff');
  });

  it('renders the Agent API document, and the Voice API document through its switch, from Switchboard alone', async () => {
    const { page } = watched;
    await page.goto(`${app.url}/docs/api/`);
    // The first tag (OpenAPI) opens expanded; the others are groups of the sidebar.
    await page.getByRole('heading', { name: 'Switchboard Agent Conversation and Autonomous Job API' }).waitFor();
    await page.getByText('Conversations', { exact: true }).first().waitFor();
    await screenshots(page, 'docs-agent-api');

    await page
      .getByRole('button', { name: /Agent API/ })
      .first()
      .click();
    await page
      .getByRole('option', { name: 'Voice API' })
      .or(page.getByRole('menuitem', { name: 'Voice API' }))
      .first()
      .click();
    await page.getByRole('heading', { name: 'Switchboard Voice Calling API' }).waitFor();
    await page.getByText('Calls', { exact: true }).first().waitFor();
    await screenshots(page, 'docs-voice-api');

    const elsewhere = watched.requests.filter((url) => !url.startsWith(`${app.url}/`));
    expect(elsewhere, 'requests off the server').to.deep.equal([]);
    expect(watched.requests).to.include.members([`${app.url}/api/v1/openapi.json`, `${app.url}/v1/openapi.json`]);
    // A request the policy refused never reaches `requests`: it shows here instead.
    expect(watched.errors).to.deep.equal([]);
  });
});
