import { expect } from 'chai';
import { startTestApp, type TestApp } from '../../support/app.js';
import { signedInUser } from '../../support/console.js';

const transfer = { type: 'transfer', to: '+12025550199' };

describe('Console numbers and routing', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp();
  });
  after(async () => app.close());

  let made = 0;
  /** An account with a number of its own (a number belongs to one account only). */
  async function account() {
    const number = `+1404555${String(1000 + ++made)}`;
    const company = await app.company({ numbers: [number] });
    return { ...company, number, owner: await signedInUser(app, company.tenantId, 'owner') };
  }

  it("lists the account's numbers with their routing, as GET /v1/numbers does, to every role", async () => {
    const { tenantId, client, number } = await account();
    await client.patch(`/v1/numbers/${encodeURIComponent(number)}`, { name: 'Front desk', routing: transfer });
    const api = await client.get('/v1/numbers');
    for (const role of ['admin', 'member', 'viewer'] as const) {
      const { browser } = await signedInUser(app, tenantId, role);
      const res = await browser.get('/console/api/numbers');
      expect(res.status, role).to.equal(200);
      expect(res.body, role).to.deep.equal(api.body);
    }
    expect(api.body.data[0]).to.include({ number, name: 'Front desk' });
  });

  it('names and routes a number for a member, audited, and the Voice API reads the change', async () => {
    const { tenantId, client, number, owner } = await account();
    const member = await signedInUser(app, tenantId, 'member');
    const res = await member.browser.patch(`/console/api/numbers/${encodeURIComponent(number)}`, { name: 'Sales', routing: transfer });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body).to.include({ number, name: 'Sales' });
    expect(res.body.routing).to.deep.equal(transfer);
    expect((await client.get(`/v1/numbers/${encodeURIComponent(number)}`)).body).to.deep.equal(res.body);

    const entries = (await owner.browser.get('/console/api/audit')).body.entries;
    expect(entries[0]).to.deep.include({ action: 'number.updated', target: number, details: { fields: ['name', 'routing'] } });
    expect(entries[0].user).to.deep.include({ id: member.id });
  });

  it('refuses a viewer with 403, changing nothing', async () => {
    const { tenantId, client, number } = await account();
    const { browser } = await signedInUser(app, tenantId, 'viewer');
    const res = await browser.patch(`/console/api/numbers/${encodeURIComponent(number)}`, { name: 'Nope' });
    expect([res.status, res.body.error.code]).to.deep.equal([403, 'forbidden']);
    expect((await client.get('/v1/numbers')).body.data[0].name).to.equal('');
  });

  it("answers 404 for another account's number and for no number at all, changing nothing", async () => {
    const mine = await account();
    const theirs = await account();
    for (const path of [theirs.number, 'not-a-number', '+12025550100']) {
      const res = await mine.owner.browser.patch(`/console/api/numbers/${encodeURIComponent(path)}`, { name: 'Taken' });
      expect([res.status, res.body.error.code], path).to.deep.equal([404, 'not_found']);
    }
    expect((await theirs.client.get('/v1/numbers')).body.data[0].name).to.equal('');
    expect((await mine.owner.browser.get('/console/api/numbers')).body.data.map((n: any) => n.number)).to.deep.equal([mine.number]);
  });

  it('answers 400 for an unknown field and 422 for a bad routing step, changing nothing and auditing nothing', async () => {
    const { client, number, owner } = await account();
    const path = `/console/api/numbers/${encodeURIComponent(number)}`;
    const unknown = await owner.browser.patch(path, { name: 'X', colour: 'blue' });
    const bad = await owner.browser.patch(path, { routing: { type: 'transfer' } });
    expect([unknown.status, unknown.body.error.code]).to.deep.equal([400, 'invalid_json']);
    expect([bad.status, bad.body.error.code]).to.deep.equal([422, 'invalid_routing']);
    expect((await client.get('/v1/numbers')).body.data[0]).to.include({ name: '', routing: null });
    expect((await owner.browser.get('/console/api/audit')).body.entries.filter((e: any) => e.action === 'number.updated')).to.deep.equal(
      [],
    );
  });
});
