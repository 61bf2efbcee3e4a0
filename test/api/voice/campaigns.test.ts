import { expect } from 'chai';
import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { updateTenant } from '../../../pkg/tenants/settings.js';
import { campaignOn, SIGN_IN, startCampaignsApp, type CampaignsApp, type CustomerSystem } from '../../support/campaigns.js';
import type { Client } from '../../support/app.js';

describe('Campaigns: connections, campaigns and runs (DECISIONS.md "Campaigns")', function () {
  this.timeout(60_000);
  let app: CampaignsApp;
  let client: Client;
  let system: CustomerSystem;
  let apiKey: string;
  before(async () => {
    app = await startCampaignsApp();
    ({ client, system, apiKey } = await app.campaignCompany());
  });
  after(() => app?.close());

  describe('POST /v1/connections', () => {
    it('answers 201 with the sign-in header named but never its value, which is sealed at rest and never logged', async () => {
      const res = await client.post('/v1/connections', { name: 'CRM', base_url: system.url, sign_in_header: SIGN_IN });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      expect(res.body).to.deep.include({
        name: 'CRM',
        base_url: system.url,
        list_path: '/campaign/list',
        results_path: '/campaign/results',
      });
      expect(res.body.sign_in_header).to.deep.equal({ name: SIGN_IN.name, value_set: true });
      expect(res.body.id).to.match(/^con_/);
      const read = await client.get(`/v1/connections/${res.body.id}`);
      expect(JSON.stringify(read.body)).to.not.include(SIGN_IN.value);
      const stored = await app.runtime.ctx.db('connections').where({ id: res.body.id }).first();
      expect(stored.sign_in_value).to.be.a('string').and.not.include(SIGN_IN.value);
      expect(app.logs.join('')).to.not.include(SIGN_IN.value);
    });

    it('refuses an address that is not https or not public, or has credentials, a query or a fragment, with 422 invalid_base_url', async () => {
      for (const base_url of [
        'http://crm.example.com',
        'https://10.1.2.3',
        'https://localhost:8443',
        'https://crm:pa55@crm.example.com',
        'https://crm.example.com/api?key=1',
        'https://crm.example.com/#api',
      ]) {
        const res = await client.post('/v1/connections', { name: 'CRM', base_url });
        expect(res.status, base_url).to.equal(422);
        expect(res.body.error.code).to.equal('invalid_base_url');
      }
    });

    it('refuses bad values with 422 invalid_<field> and unknown fields with 400 invalid_json', async () => {
      const cases: [Record<string, unknown>, number, string][] = [
        [{ name: '', base_url: system.url }, 422, 'invalid_name'],
        [{ name: 'x'.repeat(101), base_url: system.url }, 422, 'invalid_name'],
        [{ base_url: system.url }, 422, 'invalid_name'],
        [{ name: 'x' }, 422, 'invalid_base_url'],
        [{ name: 'x', base_url: 'not an address' }, 422, 'invalid_base_url'],
        [{ name: 'x', base_url: system.url, list_path: 'campaign/list' }, 422, 'invalid_list_path'],
        [{ name: 'x', base_url: system.url, list_path: '/list?all=1' }, 422, 'invalid_list_path'],
        [{ name: 'x', base_url: system.url, results_path: '/campaign results' }, 422, 'invalid_results_path'],
        [{ name: 'x', base_url: system.url, sign_in_header: { name: 'Bad Header', value: 'v' } }, 422, 'invalid_sign_in_header'],
        [
          { name: 'x', base_url: system.url, sign_in_header: { name: 'X-Token', value: 'a\r\nX-Injected: 1' } },
          422,
          'invalid_sign_in_header',
        ],
        [{ name: 'x', base_url: system.url, sign_in_header: { name: 'X-Token' } }, 422, 'invalid_sign_in_header'],
        // Headers every request sets itself: the sign-in header would be lost, or break the request.
        ...['User-Agent', 'x-voice-signature', 'Webhook-Id', 'Host', 'Content-Length'].map(
          (name): [Record<string, unknown>, number, string] => [
            { name: 'x', base_url: system.url, sign_in_header: { name, value: 'v' } },
            422,
            'invalid_sign_in_header',
          ],
        ),
        [{ name: 'x', base_url: system.url, password: 'x' }, 400, 'invalid_json'],
      ];
      for (const [body, status, code] of cases) {
        const res = await client.post('/v1/connections', body);
        expect([res.status, res.body.error?.code], JSON.stringify(body)).to.deep.equal([status, code]);
      }
      const connection = (await client.post('/v1/connections', { name: 'CRM', base_url: system.url })).body;
      for (const [body, code] of [
        [{ base_url: 'http://crm.example.com' }, 'invalid_base_url'],
        [{ name: '' }, 'invalid_name'],
        [{ results_path: 'results' }, 'invalid_results_path'],
      ] as const) {
        const res = await client.patch(`/v1/connections/${connection.id}`, body);
        expect([res.status, res.body.error?.code], `PATCH ${JSON.stringify(body)}`).to.deep.equal([422, code]);
      }
      expect((await client.get(`/v1/connections/${connection.id}`)).body).to.deep.equal(connection);
    });

    it('PATCH replaces the sign-in header and DELETE is refused with 409 connection_in_use while a campaign uses it', async () => {
      const campaign = await campaignOn(client, system);
      const patched = await client.patch(`/v1/connections/${campaign.connection_id}`, { sign_in_header: null });
      expect(patched.body.sign_in_header).to.equal(null);
      const refused = await client.request('DELETE', `/v1/connections/${campaign.connection_id}`);
      expect([refused.status, refused.body.error.code]).to.deep.equal([409, 'connection_in_use']);
    });
  });

  describe('POST /v1/campaigns', () => {
    it('answers 201 with the defaults of DECISIONS.md', async () => {
      const campaign = await campaignOn(client, system);
      expect(campaign).to.deep.include({
        calling_hours: { start: '09:00', end: '20:00' },
        max_attempts: 3,
        retry_after_minutes: 120,
        concurrency: 5,
        leave_voicemail: true,
        schedule: null,
        next_start_at: null,
        archived: false,
      });
      expect(campaign.id).to.match(/^cmp_/);
      expect(campaign.agent_id).to.match(/^agt_/);
    });

    it('refuses each bad value with 422 invalid_<field>', async () => {
      const connection = (await client.post('/v1/connections', { name: 'CRM', base_url: system.url })).body.id;
      const other = await app.campaignCompany();
      const foreign = (await other.client.post('/v1/connections', { name: 'CRM', base_url: system.url })).body.id;
      const cases: [Record<string, unknown>, string][] = [
        [{ name: '' }, 'invalid_name'],
        [{ name: 'x'.repeat(101) }, 'invalid_name'],
        [{ connection_id: undefined }, 'invalid_connection_id'],
        [{ task: '' }, 'invalid_task'],
        [{ task: 'x'.repeat(8001) }, 'invalid_task'],
        [
          {
            questions: [
              { key: 'a', question: 'A?' },
              { key: 'a', question: 'Again?' },
            ],
          },
          'invalid_questions',
        ],
        [{ outcomes: [] }, 'invalid_outcomes'],
        [{ calling_hours: { start: '07:30', end: '20:00' } }, 'invalid_calling_hours'],
        [{ calling_hours: { start: '09:00', end: '21:30' } }, 'invalid_calling_hours'],
        [{ calling_hours: { start: '18:00', end: '10:00' } }, 'invalid_calling_hours'],
        [{ max_attempts: 11 }, 'invalid_max_attempts'],
        [{ retry_after_minutes: 10 }, 'invalid_retry_after_minutes'],
        [{ concurrency: 0 }, 'invalid_concurrency'],
        [{ timezone: 'Mars/Olympus' }, 'invalid_timezone'],
        [{ schedule: { days: ['mon', 'mon'], start_time: '10:00', timezone: 'Europe/Berlin' } }, 'invalid_schedule'],
        [{ schedule: { days: ['monday'], start_time: '10:00', timezone: 'Europe/Berlin' } }, 'invalid_schedule'],
        [{ schedule: { days: ['mon'], start_time: '24:00', timezone: 'Europe/Berlin' } }, 'invalid_schedule'],
        [{ schedule: { days: ['mon'], start_time: '10:00', timezone: 'Berlin' } }, 'invalid_schedule'],
        [{ max_attempts: 0 }, 'invalid_max_attempts'],
        [{ max_attempts: 2.5 }, 'invalid_max_attempts'],
        [{ retry_after_minutes: 1441 }, 'invalid_retry_after_minutes'],
        [{ concurrency: 101 }, 'invalid_concurrency'],
        [{ leave_voicemail: 'yes' }, 'invalid_leave_voicemail'],
        [{ greeting: 'x'.repeat(1001) }, 'invalid_greeting'],
        [{ from: '12' }, 'invalid_from'],
        [{ from: '+12025550199' }, 'invalid_from'],
        [{ agent_id: 'agt_00000000000000000000000000' }, 'invalid_agent_id'],
        [{ connection_id: foreign }, 'invalid_connection_id'],
      ];
      const campaign = (await client.post('/v1/campaigns', { name: 'C', connection_id: connection })).body;
      for (const [fields, code] of cases) {
        const res = await client.post('/v1/campaigns', { name: 'C', connection_id: connection, ...fields });
        expect([res.status, res.body.error?.code], JSON.stringify(fields)).to.deep.equal([422, code]);
        if (fields.connection_id === undefined) continue;
        const patched = await client.patch(`/v1/campaigns/${campaign.id}`, fields);
        expect([patched.status, patched.body.error?.code], `PATCH ${JSON.stringify(fields)}`).to.deep.equal([422, code]);
      }
      expect((await client.get(`/v1/campaigns/${campaign.id}`)).body).to.deep.equal(campaign);
    });

    it("keeps the next scheduled start in the schedule's timezone", async () => {
      const campaign = await campaignOn(client, system, {
        schedule: { days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'], start_time: '10:00', timezone: 'Asia/Kolkata' },
      });
      expect(new Date(campaign.next_start_at).toISOString()).to.match(/T04:30:00\.000Z$/);
    });

    it('answers 403 module_off naming the missing feature', async () => {
      const company = await app.company();
      await updateTenant(app.runtime.ctx, company.tenantId, { features: ['campaigns'] });
      const res = await company.client.get('/v1/campaigns');
      expect([res.status, res.body.error.code]).to.deep.equal([403, 'module_off']);
      expect(res.body.error.message).to.include('ai_agents');
      const none = await (await app.company()).client.post('/v1/connections', { name: 'x', base_url: system.url });
      expect(none.body.error.message).to.include('campaigns');
    });
  });

  describe('runs', () => {
    it('POST /v1/campaigns/{id}/runs answers 202 with the run; a second answers 409 run_active; a test run may run beside it', async () => {
      const campaign = await campaignOn(client, system);
      const first = await client.post(`/v1/campaigns/${campaign.id}/runs`, {});
      expect(first.status).to.equal(202);
      expect(first.body).to.deep.include({ campaign_id: campaign.id, test: false, status: 'running', error: null, results_not_taken: 0 });
      expect(first.body.contacts).to.deep.equal({ total: 0, done: 0, no_answer: 0, skipped: 0, pending: 0, unfinished: 0 });
      const second = await client.post(`/v1/campaigns/${campaign.id}/runs`, {});
      expect([second.status, second.body.error.code]).to.deep.equal([409, 'run_active']);
      const test = await client.post(`/v1/campaigns/${campaign.id}/runs`, { test: true, test_number: '+12025550110' });
      expect(test.status).to.equal(202);
      expect(test.body.test).to.equal(true);
      const archive = await client.request('DELETE', `/v1/campaigns/${campaign.id}`);
      expect([archive.status, archive.body.error.code]).to.deep.equal([409, 'run_active']);
      const listed = await client.get(`/v1/campaigns/${campaign.id}/runs`);
      expect(listed.body.data.map((r: any) => r.id)).to.deep.equal([test.body.id, first.body.id]);
    });

    it('refuses a test run without a number, or with one that is not a number, with 422 invalid_test_number', async () => {
      const campaign = await campaignOn(client, system);
      for (const body of [{ test: true }, { test: true, test_number: 'call me' }, { test_number: '+12025550110' }]) {
        const res = await client.post(`/v1/campaigns/${campaign.id}/runs`, body);
        expect([res.status, res.body.error?.code], JSON.stringify(body)).to.deep.equal([422, 'invalid_test_number']);
      }
    });

    it('POST /v1/campaign-runs/{id}/stop with no body answers 200 with the run stopped, then 409 run_ended; another account sees 404', async () => {
      const campaign = await campaignOn(client, system);
      const run = (await client.post(`/v1/campaigns/${campaign.id}/runs`, {})).body;
      // As `curl -X POST` sends it: no body and no Content-Type.
      const res = await fetch(`${app.url}/v1/campaign-runs/${run.id}/stop`, {
        method: 'POST',
        headers: { authorization: `Bearer ${apiKey}` },
      });
      const stopped = { status: res.status, body: await res.json() };
      expect([stopped.status, stopped.body.status], JSON.stringify(stopped.body)).to.deep.equal([200, 'stopped']);
      const again = await client.post(`/v1/campaign-runs/${run.id}/stop`, {});
      expect([again.status, again.body.error.code]).to.deep.equal([409, 'run_ended']);
      const other = await app.campaignCompany();
      expect((await other.client.get(`/v1/campaign-runs/${run.id}`)).status).to.equal(404);
      expect((await client.request('DELETE', `/v1/campaigns/${campaign.id}`)).body.archived).to.equal(true);
    });
  });

  describe('MCP tools', () => {
    it('list_campaigns, start_campaign_run, get_campaign_run and stop_campaign_run act as the REST routes', async () => {
      const campaign = await campaignOn(client, system, { name: 'By MCP' });
      const mcp = new McpClient({ name: 'Test Agent', version: '1.0.0' });
      await mcp.connect(
        new StreamableHTTPClientTransport(new URL(`${app.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${apiKey}` } } }),
      );
      try {
        const value = async (name: string, args: Record<string, unknown>) => {
          const result: any = await mcp.callTool({ name, arguments: args });
          expect(result.isError, JSON.stringify(result.content)).to.not.equal(true);
          return result.structuredContent;
        };
        expect((await value('list_campaigns', {})).data.map((c: any) => c.id)).to.include(campaign.id);
        const run = await value('start_campaign_run', { campaign_id: campaign.id });
        expect(run).to.deep.include({ campaign_id: campaign.id, status: 'running' });
        expect(await value('get_campaign_run', { run_id: run.id })).to.deep.equal((await client.get(`/v1/campaign-runs/${run.id}`)).body);
        expect((await value('stop_campaign_run', { run_id: run.id })).status).to.equal('stopped');
        const refused: any = await mcp.callTool({ name: 'stop_campaign_run', arguments: { run_id: run.id } });
        expect(refused.structuredContent.error.code).to.equal('run_ended');
        const badNumber: any = await mcp.callTool({
          name: 'start_campaign_run',
          arguments: { campaign_id: campaign.id, test: true, test_number: 'call me' },
        });
        expect(badNumber.structuredContent.error.code).to.equal('invalid_test_number');
      } finally {
        await mcp.close();
      }
    });

    it('answer module_off naming the campaigns feature to an account with MCP but not campaigns', async () => {
      const company = await app.company();
      await updateTenant(app.runtime.ctx, company.tenantId, { features: ['voice_api', 'ai_agents'] });
      const mcp = new McpClient({ name: 'Test Agent', version: '1.0.0' });
      await mcp.connect(
        new StreamableHTTPClientTransport(new URL(`${app.url}/mcp`), {
          requestInit: { headers: { authorization: `Bearer ${company.apiKey}` } },
        }),
      );
      try {
        for (const [name, args] of [
          ['list_campaigns', {}],
          ['start_campaign_run', { campaign_id: 'cmp_x' }],
          ['get_campaign_run', { run_id: 'run_x' }],
          ['stop_campaign_run', { run_id: 'run_x' }],
        ] as const) {
          const refused: any = await mcp.callTool({ name, arguments: args });
          expect([refused.isError, refused.structuredContent.error.code], name).to.deep.equal([true, 'module_off']);
          expect(refused.structuredContent.error.message, name).to.include('campaigns');
        }
      } finally {
        await mcp.close();
      }
    });
  });
});
