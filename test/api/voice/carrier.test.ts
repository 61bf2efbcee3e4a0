import { expect } from 'chai';
import pg from 'pg';
import type { Client } from '../../support/app.js';
import { finalResult, outboxOf, startCallsApp, type CallsApp } from '../../support/calls.js';
import { sendAgain } from '../../support/carrier/call.js';
import { RelayCaller, RelayRefused } from '../../support/carrier/relay-caller.js';
import { carrierSettings, startTwilio, type TwilioStandIn } from '../../support/carrier/twilio.js';
import { twilioSignature } from '../../support/carrier/twilio-signature.js';
import { startTlsFront, type TlsFront } from '../../support/tls-front.js';
import { eventually } from '../../support/eventually.js';
import { placeCall, relayCallTests } from './relay-calls.js';
import { CHANNELS, notify } from '../../../pkg/db/notify.js';
import { lockOrderingKey } from '../../../pkg/store/webhooks.js';

const ACCOUNT_SID = `AC${'a1'.repeat(16)}`;
const AUTH_TOKEN = 'twilio-auth-token-for-tests';
const OUR_NUMBER = '+12025550100';
const EVENTS_URL = 'https://127.0.0.1:9/events';
/** A setup message as Twilio sends it for a placed call, with the given custom parameters. */
const setupOf = (customParameters: Record<string, string>) => ({
  callSid: 'CA0000',
  accountSid: ACCOUNT_SID,
  from: OUR_NUMBER,
  to: '+12025550199',
  direction: 'outbound-api',
  customParameters,
});

interface TwilioCallsApp {
  twilio: TwilioStandIn;
  front: TlsFront;
  app: CallsApp;
}

/**
 * For the describe it is called in: a Twilio stand-in, and a calls app with controllers (SWITCHBOARD_LEASE_SEC 3)
 * behind a TLS front, the deployment's public address as a load balancer would be; `started` is handed them.
 */
function twilioCallsApp(opts: { manualClock?: boolean; env?: Record<string, string> }, started: (them: TwilioCallsApp) => void): void {
  const them: Partial<TwilioCallsApp> = {};
  before(async () => {
    them.twilio = await startTwilio({ accountSid: ACCOUNT_SID, authToken: AUTH_TOKEN, numbers: [OUR_NUMBER] });
    them.front = await startTlsFront();
    const env = { ...carrierSettings(them.twilio, them.front.url), SWITCHBOARD_LEASE_SEC: '3', ...opts.env };
    them.app = await startCallsApp({ controllers: true, manualClock: opts.manualClock, env });
    them.front.forwardTo(them.app.url);
    started(them as TwilioCallsApp);
  });
  after(async () => {
    await them.app?.close();
    await them.front?.close();
    await them.twilio?.close();
  });
}

/** `to` asks for sales, and the agent (given `task`) transfers them to `target`, who stays on the bridge until the call is hung up. */
function transferToStay(twilio: TwilioStandIn, app: CallsApp, to: string, target: string, task: string): void {
  twilio.phones[target] = { answer: 'human', staysOn: true };
  twilio.phones[to] = {
    answer: 'human',
    caller: async (c) => {
      c.say('Can I talk to sales?');
      await c.reply();
      await c.nextOf('end');
    },
  };
  app.script(
    task,
    { toolCalls: [{ name: 'transfer_call', arguments: { target, name: 'Sales' } }] },
    { content: 'Connecting you to sales now.' },
  );
}

