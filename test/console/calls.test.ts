import { expect } from 'chai';
import type { Browser } from 'playwright-core';
import { endUserSessions } from '../../pkg/console/sessions.js';
import { NUMBERS, startCallsApp, type CallsApp } from '../support/calls.js';
import { PASSWORD, signedInUser } from '../support/console.js';
import { liveCall } from '../support/console-calls.js';
import { accessibilityViolations, launchBrowser, openPage, refusedByCsp, screenshots, type WatchedPage } from '../support/browser.js';

describe('The console calls pages', function () {
  this.timeout(120_000);
  let app: CallsApp;
  let browser: Browser;
  let watched: WatchedPage[] = [];
  before(async () => {
    app = await startCallsApp({ controllers: true });
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await app?.close();
  });
  afterEach(async () => {
    for (const w of watched) {
      expect(refusedByCsp(w.errors)).to.deep.equal([]);
      await w.close();
    }
    watched = [];
  });

  /** A page signed in through the sign-in form as a new user of `tenantId` with `role`. */
  async function signedInPage(tenantId: string, role: 'member' | 'viewer') {
    const { email, id } = await signedInUser(app, tenantId, role);
    const w = await openPage(browser);
    watched.push(w);
    await w.page.goto(`${app.url}/sign-in`);
    await w.page.getByLabel('Email').fill(email);
    await w.page.getByRole('textbox', { name: 'Password', exact: true }).fill(PASSWORD);
    await w.page.keyboard.press('Enter');
    await w.page.getByRole('heading', { name: 'Overview' }).waitFor();
    return Object.assign(w.page, { userId: id });
  }

  const transcript = (page: import('playwright-core').Page) => page.getByRole('list', { name: 'Transcript' });

  it('a member watches a call appear and go live without reload, reads its transcript grow, steers it with say and hangs it up', async () => {
    const { client, tenantId } = await app.voiceCompany();
    const page = await signedInPage(tenantId, 'member');
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Calls' }).click();
    await page.getByRole('heading', { name: 'Calls', level: 1 }).waitFor();
    // Off the link just clicked: its hover colour is the navigation's, not this page's.
    await page.mouse.move(900, 700);
    await page.getByText('No calls match.').waitFor();
    // Set on this document: a reload would lose it.
    await page.evaluate(() => ((window as any).notReloaded = true));

    const task = `Console live call ${Date.now()}`;
    app.script(task, { content: 'Hi, this is Acme calling.' });
    const placed = (await client.post('/v1/calls', { to: NUMBERS.stays, task })).body;
    const row = page.locator(`tr[data-call-id="${placed.id}"]`);
    await row.waitFor();
    await row.getByText('in-progress').waitFor();
    expect(await row.textContent())
      .to.include(NUMBERS.stays)
      .and.include('outbound');
    expect(await page.evaluate(() => (window as any).notReloaded)).to.equal(true);
    expect(await accessibilityViolations(page)).to.deep.equal([]);
    await screenshots(page, 'calls');

    await row.getByRole('link').click();
    await page.getByRole('heading', { name: `Call ${placed.id}` }).waitFor();
    await transcript(page).getByText('Hi, this is Acme calling.').waitFor();
    await page.getByLabel('Say').fill('One moment, please.');
    await page.getByRole('button', { name: 'Steer' }).click();
    await transcript(page).getByText('One moment, please.').waitFor();
    expect(await page.getByLabel('Say').inputValue()).to.equal('');
    expect(await accessibilityViolations(page)).to.deep.equal([]);
    await screenshots(page, 'call-live');

    await page.getByRole('button', { name: 'Hang up' }).click();
    await page.locator('[data-fact="Status"]').getByText('completed').waitFor();
    await page.locator('[data-fact="Hangup cause"]').getByText('api_hangup').waitFor();
    expect(await page.getByRole('button', { name: 'Hang up' }).count()).to.equal(0);
    await page.getByRole('heading', { name: 'Result' }).waitFor();
    await page.getByText('The agent talked to the person.').waitFor();
    await page.getByRole('list', { name: 'Timeline' }).getByText('Ended completed (api_hangup)').waitFor();
    expect(await page.evaluate(() => (window as any).notReloaded)).to.equal(true);
    expect(await accessibilityViolations(page)).to.deep.equal([]);
    await screenshots(page, 'call-ended');

    await page.getByRole('link', { name: 'All calls' }).click();
    await page.getByLabel('Status', { exact: true }).selectOption('busy');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.getByText('No calls match.').waitFor();
    await page.getByLabel('Status', { exact: true }).selectOption('completed');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.locator(`tr[data-call-id="${placed.id}"]`).getByText('completed').waitFor();
  });

  it("a viewer sees a live call but no steer or hang-up, and the routes refuse it 403; another account's call is not found", async () => {
    const { client, tenantId } = await app.voiceCompany();
    const other = await app.voiceCompany();
    const call = await liveCall(app, client);
    const page = await signedInPage(tenantId, 'viewer');
    await page.goto(`${app.url}/calls/${call.id}`);
    await transcript(page).getByText('Hi, this is Acme calling.').waitFor();
    await page.locator('[data-fact="Status"]').getByText('in-progress').waitFor();
    expect(await page.getByRole('button', { name: 'Hang up' }).count()).to.equal(0);
    expect(await page.getByRole('button', { name: 'Steer' }).count()).to.equal(0);
    expect(await page.getByLabel('Say').count()).to.equal(0);
    const refused = await page.evaluate(async (id) => {
      const { csrf_token } = await (await fetch('/console/api/session')).json();
      const post = (path: string, body: unknown) =>
        fetch(`/console/api/calls/${id}/${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-csrf-token': csrf_token },
          body: JSON.stringify(body),
        }).then(async (r) => [r.status, (await r.json()).error.code]);
      return [await post('steer', { say: 'Hi' }), await post('hangup', {})];
    }, call.id);
    expect(refused).to.deep.equal([
      [403, 'forbidden'],
      [403, 'forbidden'],
    ]);
    await screenshots(page, 'call-viewer');

    const theirs = await liveCall(app, other.client);
    await page.goto(`${app.url}/calls/${theirs.id}`);
    await page.getByRole('alert').getByText('There is no such call in this account.').waitFor();
    expect(await page.evaluate(async (id) => (await fetch(`/console/api/calls/${id}`)).status, theirs.id)).to.equal(404);
    await page.goto(`${app.url}/calls`);
    await page.getByRole('heading', { name: 'Calls', level: 1 }).waitFor();
    await page.locator(`tr[data-call-id="${call.id}"]`).waitFor();
    expect(await page.locator(`tr[data-call-id="${theirs.id}"]`).count()).to.equal(0);
    await other.client.post(`/v1/calls/${theirs.id}/hangup`);

    // Signed out everywhere from elsewhere: the next change of a call ends the stream, and the page goes to sign in.
    await endUserSessions(app.runtime.ctx, page.userId);
    await client.post(`/v1/calls/${call.id}/hangup`);
    await page.getByRole('heading', { name: 'Sign in to Switchboard' }).waitFor();
    expect(new URL(page.url()).pathname).to.equal('/sign-in');
  });
});
