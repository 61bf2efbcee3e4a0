import { expect } from 'chai';
import { agentRef } from '../../../pkg/ids.js';
import { startTestApp, type TestApp } from '../../support/app.js';
import { adminCli, expectSuccess } from '../../support/cli.js';
import { expectVoiceError } from '../../support/errors.js';

const admin = adminCli();

// Numbers of this file only (the run's database is shared by every file that uses it).
const N = { a: '+12025550150', b: '+12025550151', c: '+12025550152', d: '+12025550153', e: '+12025550154', f: '+12025550155' };
const path = (number: string) => `/v1/numbers/${encodeURIComponent(number)}`;

describe('Numbers', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp();
  });
  after(async () => app?.close());

  describe('admin number add|list|remove', function () {
    // Each step spawns the CLI, a full node start.
    this.timeout(120_000);

    it('assigns numbers to an account, the first its default, and the account reads them at GET /v1/numbers', async () => {
      const { tenantId, client } = await app.company();
      const added = expectSuccess(await admin('number', 'add', '--tenant', tenantId, '--number', '(202) 555-0150'));
      expect(added).to.include({ number: N.a, tenantId, isDefault: true });
      expectSuccess(await admin('number', 'add', '--tenant', tenantId, '--number', N.b));
      expect(
        expectSuccess(await admin('number', 'list', '--tenant', tenantId)).numbers.map((n: any) => [n.number, n.isDefault]),
      ).to.deep.equal([
        [N.a, true],
        [N.b, false],
      ]);
      expectSuccess(await admin('number', 'add', '--tenant', tenantId, '--number', N.b, '--default'));
      const listed = await client.get('/v1/numbers');
      expect(listed.status).to.equal(200);
      expect(listed.body.data.map((n: any) => [n.number, n.default, n.name, n.routing])).to.deep.equal([
        [N.a, false, '', null],
        [N.b, true, '', null],
      ]);

      const other = await app.company();
      const taken = await admin('number', 'add', '--tenant', other.tenantId, '--number', N.a);
      expect(taken.code).to.equal(1);
      expect(taken.stderr).to.match(/assigned to another account/);

      expect(expectSuccess(await admin('number', 'remove', '--tenant', tenantId, '--number', N.b))).to.include({ removed: true });
      expect((await client.get('/v1/numbers')).body.data.map((n: any) => [n.number, n.default])).to.deep.equal([[N.a, true]]);
      expect((await admin('number', 'add', '--tenant', tenantId, '--number', 'nobody')).code).to.equal(2);
    });
  });

  describe('GET/PATCH /v1/numbers/{e164}', () => {
    it("reads one number, written with + or %2B; another account's answers 404", async () => {
      const { client } = await app.company({ numbers: [N.c] });
      const read = await client.get(path(N.c));
      expect(read.status).to.equal(200);
      expect(read.body).to.deep.include({ number: N.c, name: '', default: true, routing: null });
      expect((await client.get(`/v1/numbers/${N.c}`)).body.number).to.equal(N.c);
      const other = await app.company();
      expectVoiceError(await other.client.get(path(N.c)), 404, 'not_found');
      expectVoiceError(await other.client.patch(path(N.c), { name: 'Mine now' }), 404, 'not_found');
      expectVoiceError(await client.get('/v1/numbers/not-a-number'), 404, 'not_found');
    });

    it('names and routes a number with every kind of step, transfer numbers stored in E.164', async () => {
      const { client, agentId } = await app.company({ numbers: [N.d] });
      const ai = { type: 'ai', agent_id: agentRef(agentId), greeting: 'Hello from Acme' };
      const routing = {
        type: 'webhook',
        url: 'https://127.0.0.1:9/route',
        fallback: {
          type: 'menu',
          prompt: 'Press 1 for sales, 2 for the front desk',
          options: { '1': ai, '2': { type: 'transfer', to: '(202) 555-0120' } },
          fallback: ai,
        },
      };
      const res = await client.patch(path(N.d), { name: 'Main line', routing });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      const stored = {
        ...routing,
        fallback: { ...routing.fallback, timeout_sec: 5, retries: 3, options: { '1': ai, '2': { type: 'transfer', to: '+12025550120' } } },
      };
      expect(res.body).to.deep.include({ number: N.d, name: 'Main line', routing: stored });
      expect((await client.get(path(N.d))).body.routing).to.deep.equal(stored);
      const cleared = await client.patch(path(N.d), { routing: null });
      expect(cleared.body).to.deep.include({ name: 'Main line', routing: null });
    });

    it('refuses a bad step with 422 invalid_routing naming its path, and changes nothing', async () => {
      const { client, agentId } = await app.company({ numbers: [N.e] });
      const ai = { type: 'ai', agent_id: agentRef(agentId) };
      const menu = (options: object, fallback: object = ai) => ({ type: 'menu', prompt: 'Choose', options, fallback });
      const nested = (depth: number): object =>
        depth === 1 ? ai : { type: 'webhook', url: 'https://127.0.0.1:9/r', fallback: nested(depth - 1) };
      const cases: [object, RegExp][] = [
        [menu({ '1': { type: 'ai', agent_id: 'agt_01J00000000000000000000000' } }), /^routing\.options\.1\.agent_id: /],
        [menu({ '1': ai }, { type: 'transfer', to: 'nowhere' }), /^routing\.fallback\.to: /],
        [menu({ '1': ai, '2': { type: 'webhook', url: 'http://example.com/route', fallback: ai } }), /^routing\.options\.2\.url: /],
        [menu({}), /^routing\.options: /],
        [menu({ '12': ai }), /^routing\.options/],
        [menu({ '1': { type: 'fax' } }), /^routing\.options\.1/],
        [menu({ '1': { type: 'queue', queue_id: 'que_nothing' } }), /^routing\.options\.1\.queue_id: /],
        [{ type: 'voicemail', mailbox_id: 'mbx_nothing' }, /^routing\.mailbox_id: /],
        [{ type: 'ai' }, /^routing\.agent_id: /],
        [nested(6), /^routing(\.fallback){5}: .*at most 5/],
      ];
      for (const [routing, message] of cases)
        expectVoiceError(await client.patch(path(N.e), { name: 'Changed', routing }), 422, 'invalid_routing', message);
      expect((await client.patch(path(N.e), { routing: nested(5) })).status).to.equal(200);
      expect((await client.patch(path(N.e), { routing: { ...ai, extra: 1 } })).status).to.equal(400);
      expect((await client.get(path(N.e))).body).to.deep.include({ name: '', routing: nested(5) });
    });
  });

  describe('POST /v1/calls from', () => {
    it("places a call from one of the account's numbers, its default when it names none, and refuses any other with 422 invalid_from", async () => {
      const { client } = await app.company({ numbers: [N.f] });
      const owned = await client.post('/v1/calls', { to: '+12025550110', from: '(202) 555-0155' });
      expect(owned.status, JSON.stringify(owned.body)).to.equal(201);
      expect(owned.body.from).to.equal(N.f);
      expect((await client.post('/v1/calls', { to: '+12025550110' })).body.from).to.equal(N.f);
      // Someone else's caller id, another account's number: refused, nothing placed.
      expectVoiceError(
        await client.post('/v1/calls', { to: '+12025550110', from: '+12025550190' }),
        422,
        'invalid_from',
        /not one of the account's numbers/,
      );
      expectVoiceError(await client.post('/v1/calls', { to: '+12025550110', from: N.c }), 422, 'invalid_from');
      expect((await client.get('/v1/calls')).body.data).to.have.length(2);
    });
  });
});
