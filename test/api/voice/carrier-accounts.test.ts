import { expect } from 'chai';
import { carrierCredentials } from '../../../pkg/voice/carrier-accounts.js';
import { relayToken } from '../../../pkg/voice/gateways/relay-token.js';
import { TEST_ENCRYPTION_KEY, type Client } from '../../support/app.js';
import { finalResult, NUMBERS, startCallsApp, type CallsApp } from '../../support/calls.js';
import { switchboard, type CliResult } from '../../support/cli.js';
import { RelayCaller, RelayRefused } from '../../support/carrier/relay-caller.js';
import { startTelnyx, type TelnyxStandIn } from '../../support/carrier/telnyx.js';
import { startTwilio, type TwilioStandIn } from '../../support/carrier/twilio.js';
import { twilioSignature } from '../../support/carrier/twilio-signature.js';
import { eventually } from '../../support/eventually.js';
import { startTlsFront, type TlsFront } from '../../support/tls-front.js';

const DEPLOYMENT = { accountSid: `AC${'d0'.repeat(16)}`, authToken: 'deployment-auth-token-d0d0' };
const A = { accountSid: `AC${'a2'.repeat(16)}`, authToken: 'account-a-auth-token-7f3e91' };
const B = { accountSid: `AC${'b3'.repeat(16)}`, authToken: 'account-b-auth-token-4c2d88' };
const TOKENS = [DEPLOYMENT.authToken, A.authToken, B.authToken];
const EVENTS_URL = 'https://127.0.0.1:9/events';

const form = { 'content-type': 'application/x-www-form-urlencoded' };
/** A carrier request to `url` with `params`, signed with `authToken`. */
const signedPost = (url: string, params: Record<string, string>, authToken: string) =>
  fetch(url, {
    method: 'POST',
    headers: { ...form, 'x-twilio-signature': twilioSignature(authToken, url, params) },
    body: new URLSearchParams(params),
  });

/** `switchboard admin carrier set` for `tenantId`, the token on stdin, as an operator would. */
async function setCarrier(
  app: CallsApp,
  front: TlsFront,
  tenantId: string,
  account: { accountSid: string; authToken: string },
): Promise<CliResult> {
  const env = {
    DATABASE_URL: app.runtime.ctx.config.DATABASE_URL!,
    SWITCHBOARD_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
    SWITCHBOARD_PUBLIC_URL: front.url,
  };
  const set = await switchboard(
    ['admin', 'carrier', 'set', '--tenant', tenantId, '--carrier', 'twilio', '--account-sid', account.accountSid, '--json'],
    env,
    `${account.authToken}\n`,
  );
  expect(set.code, set.stderr).to.equal(0);
  return set;
}

/** The stand-in's call placed to `to`, once it is there. */
const placedTo = (twilio: TwilioStandIn, to: string) =>
  eventually(`the call to ${to} placed`, () => twilio.calls.find((c) => c.params.To === to));

