import { generateKeyPairSync } from 'node:crypto';
import { expect } from 'chai';
import { ConfigError, loadConfig } from '../../../pkg/config.js';
import type { Client } from '../../support/app.js';
import { finalResult, outboxOf, startCallsApp, type CallsApp } from '../../support/calls.js';
import { sendAgain } from '../../support/carrier/call.js';
import { RelayCaller, RelayRefused } from '../../support/carrier/relay-caller.js';
import { startTelnyx, telnyxSettings, type TelnyxStandIn } from '../../support/carrier/telnyx.js';
import { startTlsFront, type TlsFront } from '../../support/tls-front.js';
import { eventually } from '../../support/eventually.js';
import { placeCall, relayCallTests } from './relay-calls.js';

const ACCOUNT_SID = '6a09cdc3-8948-47f0-aa62-74ac943d6c58';
const CONNECTION_ID = '1494404757140276705';
const API_KEY = 'KEY0188A2D4E3B5F67C_telnyxstandin';
// The deployment's caller id, which placed calls come from.
const OUR_NUMBER = '+12025550100';
const EVENTS_URL = 'https://127.0.0.1:9/events';
const form = { 'content-type': 'application/x-www-form-urlencoded' };

describe('Calls through Telnyx (TeXML and ConversationRelay)', function () {
  this.timeout(90_000);
  let telnyx: TelnyxStandIn;
  let front: TlsFront;
  let app: CallsApp;
  let client: Client;
  let tenantId: string;
  before(async () => {
    telnyx = await startTelnyx({ accountSid: ACCOUNT_SID, connectionId: CONNECTION_ID, apiKey: API_KEY });
    front = await startTlsFront();
    app = await startCallsApp({
      controllers: true,
      env: { ...telnyxSettings(telnyx, front.url), SWITCHBOARD_LEASE_SEC: '3', SWITCHBOARD_OUTBOUND_TIMEOUT_MS: '1500' },
    });
    front.forwardTo(app.url);
  });
  beforeEach(async () => {
    ({ client, tenantId } = await app.voiceCompany({ eventsUrl: EVENTS_URL }));
  });
  after(async () => {
    await app?.close();
    await front?.close();
    await telnyx?.close();
  });

  const place = (to: string, task: string) => placeCall(client, to, task);
  const placedTo = (to: string) => telnyx.calls.find((c) => c.params.To === to)!;
  /** Telnyx ringing one of the account's numbers, whose voice webhook and status callback are Switchboard's. */
  const ringIn = (call: Omit<Parameters<TelnyxStandIn['ringIn']>[0], 'voiceUrl' | 'statusCallback'>) =>
    telnyx.ringIn({ ...call, voiceUrl: `${front.url}/v1/carrier/telnyx/voice`, statusCallback: `${front.url}/v1/carrier/telnyx/status` });

  relayCallTests({
    name: 'telnyx',
    now: () => ({ app, client, standIn: telnyx }),
    number: (last4) => `+1312555${last4}`,
    rejected: { status: 422, code: 10004, message: 'To is not a valid number' },
  });

  it('places the call through the TeXML application with the API key, asking for every status and machine detection', async () => {
    const to = '+13125550161';
    telnyx.phones[to] = { answer: 'busy' };
    await finalResult(client, await place(to, 'Placed through Telnyx'));
    const placement = telnyx.requests.find(
      (r) => r.method === 'POST' && r.url === `/v2/texml/calls/${CONNECTION_ID}` && JSON.parse(r.body).To === to,
    )!;
    expect(placement.headers.authorization).to.equal(`Bearer ${API_KEY}`);
    expect(JSON.parse(placement.body)).to.include({
      From: OUR_NUMBER,
      Method: 'POST',
      StatusCallbackMethod: 'POST',
      StatusCallbackEvent: 'initiated ringing answered completed',
      MachineDetection: 'Enable',
      AsyncAmd: true,
    });
    expect(JSON.parse(placement.body).AsyncAmdStatusCallback).to.match(/\/v1\/carrier\/telnyx\/machine\?call=cal_\w+&sig=[\w-]{43}$/);
    // Each request Telnyx made came back signed to a sealed address, and was taken.
    const call = placedTo(to);
    expect(call.webhooks.map((w) => w.status)).to.deep.equal(call.webhooks.map(() => 204));
    expect(call.webhooks.map((w) => w.url)).to.satisfy((urls: string[]) => urls.every((u) => /[?&]sig=[\w-]{43}$/.test(u)));
  });

  it('hangs up a call on the relay through the REST API when asked over the Voice API', async () => {
    const to = '+13125550115';
    let spoke!: () => void;
    const answered = new Promise<void>((resolve) => (spoke = resolve));
    telnyx.phones[to] = {
      answer: 'human',
      caller: async (c) => {
        c.say('Hi there.');
        await c.reply();
        spoke();
        await c.nextOf('end');
      },
    };
    const task = 'Wait to be hung up over Telnyx';
    app.script(task, { content: 'Hello! One moment.' });
    const id = await place(to, task);
    await answered;
    expect((await client.post(`/v1/calls/${id}/hangup`, {})).status).to.equal(200);
    const result = await finalResult(client, id);
    expect(result.status).to.equal('completed');
    expect((await client.get(`/v1/calls/${id}`)).body.hangup_cause).to.equal('api_hangup');
  });

  it('refuses requests without a valid Ed25519 signature, signed too long ago, or sent to an address it was not given, changing nothing', async () => {
    const to = '+13125550118';
    telnyx.phones[to] = { answer: 'ring' };
    const id = await place(to, 'A Telnyx call nobody picks up');
    await eventually('ringing', async () => (await client.get(`/v1/calls/${id}`)).body.status === 'ringing');
    // The status callback's address as handed to Telnyx: Telnyx's signature leaves it out, so it is sealed.
    const statusUrl = String(placedTo(to).params.StatusCallback);
    expect(statusUrl).to.match(/\/v1\/carrier\/telnyx\/status\?call=cal_\w+&sig=[\w-]{43}$/);
    const body = new URLSearchParams({ CallSid: placedTo(to).sid, CallStatus: 'busy', AccountSid: ACCOUNT_SID }).toString();
    const other = await startTelnyx({ accountSid: ACCOUNT_SID, connectionId: CONNECTION_ID, apiKey: API_KEY });
    const good = telnyx.signed(body);
    try {
      for (const headers of [
        {},
        { 'telnyx-timestamp': good['telnyx-timestamp'] },
        { ...good, 'telnyx-signature-ed25519': Buffer.alloc(64).toString('base64') },
        other.signed(body),
        telnyx.signed(body, Math.floor(Date.now() / 1000) - 3600),
        telnyx.signed(`${body}&Extra=1`),
      ]) {
        const res = await fetch(statusUrl, { method: 'POST', headers: { ...form, ...headers }, body });
        expect(res.status).to.equal(403);
      }
      const twilioShaped = await fetch(statusUrl.replace('/telnyx/', '/twilio/'), { method: 'POST', headers: { ...form, ...good }, body });
      expect(twilioShaped.status).to.equal(403);
      // Rightly signed bodies, at addresses Switchboard did not give: another call's, or the seal left off.
      telnyx.phones['+13125550128'] = { answer: 'ring' };
      const another = await place('+13125550128', 'Another Telnyx call');
      await eventually('the other call ringing', async () => (await client.get(`/v1/calls/${another}`)).body.status === 'ringing');
      for (const url of [statusUrl.replace(`call=${id}`, `call=${another}`), statusUrl.replace(/&sig=.*$/, '')]) {
        expect((await fetch(url, { method: 'POST', headers: { ...form, ...telnyx.signed(body) }, body })).status, url).to.equal(403);
      }
      // The other call's own address, with this call's signed report: the report is not taken for it.
      const anotherStatus = String(placedTo('+13125550128').params.StatusCallback);
      await fetch(anotherStatus, { method: 'POST', headers: { ...form, ...telnyx.signed(body) }, body });
      expect((await client.get(`/v1/calls/${another}`)).body.status).to.equal('ringing');
      expect((await client.post(`/v1/calls/${another}/hangup`, {})).status).to.equal(200);
    } finally {
      await other.close();
    }
    expect((await client.get(`/v1/calls/${id}`)).body.status).to.equal('ringing');
    const voiceUrl = `${front.url}/v1/carrier/telnyx/voice`;
    const ringing = new URLSearchParams({ CallSid: 'v3:unsigned', From: '+13125550150', To: OUR_NUMBER, CallStatus: 'ringing' }).toString();
    expect((await fetch(voiceUrl, { method: 'POST', headers: form, body: ringing })).status).to.equal(403);
    expect(await app.runtime.ctx.db('calls').where({ carrier_sid: 'v3:unsigned' }).first()).to.equal(undefined);
    // Signed as Telnyx signs, the same report is taken.
    expect((await fetch(statusUrl, { method: 'POST', headers: { ...form, ...telnyx.signed(body) }, body })).status).to.equal(204);
    expect((await finalResult(client, id)).status).to.equal('busy');
  });

  it("takes the voicemail path when Telnyx's detection reports a machine after the agent began as with a person", async () => {
    const to = '+13125550164';
    let detected!: () => void;
    let spoken: string[] = [];
    telnyx.phones[to] = {
      answer: 'machine',
      detectedAfter: new Promise<void>((resolve) => (detected = resolve)),
      caller: async (c) => {
        c.say("Hi, you've reached Ann. Leave a message.");
        await c.reply();
        detected();
        await c.nextOf('end');
        spoken = c.sent('text').map((t) => t.token);
      },
    };
    const task = 'Remind Ann of the renewal, by voicemail if need be';
    app.script(
      task,
      { content: 'Hi Ann, is this a good time?' },
      { toolCalls: [{ name: 'leave_voicemail', arguments: { message: 'Hi Ann, please call us back about your renewal.' } }] },
      { content: '' },
    );
    const id = await place(to, task);
    const result = await finalResult(client, id);
    await placedTo(to).done;
    expect(placedTo(to).errors).to.deep.equal([]);
    expect(result.outcome).to.equal('voicemail');
    expect(spoken.join('')).to.include('please call us back about your renewal');
    const machineReports = placedTo(to).webhooks.filter((w) => w.purpose === 'amd');
    expect(machineReports.map((w) => [w.params.AnsweredBy, w.status])).to.deep.equal([['machine_start', 204]]);
  });

  it('refuses every route a request not signed by Telnyx, or at an address it was not given, changing nothing', async () => {
    const to = '+13125550162';
    telnyx.phones[to] = { answer: 'ring' };
    const id = await place(to, 'Telnyx routes refused');
    await eventually('ringing', async () => (await client.get(`/v1/calls/${id}`)).body.status === 'ringing');
    const sid = placedTo(to).sid;
    const base = `${front.url}/v1/carrier/telnyx`;
    const body = new URLSearchParams({
      AccountSid: ACCOUNT_SID,
      CallSid: sid,
      ParentCallSid: sid,
      CallStatus: 'completed',
      SessionStatus: 'ended',
      DialCallStatus: 'completed',
      Digits: '1',
      RecordingStatus: 'completed',
      RecordingDuration: '3',
      RecordingUrl: `${telnyx.url}/v2/recordings/x.wav`,
    }).toString();
    const other = await startTelnyx({ accountSid: ACCOUNT_SID, connectionId: CONNECTION_ID, apiKey: API_KEY });
    try {
      const paths = [
        '/answer?relay=x',
        '/voice',
        '/status',
        '/machine?call=x',
        '/relay-ended',
        '/transfer-answered?target=%2B13125550199',
        '/transfer-step-ended',
        '/transfer-ended?target=%2B13125550199',
        '/menu?attempt=0',
        '/voicemail-recorded',
        '/recording',
        '/queue-wait',
        '/queue-answered?member=m',
        '/queue-dialled?member=m',
      ];
      for (const path of paths) {
        for (const headers of [{}, other.signed(body)]) {
          expect((await fetch(`${base}${path}`, { method: 'POST', headers: { ...form, ...headers }, body })).status, path).to.equal(403);
        }
      }
      // Signed by Telnyx, but at addresses it was not handed (a query without the seal).
      for (const path of paths.filter((p) => p.includes('?'))) {
        expect(
          (await fetch(`${base}${path}`, { method: 'POST', headers: { ...form, ...telnyx.signed(body) }, body })).status,
          path,
        ).to.equal(403);
      }
    } finally {
      await other.close();
    }
    expect((await client.get(`/v1/calls/${id}`)).body).to.include({ status: 'ringing' });
    expect((await outboxOf(app, id)).map((e) => e.type)).to.deep.equal(['call.initiated']);
    expect((await client.post(`/v1/calls/${id}/hangup`, {})).status).to.equal(200);
  });

  it("binds a relay socket only to the call its address's parameter and its setup's callSid both name", async () => {
    const to = '+13125550129';
    telnyx.phones[to] = { answer: 'ring' };
    const task = 'A Telnyx socket opened by hand';
    app.script(task, { content: 'Still here.' });
    const id = await place(to, task);
    await eventually('ringing', async () => (await client.get(`/v1/calls/${id}`)).body.status === 'ringing');
    const call = placedTo(to);
    const relay = new URL(String(call.params.Url)).searchParams.get('relay')!;
    const url = `${front.url.replace('https', 'wss')}/v1/carrier/telnyx/relay?${new URLSearchParams({ tenant: tenantId, relay })}`;
    const setup = (callSid: string) => ({
      callSid,
      accountSid: ACCOUNT_SID,
      from: OUR_NUMBER,
      to,
      direction: 'outbound-api',
      customParameters: { relay, machine: 'false' },
    });
    const stranger = await RelayCaller.connect({ url, headers: {}, setup: setup('v3:another-call') });
    expect((await stranger.ended).by).to.equal('application-close');
    expect(await app.runtime.ctx.db('calls').where({ id }).first()).to.include({ relay_session: null });
    const carrier = await RelayCaller.connect({ url, headers: {}, setup: setup(call.sid) });
    carrier.say('Are you there?');
    expect((await carrier.reply()).text).to.equal('Still here.');
    expect((await client.post(`/v1/calls/${id}/hangup`, {})).status).to.equal(200);
    await carrier.ended;
  });

  it("refuses a relay socket whose address lacks its call's relay parameter, or brings a forged, expired or used one", async () => {
    const to = '+13125550119';
    telnyx.phones[to] = { answer: 'human', caller: async (c) => void (await c.hangUp()) };
    const id = await place(to, 'Telnyx replay check');
    await finalResult(client, id);
    const used = new URL(String(placedTo(to).params.Url)).searchParams.get('relay')!;
    const socket = (query: Record<string, string>) =>
      `${front.url.replace('https', 'wss')}/v1/carrier/telnyx/relay?${new URLSearchParams({ tenant: tenantId, ...query })}`;
    const setup = (relay: string) => ({
      callSid: 'v3:replayed',
      accountSid: ACCOUNT_SID,
      from: OUR_NUMBER,
      to,
      direction: 'outbound-api',
      customParameters: { relay, machine: 'false' },
    });
    const expired = `${id}.${Math.floor(Date.now() / 1000) - 60}.${used.split('.')[2]}`;
    const forged = `${id}.${Math.floor(Date.now() / 1000) + 600}.AAAA`;
    for (const relay of [undefined, forged, expired]) {
      const refused = await RelayCaller.connect({ url: socket(relay ? { relay } : {}), headers: {}, setup: setup(relay ?? used) }).catch(
        (e) => e,
      );
      expect(refused).to.be.instanceOf(RelayRefused);
      expect(refused.status).to.equal(403);
    }
    // A good parameter already used binds nothing: the socket is closed by the application.
    const replayed = await RelayCaller.connect({ url: socket({ relay: used }), headers: {}, setup: setup(used) });
    expect((await replayed.ended).by).to.equal('application-close');
    expect((await client.get(`/v1/calls/${id}`)).body).to.include({ status: 'completed' });
  });

  it("plays a number's routing as TeXML: a menu leads to a mailbox, the recording fetched from Telnyx and kept as the message", async () => {
    const number = '+13125554002';
    const { client: own, apiKey } = await app.routedCompany(number, null, { eventsUrl: EVENTS_URL });
    const mailboxId = (await own.post('/v1/mailboxes', { name: 'After hours', greeting: 'Leave a message after the tone.' })).body.id;
    const routing = {
      type: 'menu',
      prompt: 'Press 3 to leave a message.',
      options: { '3': { type: 'voicemail', mailbox_id: mailboxId } },
      fallback: { type: 'voicemail', mailbox_id: mailboxId },
    };
    expect((await own.patch(`/v1/numbers/${encodeURIComponent(number)}`, { routing })).status).to.equal(200);
    const call = ringIn({
      to: number,
      from: '+13125555002',
      gathers: [{ digits: '3' }],
      message: { seconds: 2, then: 'hangup' },
    });
    await call.done;
    expect(call.said).to.deep.equal(['Press 3 to leave a message.', 'Leave a message after the tone.']);
    // Each step's request came back to Telnyx's endpoints, signed, and was answered.
    expect(call.webhooks.map((w) => new URL(w.url).pathname)).to.include.members([
      '/v1/carrier/telnyx/menu',
      '/v1/carrier/telnyx/voicemail-recorded',
      '/v1/carrier/telnyx/recording',
    ]);
    expect(call.errors).to.deep.equal([]);
    const [recorded] = telnyx.recordings.filter((r) => r.callSid === call.sid);
    const message = await eventually('the voicemail kept', async () => (await own.get('/v1/messages')).body.data?.[0], { everyMs: 300 });
    expect(message).to.deep.include({ kind: 'voicemail', duration_sec: 2 });
    const fetched = telnyx.requests.filter((r) => r.url === `/v2/recordings/${recorded!.sid}.wav`);
    expect(fetched).to.have.length(1);
    expect(fetched[0]!.headers.authorization).to.equal(`Bearer ${API_KEY}`);
    const download = await fetch(`${app.url}/v1/messages/${message.id}/recording`, { headers: { authorization: `Bearer ${apiKey}` } });
    expect(Buffer.from(await download.arrayBuffer()).equals(recorded!.wav)).to.equal(true);
  });

  it('answers a request Telnyx delivers again (it says it may) as it answered it, and acts on it once', async () => {
    const number = '+13125554003';
    const menu = (agent: string) => ({
      type: 'menu',
      prompt: 'Press 2 for us.',
      options: { '2': { type: 'ai', agent_id: agent, greeting: 'Acme here.' } },
      fallback: { type: 'ai', agent_id: agent },
    });
    const { client: own } = await app.routedCompany(number, menu, { eventsUrl: EVENTS_URL });
    const answers: string[] = [];
    const call = ringIn({
      to: number,
      from: '+13125555003',
      gathers: [{ digits: '2' }],
      caller: async (c) => {
        await c.reply();
        // The menu's request delivered once more while the agent talks: the same signed request.
        const sent = call.webhooks.find((w) => w.url.includes('/menu?'))!;
        const again = await sendAgain(sent);
        answers.push(sent.body!, await again.text());
        await c.hangUp();
      },
    });
    const id = await eventually(
      'the inbound call',
      async () => (await own.get(`/v1/calls?to=${encodeURIComponent(number)}`)).body.data?.[0]?.id as string | undefined,
    );
    const result = await finalResult(own, id);
    await call.done;
    expect(answers[0]).to.include('<ConversationRelay');
    expect(answers[1]).to.equal(answers[0]);
    expect(result.transcript.map((t: { text: string }) => t.text)).to.deep.equal(['Press 2 for us.', '(pressed 2)', 'Acme here.']);
    const updated = (await app.runtime.ctx.db('webhook_outbox').where({ ordering_key: id, type: 'call.updated' }).orderBy('seq')).map(
      (e: { payload: any }) => e.payload.data.handler,
    );
    expect(updated).to.deep.equal(['menu', 'ai']);
    expect(call.errors).to.deep.equal([]);
  });

  it('answers a call ringing in on a Telnyx number with the relay: the agent greets and converses', async () => {
    const number = '+13125554001';
    const { client: own } = await app.routedCompany(
      number,
      (agent) => ({ type: 'ai', agent_id: agent, greeting: 'Thanks for calling Acme on Telnyx.' }),
      { eventsUrl: EVENTS_URL },
    );
    const heard: string[] = [];
    const from = '+13125555001';
    const call = ringIn({
      to: number,
      from,
      caller: async (c) => {
        heard.push((await c.reply()).text);
        c.say('What are your hours?');
        heard.push((await c.reply()).text);
        await c.hangUp();
      },
    });
    app.script(from, { content: 'We are open nine to five.' });
    const id = await eventually(
      'the inbound call',
      async () => (await own.get(`/v1/calls?to=${encodeURIComponent(number)}`)).body.data?.[0]?.id as string | undefined,
    );
    const result = await finalResult(own, id);
    await call.done;
    expect(heard).to.deep.equal(['Thanks for calling Acme on Telnyx.', 'We are open nine to five.']);
    expect(result.transcript).to.deep.equal([
      { speaker: 'agent', text: 'Thanks for calling Acme on Telnyx.' },
      { speaker: 'caller', text: 'What are your hours?' },
      { speaker: 'agent', text: 'We are open nine to five.' },
    ]);
    expect((await own.get(`/v1/calls/${id}`)).body).to.include({
      direction: 'inbound',
      from,
      to: number,
      status: 'completed',
      hangup_cause: 'caller_hangup',
    });
    expect(await app.runtime.ctx.db('calls').where({ id }).first()).to.include({ carrier_sid: call.sid });
  });
});

