import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { accessibilityViolations, screenshots } from '../support/browser.js';
import { startCallsApp } from '../support/calls.js';
import { consolePageHooks, signInOnPage } from '../support/console-page.js';
import { eventually } from '../support/eventually.js';

describe('The console Mailboxes page', function () {
  this.timeout(120_000);
  const suite = consolePageHooks(() => startCallsApp({ controllers: true }));

  let made = 0;
  /** A voice company whose number routes to a mailbox a simulated caller left a voicemail in, and a user of `role` on the Mailboxes page. */
  async function mailboxesPage(role: 'member' | 'viewer') {
    const { page } = suite.watched;
    const company = await suite.app.routedCompany(`+1404559${String(1000 + ++made)}`, null);
    const mailbox = (await company.client.post('/v1/mailboxes', { name: 'After hours', greeting: 'Leave a message after the tone.' })).body;
    await company.client.patch(`/v1/numbers/${encodeURIComponent(company.number)}`, {
      routing: { type: 'voicemail', mailbox_id: mailbox.id },
    });
    const caller = `+1202555${3200 + made}`;
    await company.client.post('/v1/sim/calls', { to: company.number, from: caller, lines: ['Hi, this is Eve, please call me back.'] });
    const message = await eventually(
      'the voicemail kept',
      async () => (await company.client.get(`/v1/messages?mailbox_id=${mailbox.id}`)).body.data[0],
      { everyMs: 500 },
    );
    await signInOnPage(page, suite.app, company.tenantId, role);
    await page.getByRole('link', { name: 'Mailboxes' }).click();
    // Off the link: axe would judge its hover colours (Layout's), not this page.
    await page.mouse.move(700, 700);
    await page.getByRole('heading', { name: 'Mailboxes', level: 1 }).waitFor();
    return { ...company, mailbox, message, caller };
  }

  /** What the page's audio element for the message fetches: its status and type. */
  const audioAnswer = (page: Page, caller: string) =>
    page
      .getByRole('row')
      .filter({ hasText: caller })
      .locator('audio')
      .evaluate(async (audio: HTMLAudioElement) => {
        const res = await fetch(audio.src);
        return [res.status, res.headers.get('content-type')];
      });

  it('lets a member open a mailbox, play the voicemail a simulated caller left and mark it read', async () => {
    const { page } = suite.watched;
    const { client, message, caller } = await mailboxesPage('member');
    await page.getByRole('link', { name: 'After hours' }).waitFor();
    expect(await page.getByRole('row').filter({ hasText: 'After hours' }).getByRole('cell').nth(1).textContent()).to.equal('1');
    expect(await accessibilityViolations(page)).to.deep.equal([]);
    await page.getByRole('link', { name: 'After hours' }).click();
    await page.getByRole('heading', { name: 'After hours', level: 1 }).waitFor();
    const row = page.getByRole('row').filter({ hasText: caller });
    await row.getByText('Hi, this is Eve, please call me back.').waitFor();
    expect(await row.getByText('New', { exact: true }).count()).to.equal(1);
    expect(await audioAnswer(page, caller)).to.deep.equal([200, 'audio/wav']);
    expect(await accessibilityViolations(page)).to.deep.equal([]);
    await screenshots(page, 'mailboxes');

    await row.getByRole('button', { name: /^Mark read/ }).click();
    await row.getByText('Read', { exact: true }).waitFor();
    expect(await row.getByRole('button', { name: /^Mark read/ }).count()).to.equal(0);
    expect((await client.get(`/v1/messages/${message.id}`)).body.status).to.equal('read');

    await page.getByLabel('Show').selectOption('new');
    await page.getByText('No messages.').waitFor();
  });

  it('lets a member make a mailbox', async () => {
    const { page } = suite.watched;
    const { client } = await mailboxesPage('member');
    const form = page.getByRole('region', { name: 'New mailbox' });
    await form.getByLabel('Name').fill('Sales');
    await form.getByLabel('Greeting').fill('Sales is away; leave a message.');
    await form.getByRole('button', { name: 'Create mailbox' }).click();
    await page.getByRole('link', { name: 'Sales' }).waitFor();
    expect((await client.get('/v1/mailboxes')).body.data.map((m: any) => [m.name, m.greeting])).to.deep.equal([
      ['After hours', 'Leave a message after the tone.'],
      ['Sales', 'Sales is away; leave a message.'],
    ]);
  });

  it("shows another account's user neither the mailbox nor its voicemail", async () => {
    const { page } = suite.watched;
    const { mailbox } = await mailboxesPage('member');
    const other = await suite.app.company();
    await page.context().clearCookies();
    await signInOnPage(page, suite.app, other.tenantId, 'owner');
    await page.goto(`${suite.app.url}/mailboxes?id=${mailbox.id}`);
    await page.getByRole('alert').filter({ hasText: 'Could not load the mailbox' }).waitFor();
    await page.getByRole('alert').filter({ hasText: 'Could not load the messages' }).waitFor();
    expect(await page.getByRole('main').textContent()).not.to.include('Eve');
    await page.goto(`${suite.app.url}/mailboxes`);
    await page.getByText('No mailboxes yet.').waitFor();
  });

  it('shows a viewer the mailbox and its recordings with no way to change them', async () => {
    const { page } = suite.watched;
    const { caller } = await mailboxesPage('viewer');
    expect(await page.getByRole('region', { name: 'New mailbox' }).count()).to.equal(0);
    await page.getByRole('link', { name: 'After hours' }).click();
    await page.getByRole('row').filter({ hasText: caller }).waitFor();
    expect(
      await page
        .getByRole('button')
        .filter({ hasText: /Mark read|Archive|Create mailbox/ })
        .count(),
    ).to.equal(0);
    expect(await page.getByRole('columnheader').allTextContents()).to.deep.equal([
      'Caller',
      'Received',
      'Length',
      'Message',
      'Status',
      'Recording',
    ]);
    expect(await audioAnswer(page, caller)).to.deep.equal([200, 'audio/wav']);
    expect(await accessibilityViolations(page)).to.deep.equal([]);
  });
});
