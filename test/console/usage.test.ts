import { expect } from 'chai';
import { readFile } from 'node:fs/promises';
import { updateTenant } from '../../pkg/tenants/settings.js';
import { accessibilityViolations, screenshots } from '../support/browser.js';
import { consolePageHooks, signInOnPage } from '../support/console-page.js';

describe('The console Overview and Usage pages', () => {
  const suite = consolePageHooks();

  const N = 4;
  const M = 2;

  /** An account whose API key made N reads and placed M calls today, and a viewer of it signed in to the page. */
  async function busyAccountSignedIn() {
    const company = await suite.app.company();
    await updateTenant(suite.app.runtime.ctx, company.tenantId, { features: ['voice_api'] });
    for (let i = 0; i < N; i++) expect((await company.client.get(`/v1/tenants/${company.tenantId}/api-keys`)).status).to.equal(200);
    for (let i = 0; i < M; i++) {
      const placed = await company.client.post('/v1/calls', { to: `+1202555011${i}`, task: 'Confirm the delivery' });
      expect(placed.status, JSON.stringify(placed.body)).to.equal(201);
    }
    await signInOnPage(suite.watched.page, suite.app, company.tenantId, 'viewer');
    return company;
  }

  it("shows the requests and calls the account's key made, its limits and its jobs, with tables behind the charts", async () => {
    await busyAccountSignedIn();
    const { page } = suite.watched;
    await page.getByTestId('requests-total').waitFor();
    expect(await page.getByTestId('requests-total').textContent()).to.equal(`${N + M} in the last 30 days`);
    expect(await page.getByTestId('calls_placed-total').textContent()).to.equal(`${M} in the last 30 days`);
    expect(await page.getByTestId('credits_used-total').textContent()).to.equal('0 in the last 30 days');
    expect(await page.getByLabel('Requests per minute: 300').count()).to.equal(1);
    expect(await page.getByLabel('Calls per minute: 30').count()).to.equal(1);
    // How close to each limit: the key's requests and the calls placed this minute, the calls holding slots.
    expect(await page.getByRole('progressbar', { name: `Requests per minute: ${N + M} of 300 used` }).count()).to.equal(1);
    expect(await page.getByRole('progressbar', { name: `Calls per minute: ${M} of 30 used` }).count()).to.equal(1);
    expect(await page.getByRole('progressbar', { name: `Concurrent calls: ${M} of 10 used` }).count()).to.equal(1);

    // Today's bar is drawn in the requests and calls charts, none in the credits one.
    expect(await page.locator('section[aria-labelledby="chart-calls_placed"] .recharts-bar-rectangle path').count()).to.equal(1);
    expect(await page.locator('section[aria-labelledby="chart-credits_used"] .recharts-bar-rectangle path').count()).to.equal(0);
    await page.getByText('Calls placed as a table').click();
    const today = new Date().toISOString().slice(0, 10);
    const table = page.getByRole('table', { name: 'Calls placed by day (UTC)' });
    expect(await table.getByRole('row').allTextContents()).to.deep.equal(['DayCalls placed', `${today}${M}`]);
    expect(
      await page
        .getByRole('table', { name: /jobs in each status/ })
        .getByRole('row')
        .count(),
    ).to.equal(9);

    expect(await accessibilityViolations(page)).to.deep.equal([]);
    await screenshots(page, 'overview-usage');
  });

  it('shows every limit an operator set for the account', async () => {
    const company = await suite.app.company();
    await updateTenant(suite.app.runtime.ctx, company.tenantId, {
      requestsPerMinute: 1200,
      callsPerMinute: 90,
      maxConcurrentCalls: 25,
      maxConcurrentJobs: 40,
      maxCallsPerNumberPerDay: 3,
      maxCallsPerNumberPerWeek: 8,
      allowedCountries: ['US', 'CA'],
    });
    await signInOnPage(suite.watched.page, suite.app, company.tenantId, 'viewer');
    const { page } = suite.watched;
    await page.getByLabel('Requests per minute: 1,200').waitFor();

    for (const label of [
      'Calls per minute: 90',
      'Concurrent calls: 25',
      'Concurrent jobs: 40',
      'Calls to one number: 3 a day, 8 a week',
      'Countries calls may go to: US, CA',
    ]) {
      expect(await page.getByLabel(label, { exact: true }).count(), label).to.equal(1);
    }
    expect(await accessibilityViolations(page)).to.deep.equal([]);
  });

  it('downloads the usage report it shows as CSV, with the same rows', async () => {
    await busyAccountSignedIn();
    const { page } = suite.watched;
    await page.getByRole('link', { name: 'Usage' }).click();
    await page.getByRole('heading', { name: 'Usage', level: 1 }).waitFor();
    const today = new Date().toISOString().slice(0, 10);
    const table = page.getByRole('table', { name: /^Usage from/ });
    await table.waitFor();
    expect(await table.getByRole('row').allTextContents()).to.deep.equal([
      'DayRequestsOver the limitCalls placed',
      `${today}${N + M}0${M}`,
    ]);

    await page.getByLabel('Channel').check();
    await page.getByRole('button', { name: 'Show' }).click();
    await page.getByRole('columnheader', { name: 'Channel' }).waitFor();
    expect(await accessibilityViolations(page)).to.deep.equal([]);
    await screenshots(page, 'usage');

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: /Download CSV/ }).click()]);
    expect(download.suggestedFilename()).to.equal('api-usage.csv');
    const csv = await readFile((await download.path())!, 'utf8');
    expect(csv).to.equal(`day,channel,requests,requests_over_limit,calls_placed\r\n${today},api,${N + M},0,${M}\r\n`);
  });

  it('shows an error with a way to try again when the report is refused', async () => {
    await busyAccountSignedIn();
    const { page } = suite.watched;
    await page.getByRole('link', { name: 'Usage' }).click();
    await page.getByRole('textbox', { name: /^From/ }).fill('2030-02-01');
    await page.getByRole('textbox', { name: /^To/ }).fill('2030-01-01');
    await page.getByRole('button', { name: 'Show' }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent())
      .to.include('Could not load the usage report')
      .and.include('must not be after to');
  });
});