describe('SWITCHBOARD_CARRIER=telnyx settings', () => {
  const settings = {
    SWITCHBOARD_CARRIER: 'telnyx',
    SWITCHBOARD_PUBLIC_URL: 'https://voice.example.com',
    TELNYX_ACCOUNT_SID: ACCOUNT_SID,
    TELNYX_CONNECTION_ID: CONNECTION_ID,
    TELNYX_API_KEY: API_KEY,
    TELNYX_PUBLIC_KEY: Buffer.from(generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' }).x!, 'base64url').toString('base64'),
  };

  it('starts with all of them, and names each one missing', () => {
    expect(loadConfig(settings).SWITCHBOARD_CARRIER).to.equal('telnyx');
    for (const name of [
      'TELNYX_ACCOUNT_SID',
      'TELNYX_CONNECTION_ID',
      'TELNYX_API_KEY',
      'TELNYX_PUBLIC_KEY',
      'SWITCHBOARD_PUBLIC_URL',
    ] as const) {
      expect(() => loadConfig({ ...settings, [name]: '' }), name).to.throw(ConfigError, `${name}: required by SWITCHBOARD_CARRIER=telnyx`);
    }
  });

  it('refuses a public key that is not an Ed25519 key in base64', () => {
    for (const key of ['not base64!', Buffer.alloc(31).toString('base64'), `${settings.TELNYX_PUBLIC_KEY}AA`]) {
      expect(() => loadConfig({ ...settings, TELNYX_PUBLIC_KEY: key }), key).to.throw(ConfigError, 'TELNYX_PUBLIC_KEY');
    }
  });
});
