import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { startTestApp, TEST_ENCRYPTION_KEY, type TestApp } from '../support/app.js';
import { startHttpsServer, type TestHttpsServer } from '../support/https.js';
import { adminCli, expectSuccess, switchboard, type CliResult } from '../support/cli.js';

const admin = adminCli();

/** Failed with `code`, nothing on stdout, and exactly one line on stderr. */
function expectFailure(r: CliResult, code: number, message: RegExp): void {
  expect(r.code, r.stderr).to.equal(code);
  expect(r.stdout).to.equal('');
  const lines = r.stderr.trimEnd().split('\n');
  expect(lines, r.stderr).to.have.length(1);
  expect(lines[0]).to.match(message);
}

const bearerTool = (url: string, token: string) => ({
  name: 'crm_lookup',
  description: 'Find a customer',
  url: `${url}/crm/{customerId}`,
  method: 'GET',
  authType: 'bearer',
  authConfig: { token },
  parameters: [{ name: 'customerId', type: 'string', required: true }],
});

describe('switchboard admin', function () {
  // Every test spawns the CLI, a full node start; on a busy machine that takes seconds.
  this.timeout(120_000);
  let app: TestApp;
  before(async () => {
    app = await startTestApp();
  });
  after(async () => app.close());
  beforeEach(() => app.model.reset());

  it("writes nothing but its JSON on stdout: the database driver's warnings go to stderr", async () => {
    // Nothing listens on port 9: every connection attempt fails, and the driver warns of each.
    const r = await switchboard(['admin', 'tenant', 'show', '--tenant', 'tnt_x', '--json'], {
      DATABASE_URL: 'postgres://u:p@127.0.0.1:9/x',
      SWITCHBOARD_DB_ACQUIRE_TIMEOUT_MS: '1000',
    });

    expect(r.code).to.equal(1);
    expect(r.stdout).to.equal('');
    expect(r.stderr).to.include('knex: Acquire connection error');
  });

  describe('admin bootstrap', () => {
    it('creates a pay-as-you-go company with an agent and a key that works against the API', async () => {
      const made = expectSuccess(await admin('bootstrap', '--name', 'Bootstrap Co'));

      expect(made).to.have.all.keys('tenantId', 'agentId', 'keyId', 'apiKey');
      const opened = await app.client(made.apiKey).post('/api/v1/conversations', { agentId: made.agentId });
      expect(opened.status).to.equal(201);
      const shown = expectSuccess(await admin('tenant', 'show', '--tenant', made.tenantId));
      expect(shown).to.include({ tenantId: made.tenantId, name: 'Bootstrap Co', billing: 'payg', creditBalance: 0 });
    });

    it('makes the company prepaid with that balance when --credits is given', async () => {
      const made = expectSuccess(await admin('bootstrap', '--name', 'Prepaid Co', '--credits', '7'));

      const shown = expectSuccess(await admin('tenant', 'show', '--tenant', made.tenantId));
      expect(shown).to.include({ billing: 'prepaid', creditBalance: 7 });
    });

    it('prints a short text with the raw key when --json is not given', async () => {
      const r = await switchboard(['admin', 'bootstrap', '--name', 'Text Co']);

      expect(r.code, r.stderr).to.equal(0);
      expect(r.json).to.equal(undefined);
      expect(r.stdout)
        .to.match(/tnt_\w+/)
        .and.match(/sb_[\w-]{20,}/);
    });
  });

  describe('admin tenant', () => {
    it('creates a company with every setting', async () => {
      const created = expectSuccess(
        await admin(
          'tenant',
          'create',
          '--name',
          'Configured Co',
          '--timezone',
          'Europe/Berlin',
          '--features',
          'company_memory',
          '--max-pending-jobs',
          '5',
          '--max-concurrent-jobs',
          '6',
          '--min-credits',
          '0.5',
          '--billing',
          'prepaid',
          '--requests-per-minute',
          '60',
        ),
      );

      expect(created.tenantId).to.match(/^tnt_/).and.equal(created.id);
      expect(created).to.deep.include({
        name: 'Configured Co',
        timezone: 'Europe/Berlin',
        features: ['company_memory'],
        maxPendingJobs: 5,
        maxConcurrentJobs: 6,
        minCredits: 0.5,
        billing: 'prepaid',
        requestsPerMinute: 60,
      });
    });

    it('updates only the settings given, and show returns them', async () => {
      const { tenantId } = await app.company({ name: 'Update Co' });

      const updated = expectSuccess(
        await admin(
          'tenant',
          'update',
          '--tenant',
          tenantId,
          '--timezone',
          'America/New_York',
          '--features',
          'company_memory',
          '--max-pending-jobs',
          '9',
        ),
      );
      expect(updated).to.deep.include({ tenantId, timezone: 'America/New_York', features: ['company_memory'], maxPendingJobs: 9 });

      const shown = expectSuccess(await admin('tenant', 'show', '--tenant', tenantId));
      expect(shown).to.deep.include({
        name: 'Update Co',
        timezone: 'America/New_York',
        features: ['company_memory'],
        maxPendingJobs: 9,
        billing: 'payg',
      });
    });

    it('exits 2 with one line naming the setting for each invalid value', async () => {
      const cases: [string[], RegExp][] = [
        [['--timezone', 'Mars/Olympus_Mons'], /timezone: must be an IANA time zone/],
        [['--features', 'company_memory,teleport'], /features\.1: .*company_memory/],
        [['--max-pending-jobs', '0'], /maxPendingJobs: /],
        [['--max-pending-jobs', '2.5'], /maxPendingJobs: .*int/],
        [['--max-concurrent-jobs', '0'], /maxConcurrentJobs: /],
        [['--max-concurrent-jobs', '1.5'], /maxConcurrentJobs: .*int/],
        [['--max-concurrent-jobs', 'none'], /--max-concurrent-jobs must be a number/],
        [['--min-credits=-1'], /minCredits: /],
        [['--billing', 'monthly'], /billing: .*prepaid.*payg/],
        [['--requests-per-minute', 'lots'], /--requests-per-minute must be a number/],
      ];
      const results = await Promise.all(cases.map(([flags]) => admin('tenant', 'create', '--name', 'Invalid Co', ...flags)));
      for (const [i, r] of results.entries()) expectFailure(r, 2, cases[i]![1]);
    });

    it('sets --max-concurrent-jobs, unlimited by default and again with unlimited', async () => {
      const { tenantId } = await app.company({ name: 'Concurrency Co' });
      expect(expectSuccess(await admin('tenant', 'show', '--tenant', tenantId))).to.include({ maxConcurrentJobs: null });

      expect(expectSuccess(await admin('tenant', 'update', '--tenant', tenantId, '--max-concurrent-jobs', '4'))).to.include({
        maxConcurrentJobs: 4,
      });
      expect(expectSuccess(await admin('tenant', 'show', '--tenant', tenantId))).to.include({ maxConcurrentJobs: 4 });
      expectFailure(await admin('tenant', 'update', '--tenant', tenantId, '--max-concurrent-jobs=-1'), 2, /maxConcurrentJobs: /);
      expect(expectSuccess(await admin('tenant', 'show', '--tenant', tenantId))).to.include({ maxConcurrentJobs: 4 });

      expect(expectSuccess(await admin('tenant', 'update', '--tenant', tenantId, '--max-concurrent-jobs', 'unlimited'))).to.include({
        maxConcurrentJobs: null,
      });
    });

    it('exits 1 for an unknown tenant', async () => {
      expectFailure(await admin('tenant', 'show', '--tenant', 'tnt_unknown'), 1, /Unknown tenant tnt_unknown/);
    });
  });

  describe('admin agent', () => {
    let api: TestHttpsServer;
    before(async () => {
      api = await startHttpsServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"customer":"Ada"}');
      });
    });
    after(async () => api.close());

    it('stores --tools credentials encrypted, never prints them, and the tool authenticates with them', async () => {
      const company = await app.company();
      const token = `cli-secret-${randomUUID()}`;
      const roster = [{ roleName: 'support', agentId: company.agentId, greeting: 'Support here.' }];

      const created = expectSuccess(
        await admin(
          'agent',
          'create',
          '--tenant',
          company.tenantId,
          '--name',
          'Sales',
          '--model',
          'gpt-4o',
          '--tools',
          JSON.stringify([bearerTool(api.url, token)]),
          '--handoff-roster',
          JSON.stringify(roster),
          '--handoff',
          'on',
        ),
      );
      const listed = await admin('agent', 'list', '--tenant', company.tenantId);

      expect(created).to.deep.include({ name: 'Sales', model: 'gpt-4o', handoffEnabled: true, handoffRoster: roster });
      expect(created.tools[0]).to.include({ name: 'crm_lookup', authType: 'bearer' });
      const stored = await app.runtime.ctx.db('agents').where({ id: created.agentId }).first();
      expect(JSON.stringify(stored.tools)).not.to.include(token);
      expect(stored.tools[0].sealedAuth).to.be.a('string');
      expect(expectSuccess(listed).agents.map((a: any) => a.id)).to.deep.equal([company.agentId, created.agentId]);
      for (const printed of [listed.stdout, JSON.stringify(created)]) {
        expect(printed).not.to.include(token).and.not.to.include('sealedAuth').and.not.to.include('authConfig');
      }

      const opened = await company.client.post('/api/v1/conversations', { agentId: created.agentId });
      app.model.reply({ toolCalls: [{ name: 'crm_lookup', arguments: { customerId: 'c-1' } }] }, { content: 'You are Ada.' });
      const reply = await company.client.post(`/api/v1/conversations/${opened.body.conversationId}/messages`, { message: 'Who am I?' });
      expect(reply.status).to.equal(200);
      expect(api.requests.at(-1)!.headers.authorization).to.equal(`Bearer ${token}`);
    });

    it('updates only the fields given', async () => {
      const company = await app.company();

      const updated = expectSuccess(
        await admin('agent', 'update', '--agent', company.agentId, '--system-prompt', 'Be brief.', '--handoff', 'on'),
      );

      expect(updated).to.deep.include({ agentId: company.agentId, systemPrompt: 'Be brief.', handoffEnabled: true, tools: [] });
      expect(updated.name).to.match(/assistant$/);
    });

    it('exits 2 with the validation message for invalid --tools', async () => {
      const { tenantId } = await app.company();
      const tool = { ...bearerTool('http://crm.example.com', 'x') };

      expectFailure(
        await admin('agent', 'create', '--tenant', tenantId, '--name', 'Bad', '--tools', JSON.stringify([tool])),
        2,
        /tools\.0\.url: must be an https:\/\/ URL/,
      );
    });

    it("exits 2 when the handoff roster names another company's agent", async () => {
      const company = await app.company();
      const other = await app.company();
      const roster = JSON.stringify([{ roleName: 'billing', agentId: other.agentId, greeting: '' }]);

      expectFailure(
        await admin('agent', 'update', '--agent', company.agentId, '--handoff-roster', roster),
        2,
        /handoffRoster\.0\.agentId: .*not an agent of this company/,
      );
    });

    it("--outcomes sets what the agent may end calls with (default DECISIONS.md's list); --message-webhook-url its own receiver", async () => {
      const company = await app.company();
      const shown = expectSuccess(await admin('agent', 'list', '--tenant', company.tenantId)).agents[0];
      expect(shown).to.deep.include({
        outcomes: ['completed', 'not_interested', 'callback_requested', 'wrong_number', 'do_not_call'],
        messageWebhookUrl: null,
      });

      const updated = expectSuccess(
        await admin(
          'agent',
          'update',
          '--agent',
          company.agentId,
          '--outcomes',
          'booked, not_booked',
          '--message-webhook-url',
          'https://hooks.example.com/messages',
        ),
      );
      expect(updated).to.deep.include({ outcomes: ['booked', 'not_booked'], messageWebhookUrl: 'https://hooks.example.com/messages' });
      const cleared = expectSuccess(await admin('agent', 'update', '--agent', company.agentId, '--message-webhook-url', ''));
      expect(cleared).to.deep.include({ outcomes: ['booked', 'not_booked'], messageWebhookUrl: null });
    });

    it('exits 2 for outcomes repeated or empty, or a message webhook that is not https on the public internet; nothing changes', async () => {
      const company = await app.company();
      const [repeated, empty, plain, loopback] = await Promise.all([
        admin('agent', 'update', '--agent', company.agentId, '--outcomes', 'booked,booked'),
        admin('agent', 'update', '--agent', company.agentId, '--outcomes', 'booked,'),
        admin('agent', 'update', '--agent', company.agentId, '--message-webhook-url', 'http://hooks.example.com/messages'),
        admin('agent', 'create', '--tenant', company.tenantId, '--name', 'Local', '--message-webhook-url', 'https://127.0.0.1/messages'),
      ]);
      expectFailure(repeated, 2, /outcomes: outcome names must be unique/);
      expectFailure(empty, 2, /outcomes\.1: /);
      expectFailure(plain, 2, /messageWebhookUrl: .*https/);
      expectFailure(loopback, 2, /messageWebhookUrl: /);
      const stored = await app.runtime.ctx.db('agents').where({ tenant_id: company.tenantId });
      expect(stored.map((a) => [a.outcomes.length, a.message_webhook_url])).to.deep.equal([[5, null]]);
    });

    it('exits 2 for a --handoff value other than on or off, and 1 for an unknown agent', async () => {
      const [badValue, unknownAgent] = await Promise.all([
        admin('agent', 'update', '--agent', randomUUID(), '--handoff', 'yes'),
        admin('agent', 'update', '--agent', randomUUID(), '--handoff', 'on'),
      ]);
      expectFailure(badValue, 2, /--handoff must be on or off/);
      expectFailure(unknownAgent, 1, /Unknown agent/);
    });
  });

  describe('admin key', () => {
    it('creates a key that works until `key revoke`, after which the next request is 401', async () => {
      const company = await app.company();

      const created = expectSuccess(await admin('key', 'create', '--tenant', company.tenantId, '--name', 'ci'));
      const client = app.client(created.apiKey);
      expect((await client.post('/api/v1/conversations', { agentId: company.agentId })).status).to.equal(201);

      const listed = await admin('key', 'list', '--tenant', company.tenantId);
      const keys = expectSuccess(listed).keys;
      expect(keys.map((k: any) => [k.name, k.revoked])).to.deep.equal([
        ['default', false],
        ['ci', false],
      ]);
      expect(listed.stdout).not.to.include(created.apiKey).and.not.to.match(/hash/i);

      const revoked = expectSuccess(await admin('key', 'revoke', '--key', created.keyId));
      expect(revoked).to.include({ id: created.keyId, revoked: true });
      expect((await client.post('/api/v1/conversations', { agentId: company.agentId })).status).to.equal(401);
      expect((await company.client.post('/api/v1/conversations', { agentId: company.agentId })).status).to.equal(201);
    });

    it('exits 1 for an unknown key', async () => {
      expectFailure(await admin('key', 'revoke', '--key', 'key_unknown'), 1, /Unknown API key key_unknown/);
    });
  });

  describe('admin credits add', () => {
    it('tops up the balance shown by tenant show and lets a blocked prepaid company talk again', async () => {
      const company = await app.company({ credits: 0 });
      const opened = await company.client.post('/api/v1/conversations', { agentId: company.agentId });
      const send = () => company.client.post(`/api/v1/conversations/${opened.body.conversationId}/messages`, { message: 'Hello?' });
      expect((await send()).status).to.equal(402);

      expect(expectSuccess(await admin('credits', 'add', '--tenant', company.tenantId, '--amount', '2.5'))).to.deep.equal({
        tenantId: company.tenantId,
        balance: 2.5,
      });

      expect(expectSuccess(await admin('tenant', 'show', '--tenant', company.tenantId)).creditBalance).to.equal(2.5);
      app.model.reply({ content: 'Hello!' });
      expect((await send()).status).to.equal(200);
    });

    it('exits 2 for an amount that is not positive', async () => {
      const { tenantId } = await app.company();

      expectFailure(await admin('credits', 'add', '--tenant', tenantId, '--amount', '0'), 2, /amount: /);
    });
  });

  describe('admin carrier', () => {
    const SID = `AC${'c4'.repeat(16)}`;
    const TOKEN = 'carrier-auth-token-from-stdin-9e1f';
    /** `switchboard admin carrier <args>`, on a deployment with an https public address, `input` on stdin. */
    const carrier = (args: string[], input?: string, env: Record<string, string> = {}) =>
      switchboard(
        ['admin', 'carrier', ...args],
        { SWITCHBOARD_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY, SWITCHBOARD_PUBLIC_URL: 'https://switchboard.example.com', ...env },
        input,
      );
    const tenant = async () => expectSuccess(await admin('tenant', 'create', '--name', `Carrier Co ${randomUUID()}`)).tenantId as string;

    it("sets a company's own Twilio account, the token read from stdin and sealed; show gives the SID and that a token is set, never the token", async () => {
      const id = await tenant();
      const set = await carrier(['set', '--tenant', id, '--carrier', 'twilio', '--account-sid', SID, '--json'], `${TOKEN}\n`);
      expect(expectSuccess(set)).to.deep.equal({
        tenantId: id,
        carrier: 'twilio',
        source: 'account',
        account_sid: SID,
        connection_id: null,
        auth_token_set: true,
      });
      const shown = await carrier(['show', '--tenant', id, '--json']);
      expect(expectSuccess(shown)).to.deep.equal({
        tenantId: id,
        carrier: 'twilio',
        source: 'account',
        account_sid: SID,
        connection_id: null,
        auth_token_set: true,
      });
      const text = await carrier(['show', '--tenant', id]);
      expect(text.stdout).to.include(SID);
      for (const r of [set, shown, text]) expect(r.stdout + r.stderr).to.not.include(TOKEN);
      const row = await app.runtime.ctx.db('carrier_accounts').where({ tenant_id: id }).first();
      expect(JSON.stringify(row)).to.not.include(TOKEN);
      expect(app.runtime.ctx.secrets!.open(row.auth_token_sealed)).to.equal(TOKEN);
    });

    it('reads the token from the variable --auth-token-env names, and takes no token on the command line', async () => {
      const id = await tenant();
      const inArgv = await carrier(['set', '--tenant', id, '--carrier', 'twilio', '--account-sid', SID, '--auth-token', TOKEN, '--json']);
      expectFailure(inArgv, 2, /--auth-token/);
      expect(inArgv.stderr).to.not.include(TOKEN);
      const set = await carrier(
        ['set', '--tenant', id, '--carrier', 'twilio', '--account-sid', SID, '--auth-token-env', 'CARRIER_TOKEN', '--json'],
        undefined,
        { CARRIER_TOKEN: TOKEN },
      );
      expect(expectSuccess(set)).to.include({ auth_token_set: true });
      const row = await app.runtime.ctx.db('carrier_accounts').where({ tenant_id: id }).first();
      expect(app.runtime.ctx.secrets!.open(row.auth_token_sealed)).to.equal(TOKEN);
    });

    it("clear returns the company to the deployment's carrier", async () => {
      const id = await tenant();
      expectSuccess(await carrier(['set', '--tenant', id, '--carrier', 'twilio', '--account-sid', SID, '--json'], TOKEN));
      expect(expectSuccess(await carrier(['clear', '--tenant', id, '--json']))).to.deep.equal({ tenantId: id, cleared: true });
      expect(expectSuccess(await carrier(['show', '--tenant', id, '--json']))).to.deep.equal({
        tenantId: id,
        carrier: 'sim',
        source: 'deployment',
        account_sid: null,
        connection_id: null,
        auth_token_set: false,
      });
      expect(expectSuccess(await carrier(['clear', '--tenant', id, '--json']))).to.deep.equal({ tenantId: id, cleared: false });
      expect(await app.runtime.ctx.db('carrier_accounts').where({ tenant_id: id })).to.deep.equal([]);
    });

    it('exits 2 for a bad SID, carrier or token and 1 without an https public address or for an unknown tenant, storing nothing', async () => {
      const id = await tenant();
      const set = (args: string[], input: string | undefined, env: Record<string, string> = {}) =>
        carrier(['set', '--tenant', id, '--carrier', 'twilio', '--account-sid', SID, ...args, '--json'], input, env);
      expectFailure(
        await carrier(['set', '--tenant', id, '--carrier', 'twilio', '--account-sid', 'AC123', '--json'], TOKEN),
        2,
        /account SID must be AC/,
      );
      expectFailure(
        await carrier(['set', '--tenant', id, '--carrier', 'vonage', '--account-sid', SID, '--json'], TOKEN),
        2,
        /carrier must be twilio/,
      );
      expectFailure(await set([], '\n'), 2, /auth token must be/);
      expectFailure(await set([], undefined), 2, /read from stdin/);
      expectFailure(await set([], TOKEN, { SWITCHBOARD_PUBLIC_URL: '' }), 1, /SWITCHBOARD_PUBLIC_URL/);
      expectFailure(
        await carrier(['set', '--tenant', 'tnt_nobody', '--carrier', 'twilio', '--account-sid', SID, '--json'], TOKEN),
        1,
        /Unknown tenant/,
      );
      expect(await app.runtime.ctx.db('carrier_accounts').where({ tenant_id: id })).to.deep.equal([]);
    });
  });

  describe('usage', () => {
    it('admin --help lists every command and flag', async () => {
      const r = await switchboard(['admin', '--help']);

      expect(r.code).to.equal(0);
      for (const command of [
        'bootstrap',
        'tenant create',
        'tenant update',
        'tenant show',
        'agent create',
        'agent update',
        'agent test-message-webhook',
        'agent list',
        'key create',
        'key list',
        'key revoke',
        'credits add',
      ]) {
        expect(r.stdout).to.include(`  ${command} `);
      }
      for (const flag of [
        '--credits',
        '--timezone',
        '--features',
        '--max-pending-jobs',
        '--min-credits',
        '--billing',
        '--requests-per-minute',
        '--system-prompt',
        '--model',
        '--tools',
        '--handoff-roster',
        '--handoff',
        '--outcomes',
        '--message-webhook-url',
        '--amount',
        '--json',
      ]) {
        expect(r.stdout).to.include(flag);
      }
    });

    it('exits 2 with one line for an unknown command, an unknown flag or a missing required flag', async () => {
      const [unknownCommand, unknownFlag, missingFlag] = await Promise.all([
        admin('tenant', 'delete', '--tenant', 'tnt_x'),
        admin('key', 'list', '--tenant', 'tnt_x', '--verbose'),
        admin('key', 'create', '--tenant', 'tnt_x'),
      ]);
      expectFailure(unknownCommand, 2, /unknown admin command "tenant delete"/);
      expectFailure(unknownFlag, 2, /Unknown option '--verbose'/);
      expectFailure(missingFlag, 2, /--name is required/);
    });
  });
});