describe('Carrier accounts of their own: each account on its Twilio account', function () {
  this.timeout(120_000);
  let twilio: TwilioStandIn;
  let front: TlsFront;
  let app: CallsApp;
  /** Two accounts with carrier accounts of their own, and one on the deployment's. */
  const companies: Record<'a' | 'b' | 'c', { client: Client; tenantId: string; number: string }> = {} as never;
  const cliOutput: string[] = [];

  before(async () => {
    twilio = await startTwilio({ ...DEPLOYMENT });
    twilio.addAccount(A);
    twilio.addAccount(B);
    front = await startTlsFront();
    app = await startCallsApp({
      controllers: true,
      env: {
        SWITCHBOARD_CARRIER: 'twilio',
        TWILIO_ACCOUNT_SID: DEPLOYMENT.accountSid,
        TWILIO_AUTH_TOKEN: DEPLOYMENT.authToken,
        TWILIO_API_BASE: twilio.url,
        SWITCHBOARD_PUBLIC_URL: front.url,
        SWITCHBOARD_LEASE_SEC: '3',
      },
    });
    front.forwardTo(app.url);
    for (const [name, number] of [
      ['a', '+12025556001'],
      ['b', '+12025556002'],
      ['c', '+12025556003'],
    ] as const) {
      const made = await app.routedCompany(number, (agent) => ({ type: 'ai', agent_id: agent, greeting: `Hello from ${name}.` }), {
        eventsUrl: EVENTS_URL,
      });
      companies[name] = { client: made.client, tenantId: made.tenantId, number };
    }
    for (const [name, account] of [
      ['a', A],
      ['b', B],
    ] as const) {
      const set = await setCarrier(app, front, companies[name].tenantId, account);
      cliOutput.push(set.stdout, set.stderr);
    }
  });
  after(async () => {
    await app?.close();
    await front?.close();
    await twilio?.close();
  });

  const place = async (who: 'a' | 'b' | 'c', to: string, task: string) => {
    const placed = await companies[who].client.post('/v1/calls', { to, task });
    expect(placed.status, JSON.stringify(placed.body)).to.equal(201);
    return placed.body.id as string;
  };

  it("places each account's call with its own carrier account, an account without one with the deployment's", async () => {
    const expected = { a: A.accountSid, b: B.accountSid, c: DEPLOYMENT.accountSid };
    const ids: Record<string, string> = {};
    for (const who of ['a', 'b', 'c'] as const) {
      const to = { a: '+12025556101', b: '+12025556102', c: '+12025556103' }[who];
      twilio.phones[to] = {
        answer: 'human',
        caller: async (c) => {
          c.say('Hi, who is this?');
          await c.reply();
          await c.hangUp();
        },
      };
      app.script(`Call for ${who}`, { content: `This is ${who}.` });
      ids[who] = await place(who, to, `Call for ${who}`);
    }
    for (const who of ['a', 'b', 'c'] as const) {
      // Its status callbacks and relay socket, signed with its own account's token, were heard.
      const result = await finalResult(companies[who].client, ids[who]!);
      expect(result.status, who).to.equal('completed');
      expect(result.transcript, who).to.deep.equal([
        { speaker: 'caller', text: 'Hi, who is this?' },
        { speaker: 'agent', text: `This is ${who}.` },
      ]);
      const carried = twilio.calls.find((c) => c.params.To === { a: '+12025556101', b: '+12025556102', c: '+12025556103' }[who])!;
      expect(carried.accountSid, who).to.equal(expected[who]);
      expect(carried.errors, who).to.deep.equal([]);
      expect(carried.conversationRelays[0]!.attributes.url).to.equal(
        `${front.url.replace('https', 'wss')}/v1/carrier/twilio/relay?tenant=${companies[who].tenantId}`,
      );
    }
  });

  it("refuses 403 a status callback of A's call signed with B's or the deployment's token, changing nothing", async () => {
    const to = '+12025556111';
    twilio.phones[to] = { answer: 'ring' };
    const id = await place('a', to, 'Ringing for a while');
    await placedTo(twilio, to);
    await eventually('the call ringing', async () => (await companies.a.client.get(`/v1/calls/${id}`)).body.status === 'ringing', {
      everyMs: 500,
    });
    const url = `${front.url}/v1/carrier/twilio/status?call=${id}`;
    const completed = { CallSid: twilio.calls.find((c) => c.params.To === to)!.sid, CallStatus: 'busy', AccountSid: A.accountSid };
    for (const token of [B.authToken, DEPLOYMENT.authToken]) expect((await signedPost(url, completed, token)).status).to.equal(403);
    const row = await app.runtime.ctx.db('calls').where({ id }).first();
    expect(row).to.include({ status: 'ringing', hangup_cause: null });
    // Signed with A's own token, the same callback is heard.
    expect((await signedPost(url, completed, A.authToken)).status).to.equal(204);
    expect((await finalResult(companies.a.client, id)).status).to.equal('busy');
  });

  it("refuses an inbound call on A's number signed with B's token, keeping no record, as it refuses an unknown number", async () => {
    const url = `${front.url}/v1/carrier/twilio/voice`;
    const ringing = (to: string, callSid: string) => ({
      AccountSid: B.accountSid,
      CallSid: callSid,
      From: '+12025556150',
      To: to,
      CallStatus: 'ringing',
      Direction: 'inbound',
    });
    const onA = await signedPost(url, ringing(companies.a.number, 'CA-signed-by-b'), B.authToken);
    expect(onA.status).to.equal(403);
    const unknown = await signedPost(url, ringing('+12025556999', 'CA-unknown-by-b'), B.authToken);
    expect(unknown.status).to.equal(403);
    expect(await unknown.text()).to.equal(await onA.text());
    expect(await app.runtime.ctx.db('calls').whereIn('carrier_sid', ['CA-signed-by-b', 'CA-unknown-by-b'])).to.deep.equal([]);
    // Rung in through A's own account, the call is answered and conducted.
    let greeting = '';
    const call = twilio.ringIn({
      accountSid: A.accountSid,
      to: companies.a.number,
      from: '+12025556151',
      voiceUrl: url,
      statusCallback: `${front.url}/v1/carrier/twilio/status`,
      caller: async (c) => {
        greeting = (await c.reply()).text;
        await c.hangUp();
      },
    });
    await call.done;
    expect(greeting).to.equal('Hello from a.');
    expect(call.errors).to.deep.equal([]);
    const row = await app.runtime.ctx.db('calls').where({ carrier_sid: call.sid }).first();
    expect(row).to.include({ tenant_id: companies.a.tenantId, direction: 'inbound' });
    // Its status callback (naming only the CallSid) was checked with A's token: the hang-up ended it.
    expect(await finalResult(companies.a.client, row.id)).to.include({ status: 'completed' });
    expect((await companies.a.client.get(`/v1/calls/${row.id}`)).body.hangup_cause).to.equal('caller_hangup');
  });

  it("refuses the relay handshake of A's call signed with B's token, and a socket B signs cannot take A's call", async () => {
    const to = '+12025556112';
    twilio.phones[to] = { answer: 'ring' };
    const id = await place('a', to, 'Relay of another account');
    const placed = await placedTo(twilio, to);
    const relay = new URL(String(placed.params.Url)).searchParams.get('relay')!;
    const setup = {
      callSid: placed.sid,
      accountSid: A.accountSid,
      from: companies.a.number,
      to,
      direction: 'outbound-api',
      customParameters: { relay, machine: 'false' },
    };
    const socketOf = (tenantId: string) => `${front.url.replace('https', 'wss')}/v1/carrier/twilio/relay?tenant=${tenantId}`;

    const refused = await RelayCaller.connect({ url: socketOf(companies.a.tenantId), authToken: B.authToken, setup }).catch((e) => e);
    expect(refused).to.be.instanceOf(RelayRefused);
    expect(refused.status).to.equal(403);
    // B signs its own socket and a relay parameter naming A's call with its own token: the call is not bound.
    const forged = relayToken(B.authToken, id, new Date(Date.now() + 600_000));
    const caller = await RelayCaller.connect({
      url: socketOf(companies.b.tenantId),
      authToken: B.authToken,
      setup: { ...setup, customParameters: { relay: forged, machine: 'false' } },
    });
    const end = await caller.ended;
    expect(end.by).to.not.equal('caller-hang-up');
    const row = await app.runtime.ctx.db('calls').where({ id }).first();
    expect(row).to.include({ status: 'ringing', relay_session: null });
    expect((await companies.a.client.post(`/v1/calls/${id}/hangup`, {})).status).to.equal(200);
  });

  it('shows the account its carrier but never a token, and keeps the token sealed', async () => {
    const mine = await companies.a.client.get(`/v1/tenants/${companies.a.tenantId}/carrier`);
    expect(mine.status).to.equal(200);
    expect(mine.body).to.deep.equal({
      carrier: 'twilio',
      source: 'account',
      account_sid: A.accountSid,
      connection_id: null,
      auth_token_set: true,
    });
    const deployment = await companies.c.client.get(`/v1/tenants/${companies.c.tenantId}/carrier`);
    expect(deployment.body).to.deep.equal({
      carrier: 'twilio',
      source: 'deployment',
      account_sid: null,
      connection_id: null,
      auth_token_set: false,
    });
    expect((await companies.b.client.get(`/v1/tenants/${companies.a.tenantId}/carrier`)).status).to.equal(404);
    const rows = await app.runtime.ctx.db('carrier_accounts').whereIn('tenant_id', [companies.a.tenantId, companies.b.tenantId]);
    expect(rows).to.have.length(2);
    for (const row of rows) {
      expect(row.auth_token_sealed).to.match(/^v1\./);
      for (const token of TOKENS) expect(JSON.stringify(row)).to.not.include(token);
    }
  });

  it('writes no auth token in any API answer, CLI output or log line', async () => {
    // Should credentials ever be logged whole, the logger still keeps the token out.
    app.runtime.ctx.log.info({ account: await carrierCredentials(app.runtime.ctx, companies.a.tenantId) }, 'carrier account in a log line');
    const answers = await Promise.all(
      ['a', 'b', 'c'].map((who) => companies[who as 'a'].client.get(`/v1/tenants/${companies[who as 'a'].tenantId}/carrier`)),
    );
    const seen = [...answers.map((r) => JSON.stringify(r.body)), ...cliOutput, ...app.logs].join('\n');
    expect(app.logs.join('')).to.include('carrier account in a log line');
    for (const token of TOKENS) expect(seen).to.not.include(token);
  });
});

