import { expect } from 'chai';
import { startTestApp, type Client, type TestApp } from '../../support/app.js';
import { expectVoiceError } from '../../support/errors.js';
import { manualClock } from '../../support/triggers.js';
import { updateTenant } from '../../../pkg/tenants/settings.js';

const withApp = (client: Client, method: string, path: string, app: string, body?: unknown) =>
  client.request(method, path, body, { 'Switchboard-App': app });

describe('GET /v1/reports/api-usage', () => {
  let app: TestApp;
  before(async () => {
    // A fixed day, so reports name it; moved across midnight where a test needs two days.
    app = await startTestApp({ manualClock: true });
    manualClock(app).set(new Date('2031-03-14T12:00:00Z'));
  });
  after(async () => app.close());

  /** An account that made 2 requests as app Dialer and 1 with no app, and placed one call as Dialer. */
  async function busyAccount() {
    const company = await app.company();
    await updateTenant(app.runtime.ctx, company.tenantId, { features: ['voice_api'] });
    const keys = `/v1/tenants/${company.tenantId}/api-keys`;
    expect((await withApp(company.client, 'GET', keys, 'Dialer')).status).to.equal(200);
    const placed = await withApp(company.client, 'POST', '/v1/calls', 'Dialer', { to: '+12025550110', task: 'Confirm the delivery' });
    expect(placed.status, JSON.stringify(placed.body)).to.equal(201);
    expect((await company.client.get(keys)).status).to.equal(200);
    return company;
  }

  it('answers the totals of the last 30 days with no grouping, the report request itself included', async () => {
    const { client } = await busyAccount();
    const res = await client.get('/v1/reports/api-usage');
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({
      from: '2031-02-13',
      to: '2031-03-14',
      group_by: [],
      data: [{ requests: 4, requests_over_limit: 0, calls_placed: 1 }],
    });
  });

  it('groups by key, app, channel and day, in the order given', async () => {
    const { client, keyId } = await busyAccount();
    const res = await client.get('/v1/reports/api-usage?from=2031-03-14&to=2031-03-14&group_by=app,key,channel,day');
    expect(res.status).to.equal(200);
    expect(res.body.group_by).to.deep.equal(['app', 'key', 'channel', 'day']);
    expect(res.body.data).to.deep.equal([
      { app: null, key_id: keyId, channel: 'api', day: '2031-03-14', requests: 2, requests_over_limit: 0, calls_placed: 0 },
      { app: 'Dialer', key_id: keyId, channel: 'api', day: '2031-03-14', requests: 2, requests_over_limit: 0, calls_placed: 1 },
    ]);
  });

  it('counts each UTC day on its own row, and leaves out days outside from..to', async () => {
    const { client, tenantId } = await app.company();
    const clock = manualClock(app);
    const path = `/v1/tenants/${tenantId}/api-keys`;
    try {
      clock.set(new Date('2031-05-01T23:59:59Z'));
      await client.get(path);
      clock.set(new Date('2031-05-02T00:00:01Z'));
      await client.get(path);
      await client.get(path);
      clock.set(new Date('2031-05-03T08:00:00Z'));
      const res = await client.get('/v1/reports/api-usage?from=2031-05-01&to=2031-05-02&group_by=day');
      expect(res.body).to.deep.equal({
        from: '2031-05-01',
        to: '2031-05-02',
        group_by: ['day'],
        data: [
          { day: '2031-05-01', requests: 1, requests_over_limit: 0, calls_placed: 0 },
          { day: '2031-05-02', requests: 2, requests_over_limit: 0, calls_placed: 0 },
        ],
      });
      const later = await client.get('/v1/reports/api-usage?from=2031-05-03&group_by=day');
      expect(later.body.to).to.equal('2031-05-03');
      expect(later.body.data).to.deep.equal([{ day: '2031-05-03', requests: 2, requests_over_limit: 0, calls_placed: 0 }]);
    } finally {
      clock.set(new Date('2031-03-14T12:00:00Z'));
    }
  });

  it('answers an empty list when grouped and nothing was used, and totals of zero when not grouped', async () => {
    const { client } = await app.company();
    const grouped = await client.get('/v1/reports/api-usage?from=2030-01-01&to=2030-01-31&group_by=key');
    expect(grouped.body.data).to.deep.equal([]);
    const totals = await client.get('/v1/reports/api-usage?from=2030-01-01&to=2030-01-31');
    expect(totals.body.data).to.deep.equal([{ requests: 0, requests_over_limit: 0, calls_placed: 0 }]);
  });

  it("shows an account only its own usage, never another's", async () => {
    const busy = await busyAccount();
    const quiet = await app.company();
    const res = await quiet.client.get('/v1/reports/api-usage?group_by=key');
    expect(res.body.data).to.deep.equal([{ key_id: quiet.keyId, requests: 1, requests_over_limit: 0, calls_placed: 0 }]);
    expect(JSON.stringify(res.body)).not.to.include(busy.keyId);
  });

  it('answers 422 invalid_<parameter> for bad dates, from after to, more than 366 days, an unknown or repeated grouping', async () => {
    const { client } = await app.company();
    for (const [query, code] of [
      ['from=2031-02-30', 'invalid_from'],
      ['to=14.03.2031', 'invalid_to'],
      ['from=yesterday', 'invalid_from'],
      ['from=2031-03-15&to=2031-03-14', 'invalid_from'],
      ['from=2030-01-01&to=2031-01-02', 'invalid_to'],
      ['group_by=tenant', 'invalid_group_by'],
      ['group_by=key,key', 'invalid_group_by'],
      ['from=2031-01-01&from=2031-01-02', 'invalid_from'],
    ]) {
      expectVoiceError(await client.get(`/v1/reports/api-usage?${query}`), 422, code!);
      expectVoiceError(await client.get(`/v1/reports/api-usage.csv?${query}`), 422, code!);
    }
    expect((await client.get('/v1/reports/api-usage?from=2030-01-01&to=2030-12-31')).status).to.equal(200);
  });

  it('answers 400 invalid_json for a parameter it does not take', async () => {
    const { client } = await app.company();
    expectVoiceError(await client.get('/v1/reports/api-usage?group_by=day&limit=5'), 400, 'invalid_json');
    expectVoiceError(await client.get('/v1/reports/api-usage.csv?limit=5'), 400, 'invalid_json');
  });

  /** An MCP request of the account with `apiKey`: `message` over plain HTTP, with `headers`. */
  const mcpRequest = (apiKey: string, message: Record<string, unknown>, headers: Record<string, string> = {}) =>
    fetch(`${app.url}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${apiKey}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...headers,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, ...message }),
    });

  async function mcpAccount() {
    const company = await app.company();
    await updateTenant(app.runtime.ctx, company.tenantId, { features: ['voice_api'] });
    return company;
  }

  const byAppAndChannel = async (client: Client) => (await client.get('/v1/reports/api-usage?group_by=app,channel')).body.data;
  const row = (app: string | null, channel: string, requests: number) => ({
    app,
    channel,
    requests,
    requests_over_limit: 0,
    calls_placed: 0,
  });

  it("counts an MCP request whose session id carries an app name of NUL bytes under no app, and every other account's requests still", async () => {
    const mcp = await mcpAccount();
    const other = await app.company();
    expect((await mcpRequest(mcp.apiKey, { method: 'tools/list' }, { 'mcp-session-id': 'sb1.x.AA' })).status).to.equal(200);
    expect((await withApp(other.client, 'GET', `/v1/tenants/${other.tenantId}/api-keys`, 'Dialer')).status).to.equal(200);

    expect(await byAppAndChannel(other.client)).to.deep.equal([row(null, 'api', 1), row('Dialer', 'api', 1)]);
    expect(await byAppAndChannel(mcp.client)).to.deep.equal([row(null, 'api', 1), row(null, 'mcp', 1)]);
  });

  it('counts an MCP client whose declared name holds NUL characters and unpaired surrogates under the name without them', async () => {
    const mcp = await mcpAccount();
    const clientInfo = { name: 'Dia\u0000ler\ud800', version: '1' };
    const init = await mcpRequest(mcp.apiKey, {
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo },
    });
    expect(init.status).to.equal(200);
    expect(
      (await mcpRequest(mcp.apiKey, { method: 'tools/list' }, { 'mcp-session-id': init.headers.get('mcp-session-id')! })).status,
    ).to.equal(200);

    expect(await byAppAndChannel(mcp.client)).to.deep.equal([row(null, 'api', 1), row('Dialer', 'mcp', 2)]);
  });

  it('answers 401 unauthorized without a key', async () => {
    expectVoiceError(await app.client().get('/v1/reports/api-usage'), 401, 'unauthorized');
  });
});

describe('GET /v1/reports/api-usage.csv', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp({ manualClock: true });
    manualClock(app).set(new Date('2031-03-14T12:00:00Z'));
  });
  after(async () => app.close());

  it('has the same columns as the JSON rows, with a header row', async () => {
    const { client, tenantId, keyId } = await app.company();
    await withApp(client, 'GET', `/v1/tenants/${tenantId}/api-keys`, 'Dialer, "the new one"');
    const res = await client.get('/v1/reports/api-usage.csv?from=2031-03-14&to=2031-03-14&group_by=day,key,app,channel');

    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.equal('text/csv; charset=utf-8');
    expect(res.body).to.equal(
      [
        'day,key_id,app,channel,requests,requests_over_limit,calls_placed',
        `2031-03-14,${keyId},,api,1,0,0`,
        `2031-03-14,${keyId},"Dialer, ""the new one""",api,1,0,0`,
        '',
      ].join('\r\n'),
    );
  });

  it('writes an app name a spreadsheet would take for a formula as text: quoted, led by a quote mark', async () => {
    const { client } = await app.company();
    const names = ['=HYPERLINK("http://evil.example","x")', '+1+cmd|calc', '-2+3', '@SUM(A1)', 'Plain'];
    for (const name of names) await withApp(client, 'GET', '/v1/calls', name);
    const res = await client.get('/v1/reports/api-usage.csv?from=2031-03-14&to=2031-03-14&group_by=app');
    const apps = res.body
      .split('\r\n')
      .slice(1, -1)
      .map((line: string) => line.replace(/,\d+,\d+,\d+$/, ''))
      .filter((name: string) => name !== '');
    expect(apps).to.have.members(['"\'=HYPERLINK(""http://evil.example"",""x"")"', '"\'+1+cmd|calc"', '"\'-2+3"', '"\'@SUM(A1)"', 'Plain']);
  });

  it('reads Switchboard-App as UTF-8: two names that Latin-1 would make one stay two; bytes that are not UTF-8 are refused with 400', async () => {
    const { client } = await app.company();
    // Header values travel as bytes: each name is sent as its UTF-8 bytes.
    const bytes = (name: string) => Buffer.from(name, 'utf8').toString('latin1');
    for (const name of ['Café', 'CafÃ©']) expect((await withApp(client, 'GET', '/v1/calls', bytes(name))).status).to.equal(200);
    const refused = await withApp(client, 'GET', '/v1/calls', 'Caf\xe9');
    expectVoiceError(refused, 400, 'bad_request');
    expect(refused.body.error.message).to.equal('The Switchboard-App header must be UTF-8');
    const report = await client.get('/v1/reports/api-usage?from=2031-03-14&to=2031-03-14&group_by=app');
    const counted = Object.fromEntries(report.body.data.filter((row: any) => row.app).map((row: any) => [row.app, row.requests]));
    expect(counted).to.deep.equal({ Café: 1, 'CafÃ©': 1 });
  });

  it('has only the count columns, and one row of totals, with no grouping', async () => {
    const { client } = await app.company();
    const res = await client.get('/v1/reports/api-usage.csv');
    expect(res.body).to.equal('requests,requests_over_limit,calls_placed\r\n1,0,0\r\n');
  });
});

describe('Usage in Prometheus', () => {
  it('counts requests and requests over the limit by tenant, key and channel', async () => {
    const app = await startTestApp();
    try {
      const { client, tenantId, keyId } = await app.company();
      await updateTenant(app.runtime.ctx, tenantId, { requestsPerMinute: 2 });
      for (let i = 0; i < 3; i++) await client.get(`/v1/tenants/${tenantId}/api-keys`);
      const text = await (await fetch(`${app.metricsUrl}/metrics`)).text();
      expect(text).to.include(`switchboard_api_requests_total{tenant="${tenantId}",key="${keyId}",channel="api"} 3`);
      expect(text).to.include(`switchboard_api_requests_over_limit_total{tenant="${tenantId}",key="${keyId}",channel="api"} 1`);
    } finally {
      await app.close();
    }
  });
});
