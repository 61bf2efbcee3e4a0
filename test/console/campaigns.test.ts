import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { NUMBERS } from '../support/calls.js';
import { campaignOn, noonZone, SIGN_IN, startCampaignsApp } from '../support/campaigns.js';
import { consolePageHooks, signInOnPage } from '../support/console-page.js';
import { accessibilityViolations, screenshots } from '../support/browser.js';
import { eventually } from '../support/eventually.js';

describe('The console Campaigns and Connections pages', function () {
  this.timeout(120_000);
  // Controllers on the real clock: runs dial the simulated network and send results to a real customer system.
  const suite = consolePageHooks(() => startCampaignsApp({ controllers: true }));

  /** An account with the campaign features and its customer system, a user of `role` signed in on the page. */
  async function signedIn(role: 'member' | 'viewer') {
    const company = await suite.app.campaignCompany();
    await signInOnPage(suite.watched.page, suite.app, company.tenantId, role);
    return company;
  }
  const nav = (page: Page, name: string) => page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name, exact: true });
  /** Off the link just clicked: its hover colours are the navigation's, not the page's. */
  const away = (page: Page) => page.mouse.move(900, 780);
  const fact = (page: Page, name: string) => page.locator(`dd[data-fact="${name}"]`);

  it('a member adds a connection and a campaign, runs it now against the customer system, watches it finish without reload and reads the results', async () => {
    const { page } = suite.watched;
    const { client, system } = await signedIn('member');
    await nav(page, 'Connections').click();
    await page.getByRole('heading', { name: 'Connections', level: 1 }).waitFor();
    await away(page);
    await page.getByText('No connections yet.').waitFor();
    await page.getByRole('button', { name: 'New connection' }).click();
    let dialog = page.getByRole('dialog', { name: 'New connection' });
    await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill('CRM');
    await dialog.getByLabel('Address (https)').fill('http://crm.example.com');
    await dialog.getByLabel('Sign-in header name').fill(SIGN_IN.name);
    await dialog.getByLabel('Sign-in header value').fill(SIGN_IN.value);
    await dialog.getByRole('button', { name: 'Save connection' }).click();
    // The Voice API's refusal, in its words.
    await dialog
      .getByRole('alert')
      .getByText(/^base_url /)
      .waitFor();
    await dialog.getByLabel('Address (https)').fill(system.url);
    await dialog.getByRole('button', { name: 'Save connection' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByRole('cell', { name: `${SIGN_IN.name} (value set)` }).waitFor();
    expect(await accessibilityViolations(page)).to.deep.equal([]);
    await screenshots(page, 'connections');
    // The value is never shown again, not even in the form that replaces it.
    await page.getByRole('button', { name: 'Edit CRM' }).click();
    dialog = page.getByRole('dialog', { name: 'Edit CRM' });
    expect(await dialog.getByLabel('Sign-in header value').inputValue()).to.equal('');
    expect(await dialog.getByLabel('Sign-in header name').inputValue()).to.equal(SIGN_IN.name);
    expect(await accessibilityViolations(page)).to.deep.equal([]);
    await screenshots(page, 'connection-edit');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect(await page.content()).to.not.include(SIGN_IN.value);
    const [connection] = (await client.get('/v1/connections')).body.data;
    expect(connection).to.deep.include({ name: 'CRM', base_url: system.url, sign_in_header: { name: SIGN_IN.name, value_set: true } });

    await nav(page, 'Campaigns').click();
    await page.getByRole('heading', { name: 'Campaigns', level: 1 }).waitFor();
    await away(page);
    await page.getByRole('button', { name: 'New campaign' }).click();
    dialog = page.getByRole('dialog', { name: 'New campaign' });
    await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill('Renewals');
    await dialog.getByLabel('Connection').selectOption({ label: 'CRM' });
    const task = `Console renewals ${Date.now()}`;
    await dialog.getByLabel('Task').fill(task);
    await dialog.getByLabel('Outcomes').fill('renewed, declined');
    // Calling hours hold now in the campaign's timezone, whatever the hour of the test.
    const zone = noonZone();
    await dialog.getByLabel('Timezone', { exact: true }).fill(zone);
    await dialog.getByLabel('Attempts per person').fill('1');
    await dialog.getByLabel('Calling hours from').fill('07:00');
    await dialog.getByRole('button', { name: 'Save campaign' }).click();
    await dialog
      .getByRole('alert')
      .getByText(/^calling_hours: /)
      .waitFor();
    await dialog.getByLabel('Calling hours from').fill('09:00');
    await dialog.getByRole('button', { name: 'Save campaign' }).click();
    await page.getByRole('heading', { name: 'Renewals', level: 1 }).waitFor();
    expect(await fact(page, 'Connection').textContent()).to.equal('CRM');
    expect(await fact(page, 'Attempts').textContent()).to.equal('1, 120 minutes apart');
    expect(await fact(page, 'Outcomes').textContent()).to.equal('renewed, declined');
    const [campaign] = (await client.get('/v1/campaigns')).body.data;
    expect(campaign).to.deep.include({
      name: 'Renewals',
      task,
      connection_id: connection.id,
      max_attempts: 1,
      timezone: zone,
      outcomes: ['renewed', 'declined'],
    });

    suite.app.script(task, { toolCalls: [{ name: 'end_call', arguments: { outcome: 'renewed', note: 'Happy to renew' } }] });
    // The list waits for the test's word: the run is seen running before anyone is called.
    let answerList!: () => void;
    system.lists.push({
      status: 200,
      body: {
        contacts: [
          { contact_id: 'ann', phone: NUMBERS.answer },
          { contact_id: 'nobody-home', phone: NUMBERS.noAnswer },
          { contact_id: 'bad-number', phone: 'not a phone' },
        ],
      },
      until: new Promise<void>((resolve) => (answerList = resolve)),
    });
    // Set on this document: a reload would lose it.
    await page.evaluate(() => ((window as any).notReloaded = true));
    await page.getByRole('button', { name: 'Run now' }).click();
    const runs = page.getByRole('region', { name: "The campaign's runs, newest first" });
    await runs.getByRole('cell', { name: 'running' }).waitFor();
    expect(await runs.getByRole('row').nth(1).textContent()).to.include('0 of 0');
    await eventually('the list request', () => system.listRequests.length > 0);
    answerList();
    await runs.getByRole('cell', { name: 'done', exact: true }).waitFor({ timeout: 60_000 });
    expect(await runs.getByRole('row').nth(1).textContent()).to.include('3 of 3');
    expect(await page.evaluate(() => (window as any).notReloaded)).to.equal(true);
    expect(await accessibilityViolations(page)).to.deep.equal([]);
    await screenshots(page, 'campaign');

    await runs.getByRole('link').first().click();
    await page.getByRole('heading', { name: 'Campaign run', level: 1 }).waitFor();
    await away(page);
    expect(await page.getByTestId('run-progress').textContent()).to.equal('3 of 3 people finished');
    const results = page.getByRole('region', { name: "Each person's result as sent to the connection" });
    const row = (contact: string) => results.getByRole('row').filter({ has: page.getByRole('cell', { name: contact, exact: true }) });
    await row('ann').waitFor();
    expect(await row('ann').textContent())
      .to.include('done')
      .and.include('renewed')
      .and.include('Happy to renew');
    expect(await row('nobody-home').textContent()).to.include('no_answer');
    expect(await row('bad-number').textContent()).to.include('skipped');
    expect(await fact(page, 'Outcomes').textContent()).to.equal('renewed: 1');
    expect(await accessibilityViolations(page)).to.deep.equal([]);
    await screenshots(page, 'campaign-run');
    // What the page shows is what the customer system was sent.
    expect(system.results.map((r) => [r.contact_id, r.status]).sort()).to.deep.equal([
      ['ann', 'done'],
      ['bad-number', 'skipped'],
      ['nobody-home', 'no_answer'],
    ]);
  });

  it('a member edits a campaign, starts a test run to one number and sees its result', async () => {
    const { page } = suite.watched;
    const { client, system } = await signedIn('member');
    const task = `Console test run ${Date.now()}`;
    const campaign = await campaignOn(client, system, { name: 'Winback', task, timezone: noonZone() });
    await page.goto(`${suite.app.url}/campaigns?id=${campaign.id}`);
    await page.getByRole('heading', { name: 'Winback', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Edit campaign' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit Winback' });
    await dialog.getByLabel('Greeting').fill('Hi {{context.name}}');
    await dialog.getByLabel('Start runs on a schedule').check({ force: true });
    await dialog.getByLabel('Saturday').check({ force: true });
    await dialog.getByLabel('Schedule timezone').fill('Europe/Berlin');
    expect(await accessibilityViolations(page)).to.deep.equal([]);
    await screenshots(page, 'campaign-edit');
    await dialog.getByRole('button', { name: 'Save campaign' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await fact(page, 'Schedule').getByText('mon, tue, wed, thu, fri, sat at 10:00 (Europe/Berlin)').waitFor();
    const changed = (await client.get(`/v1/campaigns/${campaign.id}`)).body;
    expect(changed).to.deep.include({
      greeting: 'Hi {{context.name}}',
      schedule: { days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat'], start_time: '10:00', timezone: 'Europe/Berlin' },
      task,
    });
    expect(changed.next_start_at).to.be.a('string');

    system.lists.push({ status: 200, body: { contacts: [{ contact_id: 'first', phone: '+12025550177', context: { name: 'Nora' } }] } });
    await page.getByLabel('Test number').fill(NUMBERS.answer);
    await page.getByRole('button', { name: 'Start test run' }).click();
    const runs = page.getByRole('region', { name: "The campaign's runs, newest first" });
    await runs.getByRole('cell', { name: 'Test run' }).waitFor();
    await runs.getByRole('cell', { name: 'done', exact: true }).waitFor({ timeout: 60_000 });
    await runs.getByRole('link').first().click();
    await page.getByRole('heading', { name: 'Test run', level: 1 }).waitFor();
    const results = page.getByRole('region', { name: "Each person's result as sent to the connection" });
    await results.getByRole('cell', { name: 'first', exact: true }).waitFor();
    const [call] = (await client.get('/v1/calls?limit=10')).body.data.filter((c: any) => c.campaign?.contact_id === 'first');
    expect(call.to, 'only the test number is called').to.equal(NUMBERS.answer);
    expect(await results.getByRole('row').nth(1).textContent())
      .to.include('done')
      .and.include(call.id);
  });

  it('a member stops a run: the page shows it stopped and the people not reached unfinished', async () => {
    const { page } = suite.watched;
    const { client, system } = await signedIn('member');
    const campaign = await campaignOn(client, system, { name: 'Long calls', timezone: noonZone(), concurrency: 1, max_attempts: 1 });
    system.lists.push({
      status: 200,
      body: {
        contacts: [
          { contact_id: 'talker', phone: NUMBERS.stays },
          { contact_id: 'later', phone: NUMBERS.answer },
        ],
      },
    });
    const run = (await client.post(`/v1/campaigns/${campaign.id}/runs`, {})).body;
    const onTheLine = await eventually('the first call on the line', async () =>
      (await client.get('/v1/calls?limit=10')).body.data.find((c: any) => c.campaign?.run_id === run.id && c.status === 'in-progress'),
    );
    await page.goto(`${suite.app.url}/campaign-runs/${run.id}`);
    await page.getByRole('heading', { name: 'Campaign run', level: 1 }).waitFor();
    await page.getByText('0 of 2 people finished').waitFor();
    await page.getByRole('button', { name: 'Stop the run' }).click();
    await page.getByRole('button', { name: 'Really stop the run?' }).click();
    await page.getByText('stopped', { exact: true }).waitFor();
    expect(await fact(page, 'Unfinished').textContent()).to.equal('1');
    expect(await page.getByRole('button', { name: /Stop/ }).count()).to.equal(0);
    expect((await client.get(`/v1/campaign-runs/${run.id}`)).body.status).to.equal('stopped');
    // The call on the line finishes on its own; here it is ended so the suite does not wait for it.
    await client.post(`/v1/calls/${onTheLine.id}/hangup`, {});
  });

  it('shows a viewer campaigns, runs, results and connections with no way to change them', async () => {
    const { page } = suite.watched;
    const { client, system } = await signedIn('viewer');
    const campaign = await campaignOn(client, system, { name: 'Read only', timezone: noonZone() });
    const run = (await client.post(`/v1/campaigns/${campaign.id}/runs`, {})).body;
    await nav(page, 'Campaigns').click();
    await page.getByRole('link', { name: 'Read only' }).click();
    await page.getByRole('heading', { name: 'Read only', level: 1 }).waitFor();
    await page.getByRole('region', { name: "The campaign's runs, newest first" }).waitFor();
    expect(
      await page
        .getByRole('button')
        .filter({ hasText: /Run now|Start test run|Edit campaign|Archive/ })
        .count(),
    ).to.equal(0);
    expect(await page.getByLabel('Test number').count()).to.equal(0);
    await page.goto(`${suite.app.url}/campaign-runs/${run.id}`);
    await page.getByRole('heading', { name: 'Campaign run', level: 1 }).waitFor();
    expect(await page.getByRole('button', { name: /Stop/ }).count()).to.equal(0);
    await nav(page, 'Connections').click();
    await page.getByRole('cell', { name: 'CRM' }).waitFor();
    expect(await page.getByRole('button', { name: /New connection|Edit|Delete/ }).count()).to.equal(0);
    expect(await page.getByRole('columnheader').allTextContents()).to.deep.equal(['Name', 'Address', 'Paths', 'Sign-in header', 'Changed']);
  });
});
