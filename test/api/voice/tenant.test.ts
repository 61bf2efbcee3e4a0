import { expect } from 'chai';
import { startTestApp, type TestApp } from '../../support/app.js';
import { adminCli } from '../../support/cli.js';
import { expectVoiceError } from '../../support/errors.js';
import { agentRef } from '../../../pkg/ids.js';

const KEY_FIELDS = ['id', 'name', 'prefix', 'created_at', 'last_used_at', 'revoked', 'revoked_at'];

describe('Voice API keys and settings', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp();
  });
  after(async () => app.close());

  describe('POST /v1/tenants/{account_id}/api-keys', () => {
    it('answers 201 with the new key, shown only here, and the key works at once', async () => {
      const { client, tenantId } = await app.company();
      const res = await client.post(`/v1/tenants/${tenantId}/api-keys`, { name: 'CRM integration' });

      expect(res.status).to.equal(201);
      expect(res.body).to.have.all.keys('id', 'name', 'prefix', 'key', 'created_at');
      expect(res.body.id).to.match(/^key_[0-9A-Z]{26}$/);
      expect(res.body.name).to.equal('CRM integration');
      expect(res.body.key.startsWith(res.body.prefix)).to.equal(true);
      expect(Date.parse(res.body.created_at)).to.be.closeTo(Date.now(), 60_000);
      const listed = await app.client(res.body.key).get(`/v1/tenants/${tenantId}/api-keys`);
      expect(listed.status).to.equal(200);
      expect(JSON.stringify(listed.body)).not.to.include(res.body.key);
    });

    it('answers 422 invalid_name without a name, with an empty, too long or non-string name', async () => {
      const { client, tenantId } = await app.company();
      const path = `/v1/tenants/${tenantId}/api-keys`;
      for (const body of [{}, { name: '  ' }, { name: 'x'.repeat(101) }, { name: 42 }]) {
        expectVoiceError(await client.post(path, body), 422, 'invalid_name');
      }
      expect((await client.get(path)).body.data).to.have.length(1);
    });

    it('answers 400 invalid_json with an unknown field or a body that is not JSON', async () => {
      const { client, tenantId } = await app.company();
      const path = `/v1/tenants/${tenantId}/api-keys`;
      expectVoiceError(await client.post(path, { name: 'ok', scopes: ['calls'] }), 400, 'invalid_json');
      expectVoiceError(await client.post(path, '{"name": '), 400, 'invalid_json');
      expect((await client.get(path)).body.data).to.have.length(1);
    });

    it("answers 404 not_found for another account's id, and creates nothing there", async () => {
      const mine = await app.company();
      const other = await app.company();
      expectVoiceError(await mine.client.post(`/v1/tenants/${other.tenantId}/api-keys`, { name: 'sneaky' }), 404, 'not_found');
      expectVoiceError(await mine.client.post('/v1/tenants/tnt_01J00000000000000000000000/api-keys', { name: 'x' }), 404, 'not_found');
      expect((await other.client.get(`/v1/tenants/${other.tenantId}/api-keys`)).body.data).to.have.length(1);
    });

    it('answers 401 unauthorized without a key', async () => {
      const { tenantId } = await app.company();
      expectVoiceError(await app.client().post(`/v1/tenants/${tenantId}/api-keys`, { name: 'x' }), 401, 'unauthorized');
    });
  });

  describe('GET /v1/tenants/{account_id}/api-keys', () => {
    it('lists every key of the account with its fields, never the key itself', async () => {
      const { client, tenantId, keyId } = await app.company();
      const made = await client.post(`/v1/tenants/${tenantId}/api-keys`, { name: 'second' });
      const res = await client.get(`/v1/tenants/${tenantId}/api-keys`);

      expect(res.status).to.equal(200);
      expect(res.body).to.have.all.keys('data');
      expect(res.body.data.map((k: any) => k.id)).to.deep.equal([keyId, made.body.id]);
      for (const key of res.body.data) {
        expect(key).to.have.all.keys(...KEY_FIELDS);
        expect(key.revoked).to.equal(false);
        expect(key.revoked_at).to.equal(null);
      }
      // The list request itself used the first key.
      expect(res.body.data[0].last_used_at).to.be.a('string');
      expect(res.body.data[1]).to.include({
        name: 'second',
        prefix: made.body.prefix,
        created_at: made.body.created_at,
        last_used_at: null,
      });
    });

    it("answers 404 not_found for another account's id", async () => {
      const mine = await app.company();
      const other = await app.company();
      expectVoiceError(await mine.client.get(`/v1/tenants/${other.tenantId}/api-keys`), 404, 'not_found');
    });
  });

  describe('DELETE /v1/tenants/{account_id}/api-keys/{key_id}', () => {
    it('answers 200 with the key revoked; the key stops working on the next request and stays listed', async () => {
      const { client, tenantId } = await app.company();
      const made = await client.post(`/v1/tenants/${tenantId}/api-keys`, { name: 'to revoke' });
      const doomed = app.client(made.body.key);
      expect((await doomed.get(`/v1/tenants/${tenantId}/api-keys`)).status).to.equal(200);

      const res = await client.request('DELETE', `/v1/tenants/${tenantId}/api-keys/${made.body.id}`);
      expect(res.status).to.equal(200);
      expect(res.body).to.have.all.keys(...KEY_FIELDS);
      expect(res.body).to.include({ id: made.body.id, name: 'to revoke', revoked: true });
      expect(Date.parse(res.body.revoked_at)).to.be.closeTo(Date.now(), 60_000);

      expectVoiceError(await doomed.get(`/v1/tenants/${tenantId}/api-keys`), 401, 'unauthorized');
      const listed = (await client.get(`/v1/tenants/${tenantId}/api-keys`)).body.data.find((k: any) => k.id === made.body.id);
      expect(listed).to.include({ revoked: true, revoked_at: res.body.revoked_at });
    });

    it('answers 200 again with the first revocation time when the key is already revoked', async () => {
      const { client, tenantId } = await app.company();
      const made = await client.post(`/v1/tenants/${tenantId}/api-keys`, { name: 'twice' });
      const first = await client.request('DELETE', `/v1/tenants/${tenantId}/api-keys/${made.body.id}`);
      const second = await client.request('DELETE', `/v1/tenants/${tenantId}/api-keys/${made.body.id}`);
      expect(second.status).to.equal(200);
      expect(second.body).to.deep.equal(first.body);
    });

    it('lets a key revoke itself', async () => {
      const { client, tenantId, keyId } = await app.company();
      expect((await client.request('DELETE', `/v1/tenants/${tenantId}/api-keys/${keyId}`)).status).to.equal(200);
      expectVoiceError(await client.get(`/v1/tenants/${tenantId}/api-keys`), 401, 'unauthorized');
    });

    it("answers 404 not_found for an unknown key, for another account's key, and under another account's id; that key keeps working", async () => {
      const mine = await app.company();
      const other = await app.company();
      expectVoiceError(
        await mine.client.request('DELETE', `/v1/tenants/${mine.tenantId}/api-keys/key_01J00000000000000000000000`),
        404,
        'not_found',
      );
      expectVoiceError(await mine.client.request('DELETE', `/v1/tenants/${mine.tenantId}/api-keys/${other.keyId}`), 404, 'not_found');
      expectVoiceError(await mine.client.request('DELETE', `/v1/tenants/${other.tenantId}/api-keys/${other.keyId}`), 404, 'not_found');
      expect((await other.client.get(`/v1/tenants/${other.tenantId}/api-keys`)).status).to.equal(200);
    });
  });

  describe('GET /v1/tenants/{account_id}/settings', () => {
    it('answers the settings PATCH answers, limits included; 404 not_found for another account', async () => {
      const mine = await app.company();
      const other = await app.company();
      const path = `/v1/tenants/${mine.tenantId}/settings`;

      const read = await mine.client.get(path);

      expect(read.status).to.equal(200);
      expect(read.body).to.deep.equal((await mine.client.patch(path, {})).body);
      expect(read.body).to.include({ account_id: mine.tenantId, calls_per_minute: 30, max_calls_per_number_per_day: 2 });
      expectVoiceError(await mine.client.get(`/v1/tenants/${other.tenantId}/settings`), 404, 'not_found');
    });
  });

  describe('PATCH /v1/tenants/{account_id}/settings', () => {
    const receiver = 'https://127.0.0.1:8443/voice-events';

    it('sets events_url (https, public or allowed) and answers 200 with the settings', async () => {
      const { client, tenantId } = await app.company();
      const res = await client.patch(`/v1/tenants/${tenantId}/settings`, { events_url: receiver });

      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal({
        account_id: tenantId,
        name: res.body.name,
        events_url: receiver,
        features: [],
        max_concurrent_calls: 10,
        requests_per_minute: 300,
        calls_per_minute: 30,
        max_concurrent_jobs: null,
        max_calls_per_number_per_day: 2,
        max_calls_per_number_per_week: 5,
        allowed_countries: ['US'],
        default_agent_id: null,
        country: 'US',
      });
      const stored = await app.runtime.ctx.db('tenants').where({ id: tenantId }).first();
      expect(stored.events_url).to.equal(receiver);
    });

    it('clears events_url with an empty string, and leaves it alone when not given', async () => {
      const { client, tenantId } = await app.company();
      const path = `/v1/tenants/${tenantId}/settings`;
      await client.patch(path, { events_url: receiver });
      expect((await client.patch(path, {})).body.events_url).to.equal(receiver);
      expect((await client.patch(path, { events_url: '' })).body.events_url).to.equal(null);
      expect((await app.runtime.ctx.db('tenants').where({ id: tenantId }).first()).events_url).to.equal(null);
    });

    it('answers 422 invalid_events_url for an address that is not https or not public, and changes nothing', async () => {
      const { client, tenantId } = await app.company();
      const path = `/v1/tenants/${tenantId}/settings`;
      await client.patch(path, { events_url: receiver });
      for (const events_url of [
        'http://hooks.example.com/voice',
        'not a url',
        'https://10.0.0.7/voice',
        'https://169.254.169.254/latest',
        'https://[::1]/voice',
        'https://localhost/voice',
        'https://intranet/voice',
      ]) {
        const refused = await client.patch(path, { events_url });
        expectVoiceError(refused, 422, 'invalid_events_url');
        expect(refused.body.error.message).to.match(/^events_url: /);
      }
      expect((await client.patch(path, {})).body.events_url).to.equal(receiver);
    });

    it('answers 400 invalid_json for a field it does not take, and 422 invalid_events_url for a value of the wrong type', async () => {
      const { client, tenantId } = await app.company();
      const path = `/v1/tenants/${tenantId}/settings`;
      expectVoiceError(await client.patch(path, { max_concurrent_calls: 50 }), 400, 'invalid_json');
      expectVoiceError(await client.patch(path, { events_url: 42 }), 422, 'invalid_events_url');
    });

    it("answers 404 not_found for another account's id, and changes nothing there", async () => {
      const mine = await app.company();
      const other = await app.company();
      expectVoiceError(await mine.client.patch(`/v1/tenants/${other.tenantId}/settings`, { events_url: receiver }), 404, 'not_found');
      expect((await app.runtime.ctx.db('tenants').where({ id: other.tenantId }).first()).events_url).to.equal(null);
    });
  });
});

