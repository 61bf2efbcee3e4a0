import { expect } from 'chai';
import { startTestApp, type TestApp } from '../../support/app.js';
import { signedInUser } from '../../support/console.js';
import { manualClock } from '../../support/triggers.js';
import { addCredits } from '../../../pkg/store/credits.js';
import { updateTenant } from '../../../pkg/tenants/settings.js';

describe('Console usage and overview', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp({ manualClock: true });
    manualClock(app).set(new Date('2031-03-14T12:00:00Z'));
  });
  after(async () => app.close());

  /** An account whose API key made 3 requests and placed 1 call on 2031-03-14, and spent 2.5 credits on each of two days. */
  async function busyAccount() {
    const company = await app.company({ credits: 100 });
    await updateTenant(app.runtime.ctx, company.tenantId, { features: ['voice_api'] });
    const keys = `/v1/tenants/${company.tenantId}/api-keys`;
    expect((await company.client.get(keys)).status).to.equal(200);
    const placed = await company.client.post('/v1/calls', { to: '+12025550110', task: 'Confirm the delivery' });
    expect(placed.status, JSON.stringify(placed.body)).to.equal(201);
    expect((await company.client.get(keys)).status).to.equal(200);
    // What a turn's charge writes (pkg/credits/charge.ts): an 'api' entry of the credits spent.
    await addCredits(app.runtime.ctx, company.tenantId, -2.5, 'api', 'turn_a');
    manualClock(app).set(new Date('2031-03-13T09:00:00Z'));
    await addCredits(app.runtime.ctx, company.tenantId, -1.25, 'api', 'turn_b');
    manualClock(app).set(new Date('2031-03-14T12:00:00Z'));
    return company;
  }

  describe('GET /console/api/usage', () => {
    it("answers the Voice API's report of the session's account, to every role", async () => {
      const company = await busyAccount();
      const api = await company.client.get('/v1/reports/api-usage?from=2031-03-01&to=2031-03-14&group_by=day,key');
      for (const role of ['owner', 'admin', 'member', 'viewer'] as const) {
        const { browser } = await signedInUser(app, company.tenantId, role);
        const res = await browser.get('/console/api/usage?from=2031-03-01&to=2031-03-14&group_by=day,key');
        expect(res.status, role).to.equal(200);
        expect(res.body, role).to.deep.equal(api.body);
      }
      // The API's own report request is one of its requests.
      expect(api.body.data).to.deep.equal([
        { day: '2031-03-14', key_id: company.keyId, requests: 4, requests_over_limit: 0, calls_placed: 1 },
      ]);
    });

    it("counts only the session's account, and its console requests are not metered", async () => {
      const company = await busyAccount();
      const other = await busyAccount();
      const { browser } = await signedInUser(app, company.tenantId, 'viewer');
      for (let i = 0; i < 3; i++) await browser.get('/console/api/usage');
      const res = await browser.get(`/console/api/usage?group_by=day`);
      expect(res.body.data).to.deep.equal([{ day: '2031-03-14', requests: 3, requests_over_limit: 0, calls_placed: 1 }]);
      expect((await other.client.get('/v1/reports/api-usage')).body.data[0].requests).to.equal(4);
    });

    it('answers 422 for a bad date, range or grouping and 400 for an unknown parameter, in the error shape', async () => {
      const { tenantId } = await app.company();
      const { browser } = await signedInUser(app, tenantId, 'viewer');
      const cases: [string, number, string][] = [
        ['from=2031-13-01', 422, 'invalid_from'],
        ['from=2031-03-14&to=2031-03-01', 422, 'invalid_from'],
        ['group_by=day,planet', 422, 'invalid_group_by'],
        ['tenant=tnt_other', 400, 'invalid_json'],
      ];
      for (const [query, status, code] of cases) {
        for (const path of ['/console/api/usage', '/console/api/usage.csv']) {
          const res = await browser.get(`${path}?${query}`);
          expect([res.status, res.body.error?.code], `${path}?${query}`).to.deep.equal([status, code]);
        }
      }
    });

    it('refuses a visitor without a session with 401', async () => {
      for (const path of ['/console/api/usage', '/console/api/usage.csv', '/console/api/overview']) {
        const res = await fetch(`${app.url}${path}`);
        expect(res.status, path).to.equal(401);
        expect(((await res.json()) as any).error.code).to.equal('not_signed_in');
      }
    });
  });

  describe('GET /console/api/usage.csv', () => {
    it("downloads the same rows as the Voice API's CSV, as an attachment", async () => {
      const company = await busyAccount();
      const { browser } = await signedInUser(app, company.tenantId, 'viewer');
      const query = 'from=2031-03-01&to=2031-03-14&group_by=day,channel';
      const api = await company.client.request('GET', `/v1/reports/api-usage.csv?${query}`);
      const res = await browser.get(`/console/api/usage.csv?${query}`);
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.equal('text/csv; charset=utf-8');
      expect(res.headers.get('content-disposition')).to.equal('attachment; filename="api-usage.csv"');
      expect(res.body).to.equal('day,channel,requests,requests_over_limit,calls_placed\r\n2031-03-14,api,4,0,1\r\n');
      expect(res.body).to.equal(api.body);
    });
  });

  describe('GET /console/api/overview', () => {
    it("shows the last 30 days by day with credits spent, the account's limits and its jobs by status", async () => {
      const company = await busyAccount();
      const { browser } = await signedInUser(app, company.tenantId, 'viewer');
      const res = await browser.get('/console/api/overview');
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect([res.body.from, res.body.to, res.body.days.length]).to.deep.equal(['2031-02-13', '2031-03-14', 30]);
      expect(res.body.days.slice(-3)).to.deep.equal([
        { day: '2031-03-12', requests: 0, calls_placed: 0, credits_used: 0 },
        { day: '2031-03-13', requests: 0, calls_placed: 0, credits_used: 1.25 },
        { day: '2031-03-14', requests: 3, calls_placed: 1, credits_used: 2.5 },
      ]);
      // How close it is: its key's 3 requests and 1 placement this minute, the placed call holding a slot.
      expect(res.body.limits).to.deep.equal({
        requests_per_minute: { limit: 300, busiest_key_this_minute: 3 },
        max_concurrent_calls: { limit: 10, live: 1 },
        calls_per_minute: { limit: 30, this_minute: 1 },
        max_pending_jobs: { limit: 3, most_pending_in_one_conversation: 0 },
        max_concurrent_jobs: { limit: null, running: 0 },
        calls_per_number: { per_day: 2, per_week: 5 },
        allowed_countries: ['US'],
        credits: { balance: 96.25, min_credits: 1, billing: 'prepaid' },
      });
      expect(res.body.jobs_by_status).to.deep.equal({
        queued: 0,
        running: 0,
        waiting: 0,
        waiting_for_reply: 0,
        succeeded: 0,
        failed: 0,
        expired: 0,
        cancelled: 0,
      });
    });
  });
});