describe('Calls through Twilio (ConversationRelay)', function () {
  this.timeout(90_000);
  let twilio: TwilioStandIn;
  let front: TlsFront;
  let app: CallsApp;
  let client: Client;
  let tenantId: string;
  // A placement the carrier never answers fails after SWITCHBOARD_OUTBOUND_TIMEOUT_MS.
  twilioCallsApp({ env: { SWITCHBOARD_OUTBOUND_TIMEOUT_MS: '1500' } }, (started) => ({ twilio, front, app } = started));
  // A company per test, each calling from the deployment's caller id: one account places 30 calls a minute.
  beforeEach(async () => {
    ({ client, tenantId } = await app.voiceCompany({ eventsUrl: EVENTS_URL }));
  });

  const place = (to: string, task: string) => placeCall(client, to, task);
  relayCallTests({
    name: 'twilio',
    now: () => ({ app, client, standIn: twilio }),
    number: (last4) => `+1202555${last4}`,
    rejected: { status: 400, code: 21211, message: 'Invalid To' },
  });

  it('places the call with the address Twilio asks for its TwiML and its status callbacks, both POST', async () => {
    const to = '+12025550161';
    twilio.phones[to] = { answer: 'busy' };
    await finalResult(client, await place(to, 'Placed through Twilio'));
    const placed = twilio.calls.find((c) => c.params.To === to)!;
    expect(placed.params).to.include({ From: OUR_NUMBER, Method: 'POST', StatusCallbackMethod: 'POST', MachineDetection: 'Enable' });
    expect(String(placed.params.Url)).to.match(/\/v1\/carrier\/twilio\/answer\?relay=cal_/);
  });

  /** The REST requests that hung up the carrier's call `sid`. */
  const hangUpsOf = (sid: string) =>
    twilio.requests.filter(
      (r) => r.method === 'POST' && r.url.endsWith(`/Calls/${sid}.json`) && new URLSearchParams(r.body).get('Status') === 'completed',
    );

  it("records the agent's hang-up before Twilio hears the relay session end: agent_hangup, not the carrier's report of it", async () => {
    const to = '+12025550154';
    let go!: () => void;
    const spoken = new Promise<void>((resolve) => (go = resolve));
    let ended = false;
    twilio.phones[to] = {
      answer: 'human',
      caller: async (c) => {
        await spoken;
        c.say('That is all, thanks.');
        await c.reply();
        await c.nextOf('end');
        ended = true;
      },
    };
    const task = 'Say goodbye and hang up';
    app.script(task, { toolCalls: [{ name: 'end_call', arguments: { outcome: 'completed', note: 'Done' } }] }, { content: 'Goodbye!' });
    const id = await place(to, task);
    await eventually('the call answered', async () => (await outboxOf(app, id)).some((e) => e.type === 'call.updated'));
    const { db } = app.runtime.ctx;
    // The call's events held (their ordering key's lock, which recording the end takes): the relay's end waits for it, or is sent first.
    const holder = await db.transaction();
    let endedWhileHeld: boolean;
    try {
      await lockOrderingKey(holder, id);
      go();
      // The end being recorded: the call's row written, its event waiting on the key (a delivery being settled waits there too).
      const waiting = async () =>
        Number(
          (
            await db.raw(`select count(*) as n from pg_stat_activity a where a.wait_event = 'advisory' and a.datname = current_database()
              and exists (select 1 from pg_locks l where l.pid = a.pid and l.relation = 'calls'::regclass and l.mode = 'RowExclusiveLock')`)
          ).rows[0].n,
        ) > 0;
      await eventually('the end being recorded, or sent', async () => ended || (await waiting()));
      // An end sent without waiting for the key would reach the relay within this (nothing marks one not sent).
      await new Promise((resolve) => setTimeout(resolve, 250));
      endedWhileHeld = ended;
    } finally {
      await holder.commit();
    }
    await finalResult(client, id);
    expect(endedWhileHeld, 'the relay session ended before the hang-up was recorded').to.equal(false);
    expect(ended).to.equal(true);
    expect((await client.get(`/v1/calls/${id}`)).body).to.include({ status: 'completed', hangup_cause: 'agent_hangup' });
  });

  it("stores the agent's reply in the transcript before the caller hears its end: no word heard is lost", async () => {
    const to = '+12025550129';
    let id = '';
    let atEnd: { speaker: string; text: string }[] | undefined;
    twilio.phones[to] = {
      answer: 'human',
      caller: async (c) => {
        c.say('When do you open?');
        await c.reply();
        atEnd = (await client.get(`/v1/calls/${id}/result`)).body.transcript;
        await c.hangUp();
      },
    };
    const task = 'Say when the shop opens';
    let rest!: () => void;
    app.script(task, { chunks: ['We open ', 'at nine.'], holdAfterFirst: new Promise<void>((resolve) => (rest = resolve)) });
    id = await place(to, task);
    const { db } = app.runtime.ctx;
    const transcript = async () => ((await db('calls').where({ id }).first())?.transcript ?? []) as unknown[];
    await eventually("the caller's words stored", async () => (await transcript()).length === 1);

    // The call's row held while the model writes the rest: the reply's end waits for it, or is heard first.
    const holder = await db.transaction();
    try {
      await holder('calls').where({ id }).forUpdate().first();
      rest();
      const waiting = async () =>
        Number(
          (await db.raw(`select count(*) as n from pg_stat_activity where wait_event_type = 'Lock' and datname = current_database()`))
            .rows[0].n,
        ) > 0;
      await eventually('a write waiting on the row, or the end heard', async () => atEnd !== undefined || (await waiting()));
      // A reply whose end went out before its transcript line would be heard meanwhile.
      await new Promise((resolve) => setTimeout(resolve, 250));
    } finally {
      await holder.commit();
    }
    await finalResult(client, id);
    expect(atEnd).to.deep.equal([
      { speaker: 'caller', text: 'When do you open?' },
      { speaker: 'agent', text: 'We open at nine.' },
    ]);
  });

  it('steering and a hang-up over the API reach a call on the relay: the agent says the words, then the relay session ends', async () => {
    const to = '+12025550117';
    let said: any;
    let relay!: RelayCaller;
    twilio.phones[to] = {
      answer: 'human',
      caller: async (c) => {
        relay = c;
        c.say('Hello?');
        await c.reply();
        said = await c.nextOf('end').catch(() => null);
      },
    };
    const task = 'Wait for the operator';
    app.script(task, { content: 'One moment please.' });
    const id = await place(to, task);
    await eventually('the agent on the line', async () => (await client.get(`/v1/calls/${id}/result`)).body.transcript.length === 2);
    expect((await client.post(`/v1/calls/${id}/steer`, { say: 'Your order has shipped.' })).status).to.equal(202);
    await eventually('the steered words spoken', () => relay.sent('text').some((t) => t.token === 'Your order has shipped.' && t.last));
    expect((await client.post(`/v1/calls/${id}/hangup`, {})).status).to.equal(200);
    const result = await finalResult(client, id);
    await twilio.calls.find((c) => c.params.To === to)!.done;
    expect(result.status).to.equal('completed');
    expect(said).to.have.property('type', 'end');
    expect((await client.get(`/v1/calls/${id}`)).body.hangup_cause).to.equal('api_hangup');
  });

  /** A caller asking two questions on `to`, the second once `ready` settles; the replies heard, in order. */
  function twoQuestions(to: string, ready: Promise<unknown>): string[] {
    const replies: string[] = [];
    twilio.phones[to] = {
      answer: 'human',
      caller: async (c) => {
        c.say('Where is my order?');
        replies.push((await c.reply()).text);
        await ready;
        c.say('When does it arrive?');
        replies.push((await c.reply()).text);
        await c.hangUp();
      },
    };
    return replies;
  }

  // The second question is asked at once: a request without the steering in its messages is one begun before it was read, never to be heard.
  const steeredAnswer = (request: { messages: unknown[] }) => ({
    content: JSON.stringify(request.messages).includes('STEER') ? 'It arrives on Friday.' : 'Unsteered words.',
  });

  it('takes steering posted while the agent answered before its next reply', async () => {
    const to = '+12025550126';
    const replies = twoQuestions(to, Promise.resolve());
    const task = 'Steered while answering';
    let steered!: () => void;
    const steering = new Promise<void>((resolve) => (steered = resolve));
    app.script(
      task,
      async () => {
        await steering;
        return { content: 'Let me look.' };
      },
      steeredAnswer,
      steeredAnswer,
    );
    const id = await place(to, task);
    await eventually('the agent asked the first question', () =>
      app.model.requests.some((r) => JSON.stringify(r.messages).includes('Where is my order?')),
    );
    expect((await client.post(`/v1/calls/${id}/steer`, { instruction: 'Say it arrives on Friday.' })).status).to.equal(202);
    steered();

    const result = await finalResult(client, id);
    expect(replies).to.deep.equal(['Let me look.', 'It arrives on Friday.']);
    expect(result.transcript.map((t: { text: string }) => t.text)).to.deep.equal([
      'Where is my order?',
      'Let me look.',
      'When does it arrive?',
      'It arrives on Friday.',
    ]);
  });

  it('asks the agent again when it finds steering not yet announced: the reply begun without it is never said', async () => {
    const to = '+12025550127';
    let written!: () => void;
    const replies = twoQuestions(to, new Promise<void>((resolve) => (written = resolve)));
    const task = 'Steered unannounced';
    app.script(task, { content: 'Let me look.' }, steeredAnswer, steeredAnswer);
    const id = await place(to, task);
    await eventually('the first reply heard', () => replies.length === 1);
    // Steering whose notification has not reached the call's process yet: in the row only.
    const item = { instruction: 'Say it arrives on Friday.', at: new Date().toISOString() };
    await app.runtime.ctx
      .db('calls')
      .where({ id })
      .update({ steering: app.runtime.ctx.db.raw('steering || ?::jsonb', [JSON.stringify([item])]) });
    written();

    await finalResult(client, id);
    expect(replies).to.deep.equal(['Let me look.', 'It arrives on Friday.']);
  });

  /**
   * The relay socket of call `id` (ringing at `to`, which the stand-in never answers), opened by the
   * test as Twilio would on answer, while the test holds the call's row: binding waits until `locked` ends.
   */
  async function relayWhileBinding(to: string, id: string) {
    const { open } = await ringing(to);
    const locked = await app.runtime.ctx.db.transaction();
    await locked('calls').where({ id }).forUpdate().first();
    return { caller: await open(), locked };
  }

  /** The stand-in's call ringing at `to`, its ringing report answered, and the opening of its relay socket as Twilio would on answer. */
  async function ringing(to: string) {
    await eventually('the call ringing', () => twilio.calls.some((c) => c.params.To === to && c.status === 'ringing'));
    const placed = twilio.calls.find((c) => c.params.To === to)!;
    // Answered before a test holds the call's row: a report still on its way would wait there too.
    await eventually('the ringing report answered', () =>
      placed.webhooks.some((w) => w.purpose === 'status' && w.params.CallStatus === 'ringing' && w.status !== undefined),
    );
    const relay = new URL(String(placed.params.Url)).searchParams.get('relay')!;
    const url = `${front.url.replace('https', 'wss')}/v1/carrier/twilio/relay?tenant=${tenantId}`;
    return { placed, open: () => RelayCaller.connect({ url, authToken: AUTH_TOKEN, setup: setupOf({ relay, machine: 'false' }) }) };
  }

  it('hears a prompt the carrier sends right after setup, while the socket is still being bound to its call', async () => {
    const to = '+12025550124';
    // The stand-in never answers this call: the test opens its relay socket itself, as Twilio would on answer.
    twilio.phones[to] = { answer: 'ring' };
    const task = 'Answer at once';
    app.script(task, { content: 'Yes, I can hear you.' });
    const id = await place(to, task);
    // Binding the socket to the call waits on the call's row while the caller's first words arrive.
    const { caller, locked } = await relayWhileBinding(to, id);
    caller.say('Hello, can you hear me?');
    await caller.roundTrip();
    await locked.commit();
    expect((await caller.reply()).text).to.equal('Yes, I can hear you.');
    expect((await client.post(`/v1/calls/${id}/hangup`, {})).status).to.equal(200);
    await caller.ended;
  });

  it('learns of a socket closed while it was being bound to its call: the call is not held by a line that is gone', async () => {
    const to = '+12025550125';
    twilio.phones[to] = { answer: 'ring' };
    const id = await place(to, 'Gone at once');
    const { caller, locked } = await relayWhileBinding(to, id);
    await caller.roundTrip();
    await caller.disconnect();
    await locked.commit();
    // No end report comes for it: once its lease runs out, the sweep fails the call.
    // Polled slowly: the key's requests a minute are limited.
    await eventually('the call failed', async () => (await client.get(`/v1/calls/${id}`)).body.status === 'failed', {
      withinMs: 40_000,
      everyMs: 500,
    });
    expect((await client.get(`/v1/calls/${id}`)).body.hangup_cause).to.equal('interrupted');
  });

  it('a ringing report that lands while the socket is being bound does not end the call: the agent answers', async () => {
    const to = '+12025550148';
    twilio.phones[to] = { answer: 'ring' };
    const task = 'A late ringing report';
    app.script(task, { content: 'Yes, I am here.' });
    const id = await place(to, task);
    const { placed, open } = await ringing(to);
    // Connections of the test's own, so that the app's pool is left for the bind and the report.
    const holder = new pg.Client({ connectionString: app.runtime.ctx.config.DATABASE_URL });
    const probe = new pg.Client({ connectionString: app.runtime.ctx.config.DATABASE_URL });
    await Promise.all([holder.connect(), probe.connect()]);
    try {
      // The row as it was before the carrier's ringing report, then held by the test: the socket binds a queued call.
      await holder.query(`update calls set status = 'queued', ringing_at = null where id = $1`, [id]);
      await holder.query('begin');
      await holder.query('select 1 from calls where id = $1 for update', [id]);
      const caller = await open();
      // The statements waiting on the row: the bind's (setting relay_session), the report's (locking it).
      const waiting = async (statement: string) =>
        Number(
          (await probe.query(`select count(*) as n from pg_stat_activity where wait_event_type = 'Lock' and query like $1`, [statement]))
            .rows[0].n,
        );
      await eventually('the bind waiting on the row', async () => (await waiting('update "calls" set %"relay_session"%')) === 1);
      // Twilio's ringing report, late: it waits behind the bind, and moves the call on before the call's own loop does.
      const statusUrl = String(placed.params.StatusCallback);
      const report = { CallSid: placed.sid, AccountSid: ACCOUNT_SID, CallStatus: 'ringing' };
      let answered = 0;
      const reported = fetch(statusUrl, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          'x-twilio-signature': twilioSignature(AUTH_TOKEN, statusUrl, report),
        },
        body: new URLSearchParams(report),
      }).then((r) => (answered = r.status));
      await eventually('the report waiting behind it', async () => (await waiting('select % from "calls" % for update')) === 1);
      await holder.query('commit');
      await reported;
      expect(answered).to.equal(204);
      caller.say('Are you there?');
      expect((await caller.reply()).text).to.equal('Yes, I am here.');
      expect((await client.post(`/v1/calls/${id}/hangup`, {})).status).to.equal(200);
      await caller.ended;
      expect((await client.get(`/v1/calls/${id}`)).body).to.include({ status: 'completed', hangup_cause: 'api_hangup' });
    } finally {
      await Promise.all([holder.end(), probe.end()]);
    }
  });

  it('a person who picks up and hangs up at once: the hang-up reported while the answer is written ends the call answered', async () => {
    const to = '+12025550159';
    twilio.phones[to] = { answer: 'ring' };
    const id = await place(to, 'Gone as soon as picked up');
    const { placed } = await ringing(to);
    const holder = new pg.Client({ connectionString: app.runtime.ctx.config.DATABASE_URL });
    const probe = new pg.Client({ connectionString: app.runtime.ctx.config.DATABASE_URL });
    await Promise.all([holder.connect(), probe.connect()]);
    try {
      // The answer being written holds the call's row while Twilio's report of the hang-up lands.
      await holder.query('begin');
      await holder.query('select 1 from calls where id = $1 for update', [id]);
      const statusUrl = String(placed.params.StatusCallback);
      const report = { CallSid: placed.sid, AccountSid: ACCOUNT_SID, CallStatus: 'completed' };
      const reported = fetch(statusUrl, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          'x-twilio-signature': twilioSignature(AUTH_TOKEN, statusUrl, report),
        },
        body: new URLSearchParams(report),
      });
      const waiting = async () =>
        Number(
          (await probe.query(`select count(*) as n from pg_stat_activity where wait_event_type = 'Lock' and query like '%"calls"%'`))
            .rows[0].n,
        );
      await eventually('the report waiting on the row', async () => (await waiting()) === 1);
      await holder.query(`update calls set status = 'in-progress', answered_at = now() where id = $1`, [id]);
      await holder.query('commit');
      expect((await reported).status).to.equal(204);
      await eventually('the call ended', async () => (await client.get(`/v1/calls/${id}`)).body.status !== 'in-progress', { everyMs: 200 });
      expect((await client.get(`/v1/calls/${id}`)).body).to.include({ status: 'completed', hangup_cause: 'callee_hangup' });
    } finally {
      await Promise.all([holder.end(), probe.end()]);
      placed.hangUpByApi('canceled');
      await placed.done;
    }
  });

  it('a relay socket that drops with no report from the carrier: the sweep fails the call once its lease runs out, and hangs it up at the carrier', async () => {
    const to = '+12025550141';
    twilio.phones[to] = {
      answer: 'human',
      unreported: true,
      caller: async (c) => {
        c.say('Hello?');
        await c.reply();
        await c.disconnect();
      },
    };
    const task = 'Lost on the way';
    app.script(task, { content: 'Hello, this is Acme.' });
    const { client: own } = await app.voiceCompany({ eventsUrl: EVENTS_URL, maxConcurrentCalls: 1 });
    const placed = await own.post('/v1/calls', { to, task });
    expect(placed.status, JSON.stringify(placed.body)).to.equal(201);
    const id = placed.body.id as string;
    const result = await finalResult(own, id);
    const carried = twilio.calls.find((c) => c.params.To === to)!;
    await eventually('the carrier asked to hang up', () => hangUpsOf(carried.sid).length > 0, { withinMs: 30_000 });
    await carried.done;
    expect(result.status).to.equal('failed');
    expect((await own.get(`/v1/calls/${id}`)).body.hangup_cause).to.equal('interrupted');
    expect(result.transcript).to.deep.equal([
      { speaker: 'caller', text: 'Hello?' },
      { speaker: 'agent', text: 'Hello, this is Acme.' },
    ]);
    expect(hangUpsOf(carried.sid)).to.have.length(1);
    // No report came before the hang-up: the carrier's only one is its completed callback after it.
    expect(carried.webhooks.filter((w) => w.purpose !== 'status' && w.purpose !== 'twiml')).to.deep.equal([]);
    expect((await outboxOf(app, id)).map((e) => e.type)).to.include('call.ended');
    // The call's slot was given back: the account's only one takes the next call.
    twilio.phones['+12025550142'] = { answer: 'busy' };
    expect((await own.post('/v1/calls', { to: '+12025550142', task: 'Next' })).status).to.equal(201);
  });

  it('has no simulated network to ring in through when a carrier is configured', async () => {
    const res = await client.post('/v1/sim/calls', { to: OUR_NUMBER, from: '+12025550150', lines: ['Hi'] });
    expect(res.status).to.equal(404);
    expect(res.body.error.code).to.equal('not_found');
  });

  it('refuses carrier requests without a valid X-Twilio-Signature, changing nothing', async () => {
    const statusUrl = `${front.url}/v1/carrier/twilio/status?call=cal_x`;
    const body = new URLSearchParams({ CallSid: 'CA1', CallStatus: 'completed' });
    for (const signature of [
      undefined,
      'bm90IGEgc2lnbmF0dXJl',
      twilioSignature('another-token', statusUrl, { CallSid: 'CA1', CallStatus: 'completed' }),
    ]) {
      const res = await fetch(statusUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...(signature ? { 'x-twilio-signature': signature } : {}) },
        body,
      });
      expect(res.status).to.equal(403);
    }
    const voiceUrl = `${front.url}/v1/carrier/twilio/voice`;
    const ringing = { CallSid: 'CA-unsigned', From: '+12025550150', To: OUR_NUMBER, CallStatus: 'ringing' };
    for (const signature of [undefined, twilioSignature('another-token', voiceUrl, ringing)]) {
      const res = await fetch(voiceUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...(signature ? { 'x-twilio-signature': signature } : {}) },
        body: new URLSearchParams(ringing),
      });
      expect(res.status).to.equal(403);
    }
    expect(await app.runtime.ctx.db('calls').where({ carrier_sid: 'CA-unsigned' }).first()).to.equal(undefined);
    const relayUrl = `${front.url.replace('https', 'wss')}/v1/carrier/twilio/relay`;
    for (const signature of [null, 'bm90IGEgc2lnbmF0dXJl']) {
      const refused = await RelayCaller.connect({ url: relayUrl, authToken: AUTH_TOKEN, setup: setupOf({}), signature }).catch((e) => e);
      expect(refused).to.be.instanceOf(RelayRefused);
      expect(refused.status).to.equal(403);
    }
  });

  it('closes a relay socket whose parameter is forged, expired or already used', async () => {
    const relayUrl = `${front.url.replace('https', 'wss')}/v1/carrier/twilio/relay?tenant=${tenantId}`;
    const to = '+12025550116';
    twilio.phones[to] = { answer: 'human', caller: async (c) => void (await c.hangUp()) };
    const id = await place(to, 'Replay check');
    await finalResult(client, id);
    const used = twilio.calls.find((c) => c.params.To === to)!;
    const token = new URL(String(used.params.Url)).searchParams.get('relay')!;
    const forged = `${id}.${Math.floor(Date.now() / 1000) + 600}.AAAA`;
    for (const relay of [token, forged]) {
      const caller = await RelayCaller.connect({ url: relayUrl, authToken: AUTH_TOKEN, setup: setupOf({ relay }) });
      const end = await caller.ended;
      expect(end.by).to.not.equal('caller-hang-up');
    }
    const after = (await client.get(`/v1/calls/${id}`)).body;
    expect(after, JSON.stringify(after)).to.include({ status: 'completed' });
  });

  describe('inbound calls on a Twilio number (POST /v1/carrier/twilio/voice)', () => {
    let numbers = 0;
    const routed = (routing: ((agent: string) => object) | null) =>
      app.routedCompany(`+1202555${4000 + numbers++}`, routing, { eventsUrl: EVENTS_URL });
    let callers = 0;
    /** A caller with a number of its own (its agent's replies are scripted by it) rings `to` through the stand-in. */
    const ringIn = (to: string, caller?: Parameters<TwilioStandIn['ringIn']>[0]['caller']) => {
      const from = `+1202555${5000 + callers++}`;
      const call = twilio.ringIn({
        to,
        from,
        voiceUrl: `${front.url}/v1/carrier/twilio/voice`,
        statusCallback: `${front.url}/v1/carrier/twilio/status`,
        caller,
      });
      return { from, call };
    };
    const callOn = (c: Client, number: string) =>
      eventually(
        'the inbound call',
        async () => (await c.get(`/v1/calls?to=${encodeURIComponent(number)}`)).body.data?.[0]?.id as string | undefined,
      );

    it('answers a voice webhook the carrier repeats for one call with the same call, stored once', async () => {
      const { number } = await routed((agent) => ({ type: 'ai', agent_id: agent }));
      const voiceUrl = `${front.url}/v1/carrier/twilio/voice`;
      const ringing = {
        AccountSid: ACCOUNT_SID,
        CallSid: 'CA-repeated-webhook',
        From: '+12025550151',
        To: number,
        CallStatus: 'ringing',
        Direction: 'inbound',
      };
      const ask = () =>
        fetch(voiceUrl, {
          method: 'POST',
          headers: {
            'content-type': 'application/x-www-form-urlencoded',
            'x-twilio-signature': twilioSignature(AUTH_TOKEN, voiceUrl, ringing),
          },
          body: new URLSearchParams(ringing),
        });
      const answers = await Promise.all([ask(), ask(), ask()]);
      for (const answer of answers) {
        expect(answer.status).to.equal(200);
        expect(await answer.text()).to.include('<ConversationRelay');
      }
      expect(await app.runtime.ctx.db('calls').where({ carrier_sid: 'CA-repeated-webhook' })).to.have.length(1);
    });

    it('answers an ai step over the relay: the agent greets and converses, with call.* and ai.* events as on the simulator', async () => {
      const {
        client: own,
        number,
        tenantId: owner,
      } = await routed((agent) => ({ type: 'ai', agent_id: agent, greeting: 'Thanks for calling Acme.' }));
      const heard: string[] = [];
      const { from, call } = ringIn(number, async (c) => {
        heard.push((await c.reply()).text);
        c.say('What are your hours?');
        heard.push((await c.reply()).text);
        await c.hangUp();
      });
      app.script(from, { content: 'We are open nine to five.' });
      const id = await callOn(own, number);
      const result = await finalResult(own, id);
      await call.done;
      expect(heard).to.deep.equal(['Thanks for calling Acme.', 'We are open nine to five.']);
      expect(result.transcript).to.deep.equal([
        { speaker: 'agent', text: 'Thanks for calling Acme.' },
        { speaker: 'caller', text: 'What are your hours?' },
        { speaker: 'agent', text: 'We are open nine to five.' },
      ]);
      const record = (await own.get(`/v1/calls/${id}`)).body;
      expect(record).to.include({
        direction: 'inbound',
        from,
        to: number,
        status: 'completed',
        handler: 'ai',
        hangup_cause: 'caller_hangup',
      });
      expect((await outboxOf(app, id)).map((e) => e.type)).to.deep.equal([
        'call.initiated',
        'call.answered',
        'call.updated',
        'call.ended',
        'ai.summary',
      ]);
      expect(call.conversationRelays[0]!.attributes.url).to.equal(
        `${front.url.replace('https', 'wss')}/v1/carrier/twilio/relay?tenant=${owner}`,
      );
    });

    it('refuses a call to a number no account has with <Reject/>, keeping no record', async () => {
      const { call } = ringIn('+12025559999');
      await call.done;
      expect(call.statusCallbacks.at(-1)).to.include({ CallStatus: 'no-answer' });
      expect(call.relays).to.have.length(0);
      expect(await app.runtime.ctx.db('calls').where({ carrier_sid: call.sid }).first()).to.equal(undefined);
    });

    it('a number without routing ends the call not_routed, never answered', async () => {
      const { client: own, number } = await routed(null);
      const { call } = ringIn(number);
      await call.done;
      const id = await callOn(own, number);
      const result = await finalResult(own, id);
      expect(result.status).to.equal('no-answer');
      expect((await own.get(`/v1/calls/${id}`)).body).to.include({ direction: 'inbound', hangup_cause: 'not_routed' });
      expect(call.relays).to.have.length(0);
      expect((await outboxOf(app, id)).map((e) => e.type)).to.deep.equal(['call.initiated', 'call.ended']);
    });

    for (const [target, scenario, cause] of [
      ['+12025550131', { answer: 'human' }, 'transfer_ended'],
      ['+12025550139', { answer: 'busy' }, 'transfer_busy'],
    ] as const) {
      it(`a transfer step answers <Dial> to its number; the <Dial>'s end ends the call ${cause}, as on the simulator`, async () => {
        const { client: own, number } = await routed(() => ({ type: 'transfer', to: target }));
        twilio.phones[target] = scenario;
        const { call } = ringIn(number);
        await call.done;
        expect(call.dialled).to.deep.equal([
          { to: target, callerId: number, timeout: '30', status: scenario.answer === 'human' ? 'completed' : 'busy' },
        ]);
        const id = await callOn(own, number);
        const result = await finalResult(own, id);
        expect(result.status).to.equal('completed');
        expect((await own.get(`/v1/calls/${id}`)).body).to.include({ handler: 'transfer', hangup_cause: cause });
      });
    }

    it("the caller hanging up on a transfer step's bridge ends the call caller_hangup", async () => {
      const target = '+12025550140';
      const { client: own, number } = await routed(() => ({ type: 'transfer', to: target }));
      twilio.phones[target] = { answer: 'human', staysOn: true };
      const { call } = ringIn(number);
      await eventually('the transfer bridged', () => call.dialled.length === 1);
      call.hangUpByApi('completed');
      await call.done;
      const id = await callOn(own, number);
      expect((await finalResult(own, id)).status).to.equal('completed');
      expect((await own.get(`/v1/calls/${id}`)).body).to.include({ handler: 'transfer', hangup_cause: 'caller_hangup' });
    });
  });

  it('a call a transfer step bridged past max_duration_sec is hung up at the carrier: completed max_duration', async () => {
    const number = '+12025554900';
    const target = '+12025550134';
    const { client: own } = await app.routedCompany(number, () => ({ type: 'transfer', to: target }), { eventsUrl: EVENTS_URL });
    twilio.phones[target] = { answer: 'human', staysOn: true };
    const call = twilio.ringIn({
      to: number,
      from: '+12025556000',
      voiceUrl: `${front.url}/v1/carrier/twilio/voice`,
      statusCallback: `${front.url}/v1/carrier/twilio/status`,
    });
    await eventually('the transfer bridged', () => call.dialled.length === 1);
    const id = (await app.runtime.ctx.db('calls').where({ carrier_sid: call.sid }).first()).id as string;
    // Its max duration is over now: the test's stand-in for the clock running on.
    await app.runtime.ctx.db('calls').where({ id }).update({ max_duration_sec: 0, due_at: new Date() });
    await notify(app.runtime.ctx.db, CHANNELS.calls, id);
    await eventually('the carrier asked to hang up', () => hangUpsOf(call.sid).length > 0, { withinMs: 30_000 });
    await call.done;
    expect(hangUpsOf(call.sid)).to.have.length(1);
    const result = await finalResult(own, id);
    expect(result.status).to.equal('completed');
    expect((await own.get(`/v1/calls/${id}`)).body).to.include({ handler: 'transfer', hangup_cause: 'max_duration' });
  });

  it('a carrier that refuses the hang-up does not hold up the sweep: the call ends all the same, the refusal logged and counted', async () => {
    const number = '+12025554901';
    const target = '+12025550137';
    const { client: own } = await app.routedCompany(number, () => ({ type: 'transfer', to: target }), { eventsUrl: EVENTS_URL });
    twilio.phones[target] = { answer: 'human', staysOn: true };
    const call = twilio.ringIn({
      to: number,
      from: '+12025556001',
      voiceUrl: `${front.url}/v1/carrier/twilio/voice`,
      statusCallback: `${front.url}/v1/carrier/twilio/status`,
    });
    await eventually('the transfer bridged', () => call.dialled.length === 1);
    const id = (await app.runtime.ctx.db('calls').where({ carrier_sid: call.sid }).first()).id as string;
    twilio.failNextUpdate({ status: 503 });
    await app.runtime.ctx.db('calls').where({ id }).update({ max_duration_sec: 0, due_at: new Date() });
    await notify(app.runtime.ctx.db, CHANNELS.calls, id);
    const result = await finalResult(own, id);
    expect(result.status).to.equal('completed');
    expect((await own.get(`/v1/calls/${id}`)).body).to.include({ hangup_cause: 'max_duration' });
    expect(hangUpsOf(call.sid)).to.have.length(1);
    expect(call.status).to.equal('in-progress');
    expect(await (await fetch(`${app.metricsUrl}/metrics`)).text()).to.match(
      /switchboard_carrier_hangups_total\{carrier="twilio",result="failed"\} [1-9]/,
    );
    expect(app.logs.some((l) => l.includes(id) && l.includes('the carrier could not be asked to hang up'))).to.equal(true);
    // Not retried: the caller's own hang-up ends it at the carrier, whose report changes nothing more.
    call.hangUpByApi('completed');
    await call.done;
    expect((await own.get(`/v1/calls/${id}`)).body).to.include({ status: 'completed', hangup_cause: 'max_duration' });
  });

  describe("the agent's transfer_call on a relay call", () => {
    const transferredToStay = (to: string, target: string, task: string) => transferToStay(twilio, app, to, target, task);

    it('the target answering is reported at once, as on the simulator: ai.transfer answered while they talk; the person called hanging up ends it callee_hangup', async () => {
      const [to, target, task] = ['+12025550152', '+12025550153', 'Transfer to sales, reported as answered'];
      transferredToStay(to, target, task);
      const id = await place(to, task);
      const carried = await eventually('the call placed', () => twilio.calls.find((c) => c.params.To === to));
      await eventually('the transfer answered', () => carried.webhooks.some((w) => w.purpose === 'answered' && w.status === 200));
      // The two talk: the call is bridged and the customer's system told so now, not when the bridge ends.
      expect((await client.get(`/v1/calls/${id}`)).body).to.include({ status: 'in-progress', handler: 'transfer' });
      const answered = (await outboxOf(app, id)).filter((e) => e.type === 'ai.transfer').map((e) => e.payload.data.ai.transfer);
      expect(answered).to.deep.equal([{ name: 'Sales', target, status: 'answered' }]);
      // Twilio asks again (our answer lost on the way): the transfer is reported once.
      const asked = carried.webhooks.find((w) => w.purpose === 'answered')!;
      const again = await sendAgain(asked);
      expect(again.status).to.equal(200);
      expect((await outboxOf(app, id)).filter((e) => e.type === 'ai.transfer')).to.have.length(1);
      // The person called hangs up on the bridge.
      carried.hangUpByApi('completed');
      await carried.done;
      const result = await finalResult(client, id);
      expect(result.result).to.deep.equal({ outcome: 'transferred', answers: {}, note: `Transferred to Sales (${target})` });
      expect((await client.get(`/v1/calls/${id}`)).body).to.include({ handler: 'transfer', hangup_cause: 'callee_hangup' });
      const types = (await outboxOf(app, id)).map((e) => e.type);
      expect(types.filter((t) => t === 'ai.transfer')).to.have.length(1);
      expect(types.slice(types.indexOf('ai.transfer'), types.indexOf('call.ended') + 1)).to.deep.equal([
        'ai.transfer',
        'call.updated',
        'call.ended',
      ]);
    });

    for (const [first, to, target] of [
      ['its status callback', '+12025550155', '+12025550156'],
      ["the <Dial>'s action", '+12025550157', '+12025550158'],
    ] as const) {
      it(`the person hanging up while the target rings, Twilio telling ${first} first: ai.transfer canceled once, before call.ended`, async () => {
        const task = `Transfer to sales, the person leaves, ${first} first`;
        transferredToStay(to, target, task);
        twilio.phones[target] = { answer: 'ring' };
        const id = await place(to, task);
        const carried = await eventually('the call placed', () => twilio.calls.find((c) => c.params.To === to));
        await eventually('the target ringing', () => carried.dialled.length === 1);
        if (first === 'its status callback') {
          // Twilio's two requests race: here the status callback reaches us before the <Dial>'s action.
          const statusUrl = String(carried.params.StatusCallback);
          const report = { CallSid: carried.sid, AccountSid: ACCOUNT_SID, CallStatus: 'completed' };
          const reported = await fetch(statusUrl, {
            method: 'POST',
            headers: {
              'content-type': 'application/x-www-form-urlencoded',
              'x-twilio-signature': twilioSignature(AUTH_TOKEN, statusUrl, report),
            },
            body: new URLSearchParams(report),
          });
          expect(reported.status).to.equal(204);
        }
        carried.hangUpByApi('completed');
        await carried.done;
        expect(carried.dialled).to.deep.equal([{ to: target, callerId: OUR_NUMBER, timeout: '30', status: 'canceled' }]);
        await finalResult(client, id);
        expect((await client.get(`/v1/calls/${id}`)).body).to.include({
          status: 'completed',
          handler: 'ai',
          hangup_cause: 'callee_hangup',
        });
        const events = await outboxOf(app, id);
        const transfers = events.filter((e) => e.type === 'ai.transfer').map((e) => e.payload.data.ai.transfer);
        expect(transfers).to.deep.equal([{ name: 'Sales', target, status: 'canceled' }]);
        const types = events.map((e) => e.type);
        expect(types.indexOf('ai.transfer')).to.be.lessThan(types.indexOf('call.ended'));
      });
    }

    for (const status of ['no-answer', 'busy'] as const) {
      it(`a <Dial> that goes ${status} reconnects the caller to the agent on a new relay session, in the same conversation: ai.transfer ${status} once`, async () => {
        const to = status === 'no-answer' ? '+12025550143' : '+12025550144';
        const target = status === 'no-answer' ? '+12025550135' : '+12025550136';
        twilio.phones[target] = { answer: status };
        const heard: string[] = [];
        twilio.phones[to] = {
          answer: 'human',
          caller: async (c) => {
            // Each relay session of the call plays this: first the caller asks for sales, then hears the agent again.
            if (heard.length === 0) {
              c.say('Can I talk to sales?');
              heard.push((await c.reply()).text);
              return void (await c.nextOf('end'));
            }
            heard.push((await c.reply()).text);
            await c.hangUp();
          },
        };
        const task = `Transfer to sales, ${status}`;
        const sorry = 'Sales did not pick up. Can I help you instead?';
        app.script(
          task,
          { toolCalls: [{ name: 'transfer_call', arguments: { target, name: 'Sales' } }] },
          { content: 'Connecting you to sales now.' },
          { content: sorry },
        );
        const id = await place(to, task);
        const result = await finalResult(client, id);
        const carried = twilio.calls.find((c) => c.params.To === to)!;
        await carried.done;
        expect(carried.dialled).to.deep.equal([{ to: target, callerId: OUR_NUMBER, timeout: '30', status }]);
        expect(carried.relays).to.have.length(2);
        expect(heard).to.deep.equal(['Connecting you to sales now.', sorry]);
        // The agent's request after the <Dial>: the earlier conversation, then the note that the transfer did not go through.
        const asked = app.model.requests.filter((r) =>
          r.messages.some((m) => m.role === 'system' && String(m.content).includes(`Task: ${task}`)),
        );
        const last = asked.at(-1)!.messages.map((m) => String(m.content));
        expect(last).to.include('Can I talk to sales?');
        expect(last).to.include('Connecting you to sales now.');
        expect(last.at(-1)).to.include(`TRANSFER to ${target} did not go through (${status})`);
        expect(result.transcript).to.deep.equal([
          { speaker: 'caller', text: 'Can I talk to sales?' },
          { speaker: 'agent', text: 'Connecting you to sales now.' },
          { speaker: 'agent', text: sorry },
        ]);
        const record = (await client.get(`/v1/calls/${id}`)).body;
        expect(record).to.include({ status: 'completed', handler: 'ai', hangup_cause: 'callee_hangup' });
        // One conversation for the whole call: the resumed session carried on the first one.
        expect(await app.runtime.ctx.db('conversations').where({ tenant_id: tenantId })).to.have.length(1);
        const transfers = (await outboxOf(app, id)).filter((e) => e.type === 'ai.transfer');
        expect(transfers.map((e) => e.payload.data.ai.transfer)).to.deep.equal([{ name: 'Sales', target, status }]);
      });
    }
  });
});

