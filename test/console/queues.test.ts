import { expect } from 'chai';
import { accessibilityViolations, screenshots } from '../support/browser.js';
import { NUMBERS, finalResult, startCallsApp } from '../support/calls.js';
import { consolePageHooks, signInOnPage } from '../support/console-page.js';
import { eventually } from '../support/eventually.js';

describe('The console Queues page', function () {
  this.timeout(120_000);
  const suite = consolePageHooks(() => startCallsApp({ controllers: true }));

  let made = 0;
  /** A voice company whose number routes to a queue of Al and Bea, and a user of `role` on its Queues page. */
  async function queuesPage(role: 'member' | 'viewer') {
    const { page } = suite.watched;
    const company = await suite.app.routedCompany(`+1404558${String(1000 + ++made)}`, null);
    const members = [
      { id: 'al', name: 'Al', phone: NUMBERS.stays },
      { id: 'bea', name: 'Bea', phone: '+12025550121' },
    ];
    const queue = (await company.client.post('/v1/queues', { name: 'Front desk', members, hold_message: 'Please hold.' })).body;
    await company.client.patch(`/v1/numbers/${encodeURIComponent(company.number)}`, { routing: { type: 'queue', queue_id: queue.id } });
    await signInOnPage(page, suite.app, company.tenantId, role);
    await page.getByRole('link', { name: 'Queues' }).click();
    // Off the link: axe would judge its hover colours (Layout's), not this page.
    await page.mouse.move(700, 700);
    await page.getByRole('heading', { name: 'Queues', level: 1 }).waitFor();
    const card = page.getByRole('region', { name: 'Front desk' });
    await card.getByRole('cell', { name: 'Bea', exact: true }).waitFor();
    return { ...company, queue, card };
  }

  it("lets a member switch a member's availability, which sticks after a reload and the Voice API reads; a busy member shows on a call", async () => {
    const { page } = suite.watched;
    const { client, number, queue, card } = await queuesPage('member');
    const bea = () => page.getByRole('region', { name: 'Front desk' }).getByRole('switch', { name: 'Bea available' });
    expect(await bea().isChecked()).to.equal(true);
    await bea().click();
    await eventually(
      'Bea away in the Voice API',
      async () => (await client.get(`/v1/queues/${queue.id}`)).body.members[1].available === false,
      { everyMs: 500 },
    );
    await page.reload();
    await page.getByRole('heading', { name: 'Queues', level: 1 }).waitFor();
    await bea().waitFor();
    expect(await bea().isChecked()).to.equal(false);
    expect(await page.getByRole('switch', { name: 'Al available' }).isChecked()).to.equal(true);

    // A caller put through to Al: the page shows him on that call without a reload.
    const call = (await client.post('/v1/sim/calls', { to: number, from: '+12025553101', lines: ['', ''] })).body;
    await card.getByRole('link', { name: 'On a call' }).waitFor();
    expect(await card.getByRole('link', { name: 'On a call' }).getAttribute('href')).to.equal(`/calls/${call.id}`);
    expect(await accessibilityViolations(page)).to.deep.equal([]);
    await screenshots(page, 'queues');
    expect((await client.post(`/v1/calls/${call.id}/hangup`)).status).to.equal(200);
    await finalResult(client, call.id);
  });

  it('lets a member make a queue, change one, add a member to it and remove one', async () => {
    const { page } = suite.watched;
    const { client } = await queuesPage('member');
    const form = page.getByRole('region', { name: 'New queue' });
    await form.getByLabel('Name').fill('Sales');
    await form.getByRole('button', { name: 'Create queue' }).click();
    const sales = page.getByRole('region', { name: 'Sales' });
    await sales.getByText('No members').waitFor();
    await sales.getByLabel('Member id (optional)').fill('cy');
    await sales.getByLabel('Member name').fill('Cy');
    await sales.getByLabel('Phone').fill('nobody');
    await sales.getByRole('button', { name: 'Add member' }).click();
    await sales
      .getByRole('alert')
      .getByText(/^members\.0\.phone: /)
      .waitFor();
    await sales.getByLabel('Phone').fill('(202) 555-0130');
    await sales.getByRole('button', { name: 'Add member' }).click();
    await sales.getByRole('cell', { name: '+12025550130' }).waitFor();
    const made = (await client.get('/v1/queues')).body.data.find((q: any) => q.name === 'Sales');
    expect(made).to.deep.include({ max_wait_sec: 300, members: [{ id: 'cy', name: 'Cy', phone: '+12025550130', available: true }] });
    // Without an id, the member gets one.
    await sales.getByLabel('Member name').fill('Dee');
    await sales.getByLabel('Phone').fill('(202) 555-0131');
    await sales.getByRole('button', { name: 'Add member' }).click();
    await sales.getByRole('cell', { name: '+12025550131' }).waitFor();
    const dee = (await client.get('/v1/queues')).body.data.find((q: any) => q.name === 'Sales').members[1];
    expect(dee).to.deep.include({ name: 'Dee', phone: '+12025550131' });
    expect(dee.id).to.match(/^mem_[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(await accessibilityViolations(page)).to.deep.equal([]);

    await page.getByRole('button', { name: 'Edit queue Front desk' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit Front desk' });
    expect(await dialog.getByLabel('Hold message').inputValue()).to.equal('Please hold.');
    await dialog.getByLabel('Longest wait (seconds)').fill('60');
    await dialog.getByLabel('Hold message').fill('One moment.');
    expect(await accessibilityViolations(page)).to.deep.equal([]);
    await screenshots(page, 'queues-edit');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByText('Callers wait at most 60 s. On hold they hear: “One moment.”').waitFor();
    expect((await client.get('/v1/queues')).body.data[0]).to.deep.include({
      name: 'Front desk',
      max_wait_sec: 60,
      hold_message: 'One moment.',
    });

    await page.getByRole('region', { name: 'Front desk' }).getByRole('button', { name: 'Remove Al' }).click();
    await page.getByRole('button', { name: 'Really remove Al?' }).click();
    await page.getByRole('region', { name: 'Front desk' }).getByRole('cell', { name: 'Al', exact: true }).waitFor({ state: 'detached' });
    expect((await client.get('/v1/queues')).body.data[0].members.map((m: any) => m.id)).to.deep.equal(['bea']);
  });

  it('shows a viewer the queues and availability with no way to change them', async () => {
    const { page } = suite.watched;
    const { card } = await queuesPage('viewer');
    expect(
      await page
        .getByRole('button')
        .filter({ hasText: /Create queue|Add member|Remove|Delete/ })
        .count(),
    ).to.equal(0);
    expect(await page.getByRole('switch').count()).to.equal(0);
    expect(await card.getByRole('columnheader').allTextContents()).to.deep.equal(['Name', 'Phone', 'Available', 'Now']);
    expect(await card.getByRole('row').nth(2).textContent()).to.equal('Bea+12025550121YesFree');
    expect(await accessibilityViolations(page)).to.deep.equal([]);
  });
});