describe('Carrier accounts of their own on a deployment with the simulator', function () {
  this.timeout(120_000);
  let twilio: TwilioStandIn;
  let telnyx: TelnyxStandIn;
  let front: TlsFront;
  let app: CallsApp;
  before(async () => {
    twilio = await startTwilio({ ...A });
    telnyx = await startTelnyx({
      accountSid: '3f1c7a52-0b8e-4d2a-9c61-5e4f2a7d9b10',
      connectionId: '2045187736512',
      apiKey: 'KEY01TELNYXACCOUNTOWN_7c1d',
    });
    front = await startTlsFront();
    app = await startCallsApp({
      controllers: true,
      env: { TWILIO_API_BASE: twilio.url, TELNYX_API_BASE: telnyx.url, SWITCHBOARD_PUBLIC_URL: front.url, SWITCHBOARD_LEASE_SEC: '3' },
    });
    front.forwardTo(app.url);
  });
  after(async () => {
    await app?.close();
    await front?.close();
    await twilio?.close();
    await telnyx?.close();
  });

  it('puts an account on its own Telnyx account: its calls placed through its TeXML application, its API key sealed', async () => {
    const company = await app.voiceCompany({ eventsUrl: EVENTS_URL });
    const env = {
      DATABASE_URL: app.runtime.ctx.config.DATABASE_URL!,
      SWITCHBOARD_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
      SWITCHBOARD_PUBLIC_URL: front.url,
    };
    const args = [
      'admin',
      'carrier',
      'set',
      '--tenant',
      company.tenantId,
      '--carrier',
      'telnyx',
      '--account-sid',
      telnyx.accountSid,
      '--connection-id',
      telnyx.connectionId,
    ];
    const badKey = await switchboard([...args, '--public-key', Buffer.alloc(16).toString('base64')], env, `${telnyx.apiKey}\n`);
    expect(badKey.code).to.not.equal(0);
    expect(badKey.stderr).to.include('public key');
    expect(await app.runtime.ctx.db('carrier_accounts').where({ tenant_id: company.tenantId }).first()).to.equal(undefined);
    const set = await switchboard([...args, '--public-key', telnyx.publicKey, '--json'], env, `${telnyx.apiKey}\n`);
    expect(set.code, set.stderr).to.equal(0);
    expect(set.stdout).to.not.include(telnyx.apiKey);
    expect((await company.client.get(`/v1/tenants/${company.tenantId}/carrier`)).body).to.deep.equal({
      carrier: 'telnyx',
      source: 'account',
      account_sid: telnyx.accountSid,
      connection_id: telnyx.connectionId,
      auth_token_set: true,
    });
    expect(JSON.stringify(await app.runtime.ctx.db('carrier_accounts').where({ tenant_id: company.tenantId }).first())).to.not.include(
      telnyx.apiKey,
    );

    const to = '+12025556311';
    const heard: string[] = [];
    telnyx.phones[to] = {
      answer: 'human',
      caller: async (c) => {
        c.say('Hello?');
        heard.push((await c.reply()).text);
        await c.hangUp();
      },
    };
    app.script('Through its own Telnyx account', { content: 'Hi, this is your reminder.' });
    const placed = await company.client.post('/v1/calls', { to, task: 'Through its own Telnyx account' });
    const result = await finalResult(company.client, placed.body.id);
    expect(result.status).to.equal('completed');
    expect(heard).to.deep.equal(['Hi, this is your reminder.']);
    expect(telnyx.calls.map((c) => c.params.To)).to.deep.equal([to]);
    expect(twilio.calls.map((c) => c.params.To)).to.not.include(to);
  });

  it('puts the account with its own carrier account on it, and only that account: the others stay on the simulator', async () => {
    const carried = await app.voiceCompany({ numbers: ['+12025556201'], eventsUrl: EVENTS_URL });
    const simulated = await app.voiceCompany({ numbers: ['+12025556202'], eventsUrl: EVENTS_URL });
    await setCarrier(app, front, carried.tenantId, A);

    // Busy at both ends: the stand-in has the carried call, the simulator's table the other.
    twilio.phones['+12025556301'] = { answer: 'busy' };
    const onCarrier = await carried.client.post('/v1/calls', { to: '+12025556301', task: 'Through Twilio' });
    const onSim = await simulated.client.post('/v1/calls', { to: NUMBERS.busy, task: 'Through the simulator' });
    expect((await finalResult(carried.client, onCarrier.body.id)).status).to.equal('busy');
    expect((await finalResult(simulated.client, onSim.body.id)).status).to.equal('busy');
    expect(twilio.calls.map((c) => [c.params.To, c.accountSid])).to.deep.equal([['+12025556301', A.accountSid]]);

    const ring = { to: '+12025556202', from: '+12025550150', lines: ['Hi'] };
    const refused = await carried.client.post('/v1/sim/calls', { ...ring, to: '+12025556201' });
    expect(refused.status).to.equal(404);
    expect(refused.body.error.code).to.equal('not_found');
    expect((await simulated.client.post('/v1/sim/calls', ring)).status).to.equal(201);
    expect((await simulated.client.get(`/v1/tenants/${simulated.tenantId}/carrier`)).body).to.deep.equal({
      carrier: 'sim',
      source: 'deployment',
      account_sid: null,
      connection_id: null,
      auth_token_set: false,
    });
  });
});