describe('A call Twilio bridges for a transfer, on the clock', function () {
  this.timeout(90_000);
  let twilio: TwilioStandIn;
  let app: CallsApp;
  twilioCallsApp({ manualClock: true }, (started) => ({ twilio, app } = started));

  it("keeps the call's slot while Twilio bridges the transfer, however long: the account stays within max_concurrent_calls", async () => {
    const [to, target, task] = ['+12025550145', '+12025550138', 'Transfer to sales, a long talk'];
    transferToStay(twilio, app, to, target, task);
    const { client: own } = await app.voiceCompany({ eventsUrl: EVENTS_URL, maxConcurrentCalls: 1 });
    const placed = await own.post('/v1/calls', { to, task });
    expect(placed.status, JSON.stringify(placed.body)).to.equal(201);
    const carried = await eventually('the call placed', () => twilio.calls.find((c) => c.params.To === to));
    await eventually('the transfer bridged', () => carried.dialled.length === 1);
    // Longer than a slot's lease (twice SWITCHBOARD_LEASE_SEC): only renewals keep it.
    app.advance(8_000);
    const refused = await own.post('/v1/calls', { to: '+12025550146', task: 'One too many' });
    expect(refused.status, JSON.stringify(refused.body)).to.equal(429);
    expect(refused.body.error.code).to.equal('tenant_busy');
    expect((await own.post(`/v1/calls/${placed.body.id}/hangup`, {})).status).to.equal(200);
    await carried.done;
    twilio.phones['+12025550147'] = { answer: 'busy' };
    expect((await own.post('/v1/calls', { to: '+12025550147', task: 'Next' })).status).to.equal(201);
  });
});

