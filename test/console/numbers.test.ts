import { expect } from 'chai';
import { accessibilityViolations, screenshots } from '../support/browser.js';
import { consolePageHooks, signInOnPage } from '../support/console-page.js';

describe('The console Numbers page', () => {
  const suite = consolePageHooks();

  let made = 0;
  /** An account with one number, and a user of `role` on its Numbers page. */
  async function numbersPage(role: 'member' | 'viewer') {
    const number = `+1303555${String(1000 + ++made)}`;
    const company = await suite.app.company({ numbers: [number] });
    await signInOnPage(suite.watched.page, suite.app, company.tenantId, role);
    await suite.watched.page.getByRole('link', { name: 'Numbers' }).click();
    // Off the link: axe would judge its hover colours (Layout's), not this page.
    await suite.watched.page.mouse.move(700, 700);
    await suite.watched.page.getByRole('heading', { name: 'Numbers and routing' }).waitFor();
    await suite.watched.page.getByRole('cell', { name: `${number} (default)` }).waitFor();
    return { ...company, number };
  }

  it('lets a member name and route a number, which the Voice API then reads', async () => {
    const { page } = suite.watched;
    const { client, number } = await numbersPage('member');
    expect(await page.getByRole('row').nth(1).textContent()).to.include('not answered');
    expect(await accessibilityViolations(page)).to.deep.equal([]);
    await screenshots(page, 'numbers');

    await page.getByRole('button', { name: `Edit ${number}` }).click();
    const dialog = page.getByRole('dialog', { name: `Edit ${number}` });
    await dialog.getByLabel('Name').fill('Front desk');
    await dialog.getByLabel('Routing').fill('{"type": "transfer"');
    await dialog.getByRole('button', { name: 'Save' }).click();
    expect(await dialog.getByRole('alert').textContent()).to.include('Routing must be JSON');

    await dialog.getByLabel('Routing').fill('{"type": "transfer"}');
    await dialog.getByRole('button', { name: 'Save' }).click();
    // The Voice API's 422 for a transfer with nowhere to go, as it words it.
    await dialog
      .getByRole('alert')
      .getByText(/^routing\.to: /)
      .waitFor();
    expect(await accessibilityViolations(page)).to.deep.equal([]);
    await screenshots(page, 'numbers-edit');

    await dialog.getByLabel('Routing').fill('{"type": "transfer", "to": "+12025550199"}');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByRole('cell', { name: 'Front desk' }).waitFor();
    expect(await page.getByRole('row').nth(1).textContent())
      .to.include('"type":"transfer"')
      .and.include('"to":"+12025550199"');
    expect((await client.get('/v1/numbers')).body.data[0]).to.deep.include({
      name: 'Front desk',
      routing: { type: 'transfer', to: '+12025550199' },
    });
  });

  it('shows a viewer the numbers with no way to change them', async () => {
    const { page } = suite.watched;
    await numbersPage('viewer');
    expect(await page.getByRole('button', { name: /^Edit/ }).count()).to.equal(0);
    expect(await page.getByRole('columnheader').allTextContents()).to.deep.equal(['Number', 'Name', 'Routing']);
  });
});
