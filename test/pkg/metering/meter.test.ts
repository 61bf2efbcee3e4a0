import { expect } from 'chai';
import { UsageMeter } from '../../../pkg/metering/meter.js';
import { startTestApp, type TestApp } from '../../support/app.js';

describe('UsageMeter', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp();
  });
  after(async () => app.close());

  const requestsOf = async (tenantId: string) =>
    (await app.runtime.ctx.db('api_usage').where({ tenant_id: tenantId }).select('requests')).map((r) => Number(r.requests));

  it("writes every other account's counts when the database refuses one account's (deleted meanwhile), and drops only that one", async () => {
    const { db, clock, log } = app.runtime.ctx;
    // Flushed only when the test says.
    const meter = new UsageMeter(db, clock, log, 3_600_000);
    const kept = await app.company();
    const deleted = await app.company();
    const count = (company: typeof kept) => meter.countRequest({ tenantId: company.tenantId, keyId: company.keyId, channel: 'api' }, false);
    count(deleted);
    count(kept);
    await db('tenants').where({ id: deleted.tenantId }).del();

    await meter.flush();
    expect(await requestsOf(kept.tenantId)).to.deep.equal([1]);
    count(kept);
    await meter.close();
    expect(await requestsOf(kept.tenantId)).to.deep.equal([2]);
    expect(app.logs.filter((line) => line.includes('usage row refused by the database; dropped'))).to.have.length(1);
  });
});