describe('switchboard admin tenant update (voice settings)', function () {
  this.timeout(120_000);
  let app: TestApp;
  before(async () => {
    app = await startTestApp();
  });
  after(async () => app.close());

  const admin = adminCli({ SWITCHBOARD_OUTBOUND_ALLOW: '127.0.0.1/32' });

  it('sets the message webhook, events address, call cap, default agent (agt_ id) and country, which the settings show', async () => {
    const { client, tenantId, agentId } = await app.company();
    const res = await admin(
      'tenant',
      'update',
      '--tenant',
      tenantId,
      '--message-webhook-url',
      'https://127.0.0.1:9443/messages',
      '--events-url',
      'https://127.0.0.1:9443/events',
      '--max-concurrent-calls',
      '3',
      '--default-agent',
      agentRef(agentId),
      '--country',
      'de',
      '--features',
      'voice_api,ai_agents,campaigns',
    );
    expect(res.code, res.stderr).to.equal(0);
    expect(res.json).to.include({
      messageWebhookUrl: 'https://127.0.0.1:9443/messages',
      eventsUrl: 'https://127.0.0.1:9443/events',
      maxConcurrentCalls: 3,
      defaultAgentId: agentId,
      country: 'DE',
    });
    const settings = await client.patch(`/v1/tenants/${tenantId}/settings`, {});
    expect(settings.body).to.include({
      events_url: 'https://127.0.0.1:9443/events',
      max_concurrent_calls: 3,
      default_agent_id: agentRef(agentId),
      country: 'DE',
    });
    expect(settings.body.features).to.deep.equal(['voice_api', 'ai_agents', 'campaigns']);

    const cleared = await admin('tenant', 'update', '--tenant', tenantId, '--default-agent', '', '--message-webhook-url', '');
    expect(cleared.code, cleared.stderr).to.equal(0);
    expect(cleared.json).to.include({ defaultAgentId: null, messageWebhookUrl: null });
  });

  it('sets every limit an operator raises, which the account reads at GET /v1/tenants/{account_id}/settings', async () => {
    const { client, tenantId } = await app.company();
    const res = await admin(
      'tenant',
      'update',
      '--tenant',
      tenantId,
      '--requests-per-minute',
      '1200',
      '--calls-per-minute',
      '90',
      '--max-concurrent-calls',
      '25',
      '--max-concurrent-jobs',
      '40',
      '--max-calls-per-number-per-day',
      '3',
      '--max-calls-per-number-per-week',
      '8',
      '--allowed-countries',
      'us, ca,GB,us',
    );
    expect(res.code, res.stderr).to.equal(0);

    const settings = (await client.get(`/v1/tenants/${tenantId}/settings`)).body;

    expect(settings).to.include({
      requests_per_minute: 1200,
      calls_per_minute: 90,
      max_concurrent_calls: 25,
      max_concurrent_jobs: 40,
      max_calls_per_number_per_day: 3,
      max_calls_per_number_per_week: 8,
    });
    expect(settings.allowed_countries).to.deep.equal(['US', 'CA', 'GB']);
    const reset = await admin('tenant', 'update', '--tenant', tenantId, '--allowed-countries', '', '--max-concurrent-jobs', 'unlimited');
    expect(reset.code, reset.stderr).to.equal(0);
    expect((await client.get(`/v1/tenants/${tenantId}/settings`)).body)
      .to.include({ max_concurrent_jobs: null })
      .and.deep.include({ allowed_countries: ['US'] });
  });

  it('refuses (exit 2), naming each, a limit below 1 or a country without a numbering plan, and changes nothing', async () => {
    const { tenantId } = await app.company();
    const refused = await admin(
      'tenant',
      'update',
      '--tenant',
      tenantId,
      '--calls-per-minute',
      '0',
      '--max-calls-per-number-per-week',
      '0',
      '--allowed-countries',
      'US,XX',
    );
    expect(refused.code, refused.stderr).to.equal(2);
    expect(refused.stderr)
      .to.match(/callsPerMinute/)
      .and.match(/maxCallsPerNumberPerWeek/)
      .and.match(/allowedCountries/);
    const stored = await app.runtime.ctx.db('tenants').where({ id: tenantId }).first();
    expect(stored).to.include({ calls_per_minute: 30, max_calls_per_number_per_week: 5, allowed_countries: null });
  });

  it('refuses (exit 2), naming each, an address that is not https or public, an agent of another company, a cap below 1 and an unknown country', async () => {
    const { tenantId } = await app.company();
    const other = await app.company();
    // Values are checked in two passes (form, then addresses and agents); each pass names every problem.
    const malformed = await admin(
      'tenant',
      'update',
      '--tenant',
      tenantId,
      '--max-concurrent-calls',
      '0',
      '--country',
      'XX',
      '--default-agent',
      'agent-7',
    );
    expect(malformed.code, malformed.stderr).to.equal(2);
    expect(malformed.stderr)
      .to.match(/^error: .*maxConcurrentCalls.*/)
      .and.match(/country/)
      .and.match(/defaultAgentId/);
    const refused = await admin(
      'tenant',
      'update',
      '--tenant',
      tenantId,
      '--message-webhook-url',
      'http://127.0.0.1/messages',
      '--events-url',
      'https://192.168.1.10/events',
      '--default-agent',
      agentRef(other.agentId),
    );
    expect(refused.code, refused.stderr).to.equal(2);
    expect(refused.stderr)
      .to.match(/^error: .*messageWebhookUrl: must be an https/)
      .and.match(/eventsUrl: 192\.168\.1\.10 is not a public address/)
      .and.match(/defaultAgentId: no such agent/);
    const stored = await app.runtime.ctx.db('tenants').where({ id: tenantId }).first();
    expect(stored).to.include({
      message_webhook_url: null,
      events_url: null,
      default_agent_id: null,
      max_concurrent_calls: 10,
      country: 'US',
    });
  });
});
