import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { clientFor, startTestApp, type TestApp } from '../support/app.js';
import { accessibilityViolations, launchBrowser, openPage, refusedByCsp, screenshots, type WatchedPage } from '../support/browser.js';
import { PASSWORD, signedInUser } from '../support/console.js';
import type { Role } from '../../pkg/console/roles.js';
import { startReceiver, type Receiver } from '../support/webhooks.js';

describe('The console access pages: API keys, webhooks, users, audit, carrier, do-not-call', () => {
  let app: TestApp;
  let browser: Browser;
  let receiver: Receiver;
  let watched: WatchedPage;
  before(async () => {
    app = await startTestApp({ env: { SWITCHBOARD_SIGN_IN_PER_CLIENT_PER_MINUTE: '10000' } });
    browser = await launchBrowser();
    receiver = await startReceiver('');
  });
  after(async () => {
    await browser?.close();
    await receiver?.close();
    await app?.close();
  });
  beforeEach(async () => {
    watched = await openPage(browser);
  });
  afterEach(async () => {
    expect(refusedByCsp(watched.errors)).to.deep.equal([]);
    await watched.close();
  });

  /** A user of `tenantId` with `role` signed in through the sign-in page, then on `path`. */
  async function signIn(tenantId: string, role: Role, path: string) {
    const user = await signedInUser(app, tenantId, role);
    const { page } = watched;
    await page.goto(`${app.url}/sign-in?next=${encodeURIComponent(path)}`);
    await page.getByLabel('Email').fill(user.email);
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill(PASSWORD);
    await page.keyboard.press('Enter');
    await page.waitForURL((u) => u.pathname === path);
    // The URL changes a moment before the sign-in form (its own Email field) gives way to the page.
    await page.getByRole('navigation', { name: 'Console' }).waitFor();
    return user;
  }

  /** What the page's own session sends a change with: its cookie and its CSRF token. */
  const pageRequest = (page: Page, method: string, path: string) =>
    page.evaluate(
      async ({ method, path }) => {
        const { csrf_token } = await fetch('/console/api/session').then((r) => r.json());
        const res = await fetch(path, {
          method,
          headers: { 'X-CSRF-Token': csrf_token, 'Content-Type': 'application/json' },
          body: method === 'GET' ? undefined : '{}',
        });
        return { status: res.status, body: await res.json() };
      },
      { method, path },
    );

  const agentApiStatus = async (key: string) => (await clientFor(app.url, key).get('/api/v1/conversations/cnv_missing')).status;

  it('creates a key shown once (gone after a reload) that works with Bearer, and revokes it (then 401)', async () => {
    const { tenantId } = await app.company();
    await signIn(tenantId, 'owner', '/api-keys');
    const { page } = watched;
    await page.getByRole('heading', { name: 'API keys' }).waitFor();
    await page.getByLabel('Key name').fill('Browser key');
    await page.getByRole('button', { name: 'Create key' }).click();
    const secret = (await page.getByTestId('new-key').textContent())!;
    expect(secret).to.match(/^sb_/);
    expect(await page.getByText('Copy it now: it is not shown again.').isVisible()).to.equal(true);
    expect(await agentApiStatus(secret)).to.equal(404);
    await page.getByRole('row', { name: /Browser key/ }).waitFor();
    expect(await accessibilityViolations(page)).to.deep.equal([]);
    await screenshots(page, 'api-keys-created');

    await page.reload();
    await page.getByRole('row', { name: /Browser key/ }).waitFor();
    expect(await page.content()).not.to.include(secret);
    expect(await page.getByTestId('new-key').count()).to.equal(0);

    await page.getByRole('button', { name: 'Revoke Browser key' }).click();
    expect(await agentApiStatus(secret), 'one click only asks').to.equal(404);
    await page.getByRole('button', { name: 'Really revoke Browser key?' }).click();
    await page
      .getByRole('row', { name: /Browser key/ })
      .getByText(/Revoked/)
      .waitFor();
    expect(await agentApiStatus(secret)).to.equal(401);
    await screenshots(page, 'api-keys');
  });

  it('sets the message webhook, rotates the secret as owner, and the test message is signed with the new one', async () => {
    const { tenantId } = await app.company();
    await signIn(tenantId, 'owner', '/webhooks');
    const { page } = watched;
    expect(await page.getByRole('button', { name: 'Send test message' }).isDisabled(), 'nothing to send to yet').to.equal(true);
    await page.getByLabel('Message webhook address').fill(receiver.url);
    await page.getByRole('button', { name: 'Save addresses' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();

    await page.getByRole('button', { name: 'Reveal secret' }).click();
    const before = (await page.getByTestId('webhook-secret').textContent())!;
    expect(before).to.match(/^whsec_/);
    await page.getByRole('button', { name: 'Rotate secret' }).click();
    await page.waitForFunction((old) => document.querySelector('[data-testid="webhook-secret"]')?.textContent !== old, before);
    const rotated = (await page.getByTestId('webhook-secret').textContent())!;
    expect(rotated)
      .to.match(/^whsec_/)
      .and.not.equal(before);

    receiver.secret = rotated;
    const seen = receiver.events.length;
    expect(await page.getByRole('button', { name: 'Send test message' }).isEnabled()).to.equal(true);
    await page.getByRole('button', { name: 'Send test message' }).click();
    const answer = page.getByRole('status').filter({ hasText: 'Delivered' });
    await answer.waitFor();
    expect(await answer.textContent()).to.include(`${receiver.url} answered HTTP 200`);
    expect(receiver.events.slice(seen).map((e) => e.type)).to.deep.equal(['message.test']);
    expect(receiver.rejected).to.deep.equal([]);
    expect(await accessibilityViolations(page)).to.deep.equal([]);
    await screenshots(page, 'webhooks');
  });

  it('shows a viewer the addresses without the secret buttons, and its session is refused the secret routes (403)', async () => {
    const { tenantId } = await app.company();
    await signIn(tenantId, 'viewer', '/webhooks');
    const { page } = watched;
    await page.getByRole('heading', { name: 'Addresses' }).waitFor();
    expect(await page.getByRole('button', { name: 'Rotate secret' }).count()).to.equal(0);
    expect(await page.getByRole('button', { name: 'Reveal secret' }).count()).to.equal(0);
    expect(await page.getByRole('button', { name: 'Save addresses' }).count()).to.equal(0);
    const rotate = await pageRequest(page, 'POST', '/console/api/webhooks/secret/rotate');
    const reveal = await pageRequest(page, 'GET', '/console/api/webhooks/secret');
    expect([rotate.status, rotate.body.error.code, reveal.status]).to.deep.equal([403, 'forbidden', 403]);
    expect(await accessibilityViolations(page)).to.deep.equal([]);
    await screenshots(page, 'webhooks-viewer');
  });

  it('invites a user (link shown once), changes their role, removes them, and keeps the last owner', async () => {
    const { tenantId } = await app.company();
    const me = await signIn(tenantId, 'owner', '/users');
    const { page } = watched;
    await page.getByLabel('Email').fill('ada@example.com');
    await page.getByLabel('Name', { exact: true }).fill('Ada');
    await page.getByLabel('Role', { exact: true }).selectOption('viewer');
    await page.getByRole('button', { name: 'Invite' }).click();
    expect(await page.getByTestId('invite-link').textContent()).to.match(/\/console\/sign-in\/[\w-]{40,}$/);
    await page.getByRole('row', { name: /ada@example.com/ }).waitFor();
    await screenshots(page, 'users');

    await page.getByLabel('Role of ada@example.com').selectOption('admin');
    await page.waitForFunction(
      () => (document.querySelector('[aria-label="Role of ada@example.com"]') as HTMLSelectElement | null)?.value === 'admin',
    );
    await page.getByLabel(`Role of ${me.email}`).selectOption('viewer');
    const refused = page.getByRole('alert');
    await refused.waitFor();
    expect(await refused.textContent()).to.match(/owner/i);
    await page.getByRole('button', { name: 'Remove ada@example.com' }).click();
    await page.getByRole('button', { name: 'Really remove ada@example.com?' }).click();
    await page.getByRole('row', { name: /ada@example.com/ }).waitFor({ state: 'detached' });
    expect(await accessibilityViolations(page)).to.deep.equal([]);

    await page.goto(`${app.url}/audit`);
    await page.getByRole('heading', { name: 'Audit log' }).waitFor();
    const rows = page.getByRole('row');
    await rows.filter({ hasText: 'user.removed' }).waitFor();
    expect(await rows.filter({ hasText: 'user.role_changed' }).count()).to.equal(1);
    expect(await rows.filter({ hasText: 'user.invited' }).count()).to.equal(1);
    expect(await accessibilityViolations(page)).to.deep.equal([]);
    await screenshots(page, 'audit');
  });

  it("leaves out of each role's navigation the pages its role is not served", async () => {
    const { tenantId } = await app.company();
    const expected: Record<Role, string[]> = {
      viewer: [],
      member: [],
      admin: ['Carrier', 'Users'],
      owner: ['Carrier', 'Users', 'Audit log'],
    };
    for (const role of ['viewer', 'member', 'admin', 'owner'] as Role[]) {
      await signIn(tenantId, role, '/');
      const nav = watched.page.getByRole('navigation', { name: 'Console' });
      await nav.getByRole('link', { name: 'API keys' }).waitFor();
      const shown = [];
      for (const name of ['Carrier', 'Users', 'Audit log'])
        if (await nav.getByRole('link', { name, exact: true }).count()) shown.push(name);
      expect(shown, role).to.deep.equal(expected[role]);
      await watched.page.getByRole('button', { name: 'Sign out' }).click();
      await watched.page.waitForURL((u) => u.pathname === '/sign-in');
    }
  });

  it('pages through the audit log, 50 entries at a time', async () => {
    const { tenantId } = await app.company();
    const owner = await signedInUser(app, tenantId, 'owner');
    for (let i = 0; i < 51; i++)
      expect((await owner.browser.post('/console/api/do-not-call', { number: `+1202555${String(1000 + i)}` })).status).to.equal(201);
    await signIn(tenantId, 'owner', '/audit');
    const { page } = watched;
    await page.getByRole('row', { name: /\+12025551050/ }).waitFor();
    // The header row and 50 entries: the first number added is on the next page.
    expect(await page.getByRole('row').count()).to.equal(51);
    expect(await page.getByRole('row', { name: /\+12025551000/ }).count()).to.equal(0);
    await page.getByRole('button', { name: 'Older entries' }).click();
    await page.getByRole('row', { name: /\+12025551000/ }).waitFor();
    expect(await page.getByRole('button', { name: 'Older entries' }).isDisabled()).to.equal(true);
    await page.getByRole('button', { name: 'Newer entries' }).click();
    await page.getByRole('row', { name: /\+12025551050/ }).waitFor();
  });

  it('adds and removes a do-not-call number, and shows the carrier read-only', async () => {
    const { tenantId } = await app.company();
    await signIn(tenantId, 'admin', '/do-not-call');
    const { page } = watched;
    await page.getByLabel('Phone number').fill('(202) 555-0177');
    await page.getByLabel('Reason').fill('asked us');
    await page.getByRole('button', { name: 'Add number' }).click();
    await page.getByRole('row', { name: /\+12025550177.*asked us/ }).waitFor();
    await page.getByLabel('Phone number').fill('not a number');
    await page.getByRole('button', { name: 'Add number' }).click();
    expect(await page.getByRole('alert').textContent()).to.match(/not a valid phone number/);
    expect(await accessibilityViolations(page)).to.deep.equal([]);
    await screenshots(page, 'do-not-call');
    await page.getByRole('button', { name: 'Remove +12025550177' }).click();
    await page.getByRole('button', { name: 'Really remove +12025550177?' }).click();
    await page.getByText('No numbers on the list.').waitFor();

    await page.goto(`${app.url}/carrier`);
    await page.getByRole('heading', { name: 'Carrier' }).waitFor();
    await page.getByText("The deployment's").waitFor();
    expect(await page.getByRole('row', { name: /Auth token/ }).textContent()).to.include('Not set');
    expect(await accessibilityViolations(page)).to.deep.equal([]);
    await screenshots(page, 'carrier');
  });

  it("shows account B's user none of account A's rows on any of these pages", async () => {
    const a = await app.company();
    const aOwner = await signedInUser(app, a.tenantId, 'owner');
    await aOwner.browser.post('/console/api/keys', { name: 'A secret key' });
    await aOwner.browser.post('/console/api/do-not-call', { number: '+12025550188' });
    await aOwner.browser.patch('/console/api/webhooks', { events_url: receiver.url });
    const b = await app.company();
    await signIn(b.tenantId, 'owner', '/api-keys');
    const { page } = watched;
    const pages: [string, string][] = [
      ['/api-keys', 'API keys'],
      ['/do-not-call', 'Do-not-call list'],
      ['/webhooks', 'Webhooks'],
      ['/users', 'Users'],
      ['/audit', 'Audit log'],
    ];
    for (const [path, heading] of pages) {
      await page.goto(`${app.url}${path}`);
      await page.getByRole('heading', { name: heading, exact: true }).waitFor();
      await page
        .getByRole('progressbar')
        .or(page.getByLabel(/^Loading/))
        .waitFor({ state: 'detached' });
      const text = (await page.getByRole('main').textContent())!;
      for (const leak of ['A secret key', '+12025550188', aOwner.email, receiver.url])
        expect(text, `${path} shows ${leak}`).not.to.include(leak);
    }
  });

  it('does not keep a session cookie planted before sign-in', async () => {
    const { tenantId } = await app.company();
    const { page } = watched;
    await page.context().addCookies([{ name: 'sb_session', value: 'planted-by-an-attacker', url: app.url }]);
    await signIn(tenantId, 'viewer', '/');
    const cookie = (await page.context().cookies(app.url)).find((c) => c.name === 'sb_session');
    expect(cookie?.value).to.be.a('string').and.not.equal('planted-by-an-attacker');
    expect(cookie?.httpOnly).to.equal(true);
  });
});
