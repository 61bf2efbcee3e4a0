import { expect } from 'chai';
import { updateTenant } from '../../../pkg/tenants/settings.js';
import { SIGN_IN, startCampaignsApp, type CampaignsApp } from '../../support/campaigns.js';
import { signedInUser, type ConsoleBrowser } from '../../support/console.js';

describe('Console campaigns, runs and connections', function () {
  this.timeout(60_000);
  let app: CampaignsApp;
  before(async () => {
    app = await startCampaignsApp();
  });
  after(() => app?.close());

  /** An account with the campaign features, its owner and member signed in, a connection and a campaign made over the Voice API. */
  async function account() {
    const company = await app.campaignCompany();
    const owner = await signedInUser(app, company.tenantId, 'owner');
    const member = await signedInUser(app, company.tenantId, 'member');
    const connection = (
      await company.client.post('/v1/connections', { name: 'CRM', base_url: company.system.url, sign_in_header: SIGN_IN })
    ).body;
    const campaign = (await company.client.post('/v1/campaigns', { name: 'Renewals', connection_id: connection.id, task: 'Renewal call' }))
      .body;
    return { ...company, owner, member, connection, campaign };
  }
  const auditOf = async (owner: { browser: ConsoleBrowser }) => (await owner.browser.get('/console/api/audit')).body.entries as any[];

  it('serves every role what the Voice API answers for connections, campaigns, runs and results, never the sign-in header value', async () => {
    const { tenantId, client, connection, campaign } = await account();
    const run = (await client.post(`/v1/campaigns/${campaign.id}/runs`, {})).body;
    const pairs: [string, string][] = [
      ['/console/api/connections', '/v1/connections'],
      [`/console/api/connections/${connection.id}`, `/v1/connections/${connection.id}`],
      ['/console/api/campaigns', '/v1/campaigns'],
      [`/console/api/campaigns/${campaign.id}`, `/v1/campaigns/${campaign.id}`],
      [`/console/api/campaigns/${campaign.id}/runs`, `/v1/campaigns/${campaign.id}/runs`],
      [`/console/api/campaign-runs/${run.id}`, `/v1/campaign-runs/${run.id}`],
      [`/console/api/campaign-runs/${run.id}/results`, `/v1/campaign-runs/${run.id}/results`],
    ];
    for (const role of ['viewer', 'member', 'admin'] as const) {
      const { browser } = await signedInUser(app, tenantId, role);
      for (const [mine, voice] of pairs) {
        const res = await browser.get(mine);
        expect(res.status, `${role} ${mine}`).to.equal(200);
        expect(res.body, `${role} ${mine}`).to.deep.equal((await client.get(voice)).body);
        expect(JSON.stringify(res.body)).to.not.include(SIGN_IN.value);
      }
      const agents = await browser.get('/console/api/campaign-agents');
      expect(
        agents.body.data.map((a: any) => a.id),
        role,
      ).to.include(campaign.agent_id);
    }
  });

  it('lets a member create and change a connection, its secret write-only and only field names audited', async () => {
    const { client, member, owner, system } = await account();
    const made = await member.browser.post('/console/api/connections', {
      name: 'Billing',
      base_url: system.url,
      sign_in_header: { name: 'X-Key', value: 'sk_console_secret_1' },
    });
    expect(made.status, JSON.stringify(made.body)).to.equal(201);
    expect(made.body.sign_in_header).to.deep.equal({ name: 'X-Key', value_set: true });
    const changed = await member.browser.patch(`/console/api/connections/${made.body.id}`, {
      name: 'Billing 2',
      sign_in_header: { name: 'X-Key', value: 'sk_console_secret_2' },
    });
    expect(changed.status, JSON.stringify(changed.body)).to.equal(200);
    expect(changed.body).to.deep.include({ name: 'Billing 2', sign_in_header: { name: 'X-Key', value_set: true } });
    expect((await client.get(`/v1/connections/${made.body.id}`)).body).to.deep.equal(changed.body);

    const entries = await auditOf(owner);
    expect(entries.slice(0, 2).map((e) => [e.action, e.target, e.details, e.user.id])).to.deep.equal([
      ['connection.updated', made.body.id, { fields: ['name', 'sign_in_header'] }, member.id],
      ['connection.created', made.body.id, { fields: ['base_url', 'name', 'sign_in_header'] }, member.id],
    ]);
    const everything =
      JSON.stringify([made.body, changed.body, entries, (await member.browser.get('/console/api/connections')).body]) + app.logs.join('');
    expect(everything).to.not.include('sk_console_secret');

    const removed = await member.browser.delete(`/console/api/connections/${made.body.id}`);
    expect(removed.status).to.equal(200);
    expect((await client.get(`/v1/connections/${made.body.id}`)).status).to.equal(404);
    expect((await auditOf(owner))[0]).to.deep.include({ action: 'connection.deleted', target: made.body.id });
  });

  it('lets a member create and edit a campaign, run it now, start a test run and stop a run, each audited', async () => {
    const { client, member, owner, connection } = await account();
    const made = await member.browser.post('/console/api/campaigns', {
      name: 'Winback',
      connection_id: connection.id,
      task: 'Win them back',
      max_attempts: 2,
    });
    expect(made.status, JSON.stringify(made.body)).to.equal(201);
    expect(made.body).to.deep.include({ name: 'Winback', connection_id: connection.id, max_attempts: 2, concurrency: 5 });
    const edited = await member.browser.patch(`/console/api/campaigns/${made.body.id}`, {
      calling_hours: { start: '10:00', end: '18:00' },
      schedule: { days: ['mon', 'wed'], start_time: '10:30', timezone: 'Europe/Berlin' },
    });
    expect(edited.status, JSON.stringify(edited.body)).to.equal(200);
    expect(edited.body.next_start_at).to.be.a('string');
    expect((await client.get(`/v1/campaigns/${made.body.id}`)).body).to.deep.equal(edited.body);

    const run = await member.browser.post(`/console/api/campaigns/${made.body.id}/runs`, {});
    expect(run.status, JSON.stringify(run.body)).to.equal(202);
    expect(run.body).to.include({ campaign_id: made.body.id, test: false, status: 'running' });
    const again = await member.browser.post(`/console/api/campaigns/${made.body.id}/runs`, {});
    expect([again.status, again.body.error.code]).to.deep.equal([409, 'run_active']);
    const test = await member.browser.post(`/console/api/campaigns/${made.body.id}/runs`, { test: true, test_number: '+12025550110' });
    expect(test.status, JSON.stringify(test.body)).to.equal(202);
    expect(test.body.test).to.equal(true);
    const stopped = await member.browser.post(`/console/api/campaign-runs/${run.body.id}/stop`, {});
    expect(stopped.status, JSON.stringify(stopped.body)).to.equal(200);
    expect(stopped.body.status).to.equal('stopped');
    expect((await client.get(`/v1/campaign-runs/${run.body.id}`)).body.status).to.equal('stopped');
    const ended = await member.browser.post(`/console/api/campaign-runs/${run.body.id}/stop`, {});
    expect([ended.status, ended.body.error.code]).to.deep.equal([409, 'run_ended']);
    await member.browser.post(`/console/api/campaign-runs/${test.body.id}/stop`, {});
    const archived = await member.browser.delete(`/console/api/campaigns/${made.body.id}`);
    expect(archived.body.archived).to.equal(true);

    const entries = (await auditOf(owner)).slice(0, 7).reverse();
    expect(entries.map((e) => [e.action, e.target, e.details])).to.deep.equal([
      ['campaign.created', made.body.id, { fields: ['connection_id', 'max_attempts', 'name', 'task'] }],
      ['campaign.updated', made.body.id, { fields: ['calling_hours', 'schedule'] }],
      ['campaign.run_started', run.body.id, { campaign_id: made.body.id, test: false }],
      ['campaign.run_started', test.body.id, { campaign_id: made.body.id, test: true }],
      ['campaign.run_stopped', run.body.id, { campaign_id: made.body.id }],
      ['campaign.run_stopped', test.body.id, { campaign_id: made.body.id }],
      ['campaign.archived', made.body.id, {}],
    ]);
    expect(entries.every((e) => e.user.id === member.id)).to.equal(true);
  });

  it('refuses a viewer every change with 403, changing and auditing nothing', async () => {
    const { tenantId, client, owner, connection, campaign, system } = await account();
    const run = (await client.post(`/v1/campaigns/${campaign.id}/runs`, {})).body;
    const { browser } = await signedInUser(app, tenantId, 'viewer');
    const before = await auditOf(owner);
    const changes: [string, string, unknown][] = [
      ['POST', '/console/api/connections', { name: 'X', base_url: system.url }],
      ['PATCH', `/console/api/connections/${connection.id}`, { name: 'X' }],
      ['DELETE', `/console/api/connections/${connection.id}`, undefined],
      ['POST', '/console/api/campaigns', { name: 'X', connection_id: connection.id }],
      ['PATCH', `/console/api/campaigns/${campaign.id}`, { name: 'X' }],
      ['DELETE', `/console/api/campaigns/${campaign.id}`, undefined],
      ['POST', `/console/api/campaigns/${campaign.id}/runs`, { test: true, test_number: '+12025550110' }],
      ['POST', `/console/api/campaign-runs/${run.id}/stop`, {}],
    ];
    for (const [method, path, body] of changes) {
      const res = await browser.request(method, path, body);
      expect([res.status, res.body.error.code], `${method} ${path}`).to.deep.equal([403, 'forbidden']);
    }
    expect((await client.get('/v1/connections')).body.data.map((c: any) => c.name)).to.deep.equal(['CRM']);
    expect((await client.get('/v1/campaigns')).body.data.map((c: any) => [c.name, c.archived])).to.deep.equal([['Renewals', false]]);
    expect((await client.get(`/v1/campaigns/${campaign.id}/runs`)).body.data.map((r: any) => r.status)).to.deep.equal(['running']);
    expect(await auditOf(owner)).to.deep.equal(before);
  });

  it("answers 404 for another account's connections, campaigns and runs, reading or changing, and changes nothing", async () => {
    const mine = await account();
    const theirs = await account();
    const run = (await theirs.client.post(`/v1/campaigns/${theirs.campaign.id}/runs`, {})).body;
    const tries: [string, string, unknown][] = [
      ['GET', `/console/api/connections/${theirs.connection.id}`, undefined],
      ['PATCH', `/console/api/connections/${theirs.connection.id}`, { name: 'Mine' }],
      ['DELETE', `/console/api/connections/${theirs.connection.id}`, undefined],
      ['GET', `/console/api/campaigns/${theirs.campaign.id}`, undefined],
      ['PATCH', `/console/api/campaigns/${theirs.campaign.id}`, { name: 'Mine' }],
      ['DELETE', `/console/api/campaigns/${theirs.campaign.id}`, undefined],
      ['GET', `/console/api/campaigns/${theirs.campaign.id}/runs`, undefined],
      ['POST', `/console/api/campaigns/${theirs.campaign.id}/runs`, { test: true, test_number: '+12025550110' }],
      ['GET', `/console/api/campaign-runs/${run.id}`, undefined],
      ['GET', `/console/api/campaign-runs/${run.id}/results`, undefined],
      ['POST', `/console/api/campaign-runs/${run.id}/stop`, {}],
      ['GET', '/console/api/campaigns/cmp_nothing', undefined],
    ];
    for (const [method, path, body] of tries) {
      const res = await mine.member.browser.request(method, path, body);
      expect([res.status, res.body.error.code], `${method} ${path}`).to.deep.equal([404, 'not_found']);
    }
    // Their connection is not mine to point a campaign at either.
    const borrowed = await mine.member.browser.post('/console/api/campaigns', { name: 'Borrowed', connection_id: theirs.connection.id });
    expect([borrowed.status, borrowed.body.error.code]).to.deep.equal([422, 'invalid_connection_id']);
    expect((await theirs.client.get(`/v1/connections/${theirs.connection.id}`)).body.name).to.equal('CRM');
    expect((await theirs.client.get(`/v1/campaigns/${theirs.campaign.id}`)).body).to.include({ name: 'Renewals', archived: false });
    expect((await theirs.client.get(`/v1/campaign-runs/${run.id}`)).body.status).to.equal('running');
    expect((await theirs.client.get(`/v1/campaigns/${theirs.campaign.id}/runs`)).body.data).to.have.length(1);
    const lists = [
      (await mine.member.browser.get('/console/api/connections')).body,
      (await mine.member.browser.get('/console/api/campaigns')).body,
    ];
    expect(lists.map((l) => l.data.map((x: any) => x.id))).to.deep.equal([[mine.connection.id], [mine.campaign.id]]);
  });

  it('answers bad input with 400 or 422 in the Voice API error shape, changing and auditing nothing', async () => {
    const { client, member, owner, connection, campaign } = await account();
    const run = (await client.post(`/v1/campaigns/${campaign.id}/runs`, {})).body;
    const before = await auditOf(owner);
    const cases: [string, string, unknown, number, string][] = [
      ['POST', '/console/api/connections', { name: 'X', base_url: 'http://crm.example.com' }, 422, 'invalid_base_url'],
      ['POST', '/console/api/connections', { name: 'X', base_url: 'https://crm.example.com', password: 'p' }, 400, 'invalid_json'],
      ['PATCH', `/console/api/connections/${connection.id}`, { sign_in_header: { name: 'X-Token' } }, 422, 'invalid_sign_in_header'],
      ['POST', '/console/api/campaigns', { name: 'X' }, 422, 'invalid_connection_id'],
      [
        'POST',
        '/console/api/campaigns',
        { name: 'X', connection_id: connection.id, calling_hours: { start: '07:00', end: '20:00' } },
        422,
        'invalid_calling_hours',
      ],
      ['PATCH', `/console/api/campaigns/${campaign.id}`, { max_attempts: 11 }, 422, 'invalid_max_attempts'],
      ['PATCH', `/console/api/campaigns/${campaign.id}`, { colour: 'red' }, 400, 'invalid_json'],
      [
        'PATCH',
        `/console/api/campaigns/${campaign.id}`,
        { schedule: { days: ['someday'], start_time: '10:00', timezone: 'UTC' } },
        422,
        'invalid_schedule',
      ],
      ['POST', `/console/api/campaigns/${campaign.id}/runs`, { test: true }, 422, 'invalid_test_number'],
      ['POST', `/console/api/campaigns/${campaign.id}/runs`, { test: true, test_number: 'not a number' }, 422, 'invalid_test_number'],
      ['GET', `/console/api/campaign-runs/${run.id}/results?cursor=abc`, undefined, 422, 'invalid_cursor'],
      ['GET', `/console/api/campaign-runs/${run.id}/results?limit=0`, undefined, 422, 'invalid_limit'],
      ['POST', `/console/api/campaign-runs/${run.id}/stop`, { now: true }, 400, 'invalid_json'],
    ];
    for (const [method, path, body, status, code] of cases) {
      const res = await member.browser.request(method, path, body);
      expect([res.status, res.body.error?.code], `${method} ${path} ${JSON.stringify(body)}`).to.deep.equal([status, code]);
      expect(res.body.error.message).to.be.a('string');
    }
    expect((await client.get(`/v1/connections/${connection.id}`)).body).to.deep.equal(connection);
    expect((await client.get(`/v1/campaigns/${campaign.id}`)).body).to.deep.equal(campaign);
    expect((await client.get(`/v1/campaigns/${campaign.id}/runs`)).body.data.map((r: any) => [r.id, r.status])).to.deep.equal([
      [run.id, 'running'],
    ]);
    expect(await auditOf(owner)).to.deep.equal(before);
  });

  it('answers 403 module_off, as the Voice API does, to an account without campaigns', async () => {
    const { tenantId, member } = await account();
    await updateTenant(app.runtime.ctx, tenantId, { features: ['voice_api', 'ai_agents'] });
    for (const path of ['/console/api/campaigns', '/console/api/connections', '/console/api/campaign-agents']) {
      const res = await member.browser.get(path);
      expect([res.status, res.body.error.code], path).to.deep.equal([403, 'module_off']);
      expect(res.body.error.message).to.include('campaigns');
    }
  });

  it('asks for a session: 401 without one', async () => {
    const { client } = await account();
    const anonymous = await fetch(`${app.url}/console/api/campaigns`);
    expect(anonymous.status).to.equal(401);
    expect((await client.get('/v1/campaigns')).status).to.equal(200);
  });
});