describe('SWITCHBOARD_RELAY_CONCURRENCY: relay sockets one replica holds', function () {
  this.timeout(90_000);
  let twilio: TwilioStandIn;
  let front: TlsFront;
  let app: CallsApp;
  twilioCallsApp({ env: { SWITCHBOARD_RELAY_CONCURRENCY: '1' } }, (started) => ({ twilio, front, app } = started));

  it('refuses a socket beyond the bound with 503 at the handshake, for the carrier to retry elsewhere; the call it holds goes on', async () => {
    const { client, tenantId } = await app.voiceCompany({ eventsUrl: EVENTS_URL });
    const to = '+12025550128';
    // The stand-in never answers: the test opens the relay socket itself, as Twilio would on answer.
    twilio.phones[to] = { answer: 'ring' };
    const task = 'One at a time';
    app.script(task, { content: 'Still here.' });
    const placed = await client.post('/v1/calls', { to, task });
    expect(placed.status, JSON.stringify(placed.body)).to.equal(201);
    await eventually('the call ringing', () => twilio.calls.some((c) => c.params.To === to && c.status === 'ringing'));
    const relay = new URL(String(twilio.calls.find((c) => c.params.To === to)!.params.Url)).searchParams.get('relay')!;
    const url = `${front.url.replace('https', 'wss')}/v1/carrier/twilio/relay?tenant=${tenantId}`;
    const first = await RelayCaller.connect({ url, authToken: AUTH_TOKEN, setup: setupOf({ relay, machine: 'false' }) });
    await first.roundTrip();
    const refused = await RelayCaller.connect({ url, authToken: AUTH_TOKEN, setup: setupOf({ relay, machine: 'false' }) }).catch((e) => e);
    expect(refused).to.be.instanceOf(RelayRefused);
    expect(refused.status).to.equal(503);
    first.say('Are you there?');
    expect((await first.reply()).text).to.equal('Still here.');
    expect((await client.post(`/v1/calls/${placed.body.id}/hangup`, {})).status).to.equal(200);
    await first.ended;
  });

  it('a call picked up whose relay socket never came fails as ours, not as unanswered, and gives its slot back', async () => {
    const { client, tenantId } = await app.voiceCompany({ eventsUrl: EVENTS_URL, maxConcurrentCalls: 2 });
    const holding = '+12025550129';
    // The stand-in never answers this one: the test holds the replica's only relay socket with it.
    twilio.phones[holding] = { answer: 'ring' };
    app.script('Holds the socket', { content: 'Still here.' });
    const held = await client.post('/v1/calls', { to: holding, task: 'Holds the socket' });
    await eventually('the call ringing', () => twilio.calls.some((c) => c.params.To === holding && c.status === 'ringing'));
    const relay = new URL(String(twilio.calls.find((c) => c.params.To === holding)!.params.Url)).searchParams.get('relay')!;
    const url = `${front.url.replace('https', 'wss')}/v1/carrier/twilio/relay?tenant=${tenantId}`;
    const first = await RelayCaller.connect({ url, authToken: AUTH_TOKEN, setup: setupOf({ relay, machine: 'false' }) });
    await first.roundTrip();

    const to = '+12025550130';
    twilio.phones[to] = { answer: 'human' };
    const placed = await client.post('/v1/calls', { to, task: 'Never connected' });
    expect(placed.status, JSON.stringify(placed.body)).to.equal(201);
    const result = await finalResult(client, placed.body.id);
    const carried = twilio.calls.find((c) => c.params.To === to)!;
    await carried.done;
    // The person picked up (the carrier reports the call completed), but the agent was never connected.
    expect(carried.errors).to.include('64102 relay socket not opened: HTTP 503');
    expect(carried.statusCallbacks.at(-1)).to.include({ CallStatus: 'completed' });
    expect(result.status).to.equal('failed');
    expect((await client.get(`/v1/calls/${placed.body.id}`)).body).to.include({
      status: 'failed',
      hangup_cause: 'relay_failed',
      answered_at: null,
    });
    // Its slot was given back: the account's second one takes another call.
    twilio.phones['+12025550131'] = { answer: 'busy' };
    expect((await client.post('/v1/calls', { to: '+12025550131', task: 'Next' })).status).to.equal(201);

    expect((await client.post(`/v1/calls/${held.body.id}/hangup`, {})).status).to.equal(200);
    await first.ended;
  });
});
