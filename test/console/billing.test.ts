import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { finalizeDueInvoices } from '../../pkg/billing/due.js';
import { accessibilityViolations, screenshots } from '../support/browser.js';
import { signedInUser } from '../support/console.js';
import { consolePageHooks, signInOnPage } from '../support/console-page.js';
import { expectVoiceError } from '../support/errors.js';
import { manualClock, startJobsApp } from '../support/triggers.js';

const PRICES = { SWITCHBOARD_PRICE_PER_CREDIT: '40', SWITCHBOARD_PRICE_PER_CALL_MINUTE: '3', SWITCHBOARD_CURRENCY: 'USD' };

describe('The console Billing page', () => {
  // A company pay-as-you-go since January 2025 whose January is invoiced; the clock stays in February.
  const suite = consolePageHooks(() => startJobsApp({ manualClock: true, startAt: new Date('2025-01-10T09:00:00Z'), env: PRICES }));
  let company: Awaited<ReturnType<typeof suite.app.company>>;
  let number: string;
  before(async () => {
    const { app } = suite;
    company = await app.company({ name: 'Ledger & Co' });
    const conversation = (await company.client.post('/api/v1/conversations', { agentId: company.agentId })).body.conversationId;
    for (const tokens of [30_000, 12_500]) {
      app.model.reply({ content: 'Noted.', usage: { promptTokens: tokens, completionTokens: 0 } });
      expect((await company.client.post(`/api/v1/conversations/${conversation}/messages`, { message: 'Hello' })).status).to.equal(200);
    }
    manualClock(app).set(new Date('2025-02-01T00:30:00Z'));
    await finalizeDueInvoices(app.runtime.ctx);
    number = (await app.runtime.ctx.db('invoices').where({ tenant_id: company.tenantId }).first()).number;
    // February so far: one more turn.
    app.model.reply({ content: 'Noted.', usage: { promptTokens: 5000, completionTokens: 0 } });
    expect((await company.client.post(`/api/v1/conversations/${conversation}/messages`, { message: 'Again' })).status).to.equal(200);
  });

  it('lists the invoices with the running month so far; an invoice shows its lines and downloads as CSV and PDF', async () => {
    const { page } = suite.watched;
    await signInOnPage(page, suite.app, company.tenantId, 'owner');
    await page.getByRole('link', { name: 'Billing' }).click();
    await page.getByRole('heading', { name: 'Billing', level: 1 }).waitFor();
    expect(await page.getByTestId('billing-mode').textContent()).to.match(/^Pay as you go/);
    // 42.5 credits at 40 cents in January; 5 so far in February.
    expect(await page.getByRole('link', { name: '$2.00, not final' }).count()).to.equal(1);
    const table = page.getByRole('table', { name: 'Invoices and credit notes, newest first' });
    const rows = await table.getByRole('row').allTextContents();
    expect(rows).to.have.length(2);
    expect(rows[1]).to.include(number).and.include('Invoice').and.include('2025-01').and.include('$17.00');
    expect(await accessibilityViolations(page)).to.deep.equal([]);
    await screenshots(page, 'billing');

    await page.getByRole('link', { name: number }).click();
    await page.getByRole('heading', { name: `Invoice ${number}` }).waitFor();
    expect(await page.getByTestId('invoice-total').textContent()).to.equal('$17.00');
    const lines = await page
      .getByRole('table', { name: `Lines of ${number}` })
      .getByRole('row')
      .allTextContents();
    expect(lines).to.deep.equal(['DescriptionQuantityUnit priceAmount', 'AI credits · chat · Ledger & Co assistant42.5$0.40$17.00']);
    expect(await accessibilityViolations(page)).to.deep.equal([]);
    await screenshots(page, 'invoice');

    const [csv] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download CSV' }).click()]);
    expect(csv.suggestedFilename()).to.equal(`${number}.csv`);
    expect(await readFile((await csv.path())!, 'utf8')).to.equal(
      'description,quantity,unit_price,amount,currency\r\nAI credits · chat · Ledger & Co assistant,42.5,40,1700,USD\r\nTotal,,,1700,USD\r\n',
    );
    const [pdf] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download PDF' }).click()]);
    expect(pdf.suggestedFilename()).to.equal(`${number}.pdf`);
    const { stdout: text } = await promisify(execFile)('pdftotext', ['-layout', (await pdf.path())!, '-']);
    expect(text).to.include(`Invoice ${number}`).and.include('Company: Ledger & Co');
    expect(text).to.match(/AI credits · chat · Ledger & Co assistant\s+42\.5\s+\$0\.40\s+\$17\.00/);
    expect(text).to.match(/Total \(USD\)\s+\$17\.00/);

    await page.getByRole('link', { name: 'Back to billing' }).click();
    await page.getByRole('link', { name: '$2.00, not final' }).click();
    await page.getByRole('heading', { name: 'Draft invoice 2025-02' }).waitFor();
    expect(await page.getByTestId('invoice-total').textContent()).to.equal('$2.00');
    expect(await page.getByRole('link', { name: 'Download PDF' }).count()).to.equal(0);
  });

  it('is no page for members and viewers, whose requests for it are refused 403', async () => {
    const { page } = suite.watched;
    await signInOnPage(page, suite.app, company.tenantId, 'member');
    expect(await page.getByRole('link', { name: 'Usage' }).count()).to.equal(1);
    expect(await page.getByRole('link', { name: 'Billing' }).count()).to.equal(0);
    await page.goto(`${suite.app.url}/billing?id=${number}`);
    await page.getByRole('heading', { name: 'No such page' }).waitFor();
    for (const role of ['member', 'viewer'] as const) {
      const { browser } = await signedInUser(suite.app, company.tenantId, role);
      for (const path of ['/billing', `/billing/invoices/${number}`, `/billing/invoices/${number}.pdf`, '/billing/invoices/draft.csv']) {
        expectVoiceError(await browser.get(`/console/api${path}`), 403, 'forbidden');
      }
    }
    // An admin reads it; another company's invoice is not found.
    const { browser: admin } = await signedInUser(suite.app, company.tenantId, 'admin');
    expect((await admin.get('/console/api/billing')).body.invoices.map((i: { number: string }) => i.number)).to.deep.equal([number]);
    const other = await suite.app.company({ name: 'Other Co' });
    const { browser: stranger } = await signedInUser(suite.app, other.tenantId, 'owner');
    expectVoiceError(await stranger.get(`/console/api/billing/invoices/${number}`), 404, 'not_found');
  });

  it('says a prepaid company is not invoiced', async () => {
    const prepaid = await suite.app.company({ name: 'Prepaid Co', credits: 10 });
    const { page } = suite.watched;
    await signInOnPage(page, suite.app, prepaid.tenantId, 'owner');
    await page.getByRole('link', { name: 'Billing' }).click();
    expect(await page.getByTestId('billing-mode').textContent()).to.match(/^Prepaid: .*not invoiced/);
    const { browser } = await signedInUser(suite.app, prepaid.tenantId, 'owner');
    expectVoiceError(await browser.get('/console/api/billing/invoices/draft'), 409, 'not_invoiced');
  });
});
