import type { ServerResponse } from 'node:http';
import { expect } from 'chai';
import { answerCarriedCall } from '../../../pkg/voice/routing/carrier-answer.js';
import { AnsweredElsewhere } from '../../../pkg/voice/routing/carrier-repeats.js';
import { webhookSecret } from '../../../pkg/webhooks/secret.js';
import type { Client } from '../../support/app.js';
import { finalResult, startCallsApp, type CallsApp } from '../../support/calls.js';
import { carrierSettings, startTwilio, type InboundCall, type TwilioStandIn } from '../../support/carrier/twilio.js';
import { sendAgain } from '../../support/carrier/call.js';
import { twilioSignature } from '../../support/carrier/twilio-signature.js';
import { eventually } from '../../support/eventually.js';
import { startHttpsServer } from '../../support/https.js';
import { startTlsFront, type TlsFront } from '../../support/tls-front.js';
import { readWav } from '../../support/wav.js';
import { startReceiver, type Receiver } from '../../support/webhooks.js';

const ACCOUNT_SID = `AC${'b2'.repeat(16)}`;
const AUTH_TOKEN = 'twilio-auth-token-for-routing-tests';
const SALES = '+12025550141';
const NOBODY = '+12025550142';
const RINGS_OUT = '+12025550143';

describe('Routing steps played through Twilio', function () {
  this.timeout(90_000);
  let twilio: TwilioStandIn;
  let front: TlsFront;
  let app: CallsApp;
  /** The companies' events and messages, each company's checked with its own secret (one test at a time). */
  let receiver: Receiver;
  before(async () => {
    twilio = await startTwilio({
      accountSid: ACCOUNT_SID,
      authToken: AUTH_TOKEN,
      phones: { [SALES]: { answer: 'human' }, [NOBODY]: { answer: 'no-answer' }, [RINGS_OUT]: { answer: 'ring' } },
    });
    front = await startTlsFront();
    receiver = await startReceiver('whsec_AAAA');
    app = await startCallsApp({
      controllers: true,
      env: {
        ...carrierSettings(twilio, front.url),
        SWITCHBOARD_LEASE_SEC: '3',
      },
    });
    front.forwardTo(app.url);
  });
  after(async () => {
    await app?.close();
    await front?.close();
    await twilio?.close();
    await receiver?.close();
  });

  let numbers = 0;
  /** A company whose number is routed with `routing` (a function of its agent and its other things); its events and messages go to the receiver. */
  async function routed(routing: (agent: string) => object) {
    const company = await app.routedCompany(`+1202555${6000 + numbers++}`, null, {
      eventsUrl: receiver.url,
      messageWebhookUrl: receiver.url,
    });
    receiver.secret = await webhookSecret(app.runtime.ctx, company.tenantId);
    const res = await company.client.patch(`/v1/numbers/${encodeURIComponent(company.number)}`, { routing: routing(company.agent) });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return company;
  }
  let callers = 0;
  /** A caller rings `to` through the stand-in, doing what `does` says at each verb. */
  const ringIn = (to: string, does: Omit<InboundCall, 'to' | 'from' | 'voiceUrl' | 'statusCallback'> = {}) => {
    const from = `+1202555${7000 + callers++}`;
    const call = twilio.ringIn({
      to,
      from,
      voiceUrl: `${front.url}/v1/carrier/twilio/voice`,
      statusCallback: `${front.url}/v1/carrier/twilio/status`,
      ...does,
    });
    return { from, call };
  };
  const callOn = (c: Client, number: string) =>
    eventually(
      'the inbound call',
      async () => (await c.get(`/v1/calls?to=${encodeURIComponent(number)}`)).body.data?.[0]?.id as string | undefined,
      { everyMs: 500 },
    );
  /** The events of `callId` the receiver accepted, once `last` arrived. */
  const eventsOf = (callId: string, last: string) =>
    eventually(`${last} delivered`, () => {
      const mine = receiver.events.filter((e) => e.data?.id === callId);
      return mine.some((e) => e.type === last) && mine;
    });
  /** Twilio's status callback reporting the end of inbound call `sid`, signed, sent as the caller hangs up. */
  const reportCompleted = (sid: string) => {
    const status = `${front.url}/v1/carrier/twilio/status`;
    const params = { AccountSid: ACCOUNT_SID, CallSid: sid, CallStatus: 'completed', Direction: 'inbound' };
    const headers = {
      'content-type': 'application/x-www-form-urlencoded',
      'x-twilio-signature': twilioSignature(AUTH_TOKEN, status, params),
    };
    return fetch(status, { method: 'POST', headers, body: new URLSearchParams(params) });
  };
  const transcriptOf = async (c: Client, id: string) => (await finalResult(c, id)).transcript.map((t: any) => t.text);
  /** `params` posted to `url` signed as Twilio signs them. */
  const signedPost = (url: string, params: Record<string, string>) =>
    fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': twilioSignature(AUTH_TOKEN, url, params) },
      body: new URLSearchParams(params),
    });
  /** An address Switchboard handed the carrier, without the nonce that makes each one its own. */
  const withoutNonce = (address: string) => {
    const url = new URL(address);
    expect(url.searchParams.get('nonce')).to.match(/^[\w-]{8}$/);
    url.searchParams.delete('nonce');
    return url.toString();
  };
  const outboxTypes = async (id: string) =>
    (await app.runtime.ctx.db('webhook_outbox').where({ ordering_key: id }).orderBy('seq')).map((e: { type: string }) => e.type);

  describe('menu', () => {
    const menu = (agent: string) => ({
      type: 'menu',
      prompt: 'Press or say 1 for sales, 2 for support.',
      timeout_sec: 4,
      retries: 1,
      options: { '1': { type: 'transfer', to: SALES }, '2': { type: 'ai', agent_id: agent, greeting: 'Support here.' } },
      fallback: { type: 'transfer', to: SALES },
    });

    it('a key pressed at <Gather> reaches its option, each step announced with call.updated as on the simulator', async () => {
      const { client, number } = await routed(menu);
      const { call } = ringIn(number, { gathers: [{ digits: '1' }] });
      const id = await callOn(client, number);
      await call.done;
      expect(call.gathers.map((g) => ({ ...g, action: withoutNonce(g.action!) }))).to.deep.equal([
        {
          input: 'dtmf speech',
          numDigits: '1',
          timeout: '4',
          action: `${front.url}/v1/carrier/twilio/menu?attempt=0`,
          actionOnEmptyResult: 'true',
        },
      ]);
      expect(call.said).to.deep.equal(['Press or say 1 for sales, 2 for support.']);
      expect(call.dialled.map((d) => d.to)).to.deep.equal([SALES]);
      expect(await transcriptOf(client, id)).to.deep.equal(['Press or say 1 for sales, 2 for support.', '(pressed 1)']);
      const sent = await eventsOf(id, 'call.ended');
      expect(sent.map((e) => e.type)).to.deep.equal(['call.initiated', 'call.answered', 'call.updated', 'call.updated', 'call.ended']);
      expect(sent.filter((e) => e.type === 'call.updated').map((e) => e.data.handler)).to.deep.equal(['menu', 'transfer']);
      expect(call.errors).to.deep.equal([]);
    });

    it('the key said in words reaches an ai option: the agent greets over the relay after the menu', async () => {
      const { client, number, agent } = await routed(menu);
      let greeting = '';
      const { call } = ringIn(number, {
        gathers: [{ speech: 'Two, please.' }],
        caller: async (c) => {
          greeting = (await c.reply()).text;
          await c.hangUp();
        },
      });
      const id = await callOn(client, number);
      await call.done;
      expect(greeting).to.equal('Support here.');
      expect(await transcriptOf(client, id)).to.deep.equal(['Press or say 1 for sales, 2 for support.', 'Two, please.', 'Support here.']);
      const record = (await client.get(`/v1/calls/${id}`)).body;
      expect(record).to.include({ status: 'completed', handler: 'ai', hangup_cause: 'caller_hangup' });
      expect(record.ai).to.deep.include({ agent_id: agent });
    });

    it("the menu's answer sent again while the agent talks gets the same answer: the call goes on, announced once", async () => {
      const { client, number } = await routed(menu);
      const again: { status: number; body: string }[] = [];
      const { call } = ringIn(number, {
        gathers: [{ digits: '2' }],
        caller: async (c) => {
          await c.reply();
          // On the relay now: the carrier sends the menu's request again, as if our answer had not reached it.
          const asked = call.webhooks.find((w) => w.url.includes('/menu?'))!;
          const res = await sendAgain(asked);
          again.push({ status: res.status, body: await res.text() }, { status: asked.status!, body: asked.body! });
          await c.hangUp();
        },
      });
      const id = await callOn(client, number);
      await call.done;
      const [repeat, first] = again;
      expect(repeat!.status).to.equal(200);
      expect(repeat!.body).to.equal(first!.body);
      expect(first!.body).to.include('<ConversationRelay');
      expect((await client.get(`/v1/calls/${id}`)).body).to.include({ status: 'completed', handler: 'ai', hangup_cause: 'caller_hangup' });
      const sent = await eventsOf(id, 'call.ended');
      expect(sent.filter((e) => e.type === 'call.updated').map((e) => e.data.handler)).to.deep.equal(['menu', 'ai']);
      expect(await transcriptOf(client, id)).to.deep.equal(['Press or say 1 for sales, 2 for support.', '(pressed 2)', 'Support here.']);
      expect(call.errors).to.deep.equal([]);
    });

    it('a menu leading to another, the same key pressed at each: each answer is a request of its own, not a repeat', async () => {
      const { client, number } = await routed(() => ({
        type: 'menu',
        prompt: 'Press 1 for English.',
        options: {
          '1': {
            type: 'menu',
            prompt: 'Press 1 for sales.',
            options: { '1': { type: 'transfer', to: SALES } },
            fallback: { type: 'transfer', to: NOBODY },
          },
        },
        fallback: { type: 'transfer', to: NOBODY },
      }));
      const { call } = ringIn(number, { gathers: [{ digits: '1' }, { digits: '1' }] });
      const id = await callOn(client, number);
      await call.done;
      expect(call.said).to.deep.equal(['Press 1 for English.', 'Press 1 for sales.']);
      expect(call.dialled.map((d) => d.to)).to.deep.equal([SALES]);
      const sent = await eventsOf(id, 'call.ended');
      expect(sent.filter((e) => e.type === 'call.updated').map((e) => e.data.handler)).to.deep.equal(['menu', 'menu', 'transfer']);
      expect(call.errors).to.deep.equal([]);
    });

    it('no answer in time: the prompt again after the timeout, then after its retries the fallback', async () => {
      const { client, number } = await routed(menu);
      const { call } = ringIn(number, { gathers: ['silence', 'silence'] });
      const id = await callOn(client, number);
      await call.done;
      expect(call.said).to.deep.equal([
        'Press or say 1 for sales, 2 for support.',
        'Sorry, I did not get that. Press or say 1 for sales, 2 for support.',
      ]);
      expect(call.gathers.map((g) => withoutNonce(g.action!))).to.deep.equal(
        [0, 1].map((n) => `${front.url}/v1/carrier/twilio/menu?attempt=${n}`),
      );
      expect(call.dialled.map((d) => d.to)).to.deep.equal([SALES]);
      expect(await transcriptOf(client, id)).to.deep.equal([
        'Press or say 1 for sales, 2 for support.',
        'Sorry, I did not get that. Press or say 1 for sales, 2 for support.',
      ]);
      const sent = await eventsOf(id, 'call.ended');
      expect(sent.filter((e) => e.type === 'call.updated').map((e) => e.data.handler)).to.deep.equal(['menu', 'transfer']);
    });
  });

  describe('voicemail', () => {
    it('a menu leads to a mailbox: greeting, <Record>, and the recording kept as the message, downloadable as the WAV recorded', async () => {
      const { client, number, apiKey, tenantId } = await routed(() => ({ type: 'transfer', to: SALES }));
      const mailboxId = (await client.post('/v1/mailboxes', { name: 'After hours', greeting: 'Leave a message after the tone.' })).body.id;
      const routing = {
        type: 'menu',
        prompt: 'Press 3 to leave a message.',
        options: { '3': { type: 'voicemail', mailbox_id: mailboxId } },
        fallback: { type: 'transfer', to: SALES },
      };
      expect((await client.patch(`/v1/numbers/${encodeURIComponent(number)}`, { routing })).status).to.equal(200);
      const { from, call } = ringIn(number, { gathers: [{ digits: '3' }], message: { seconds: 3, then: 'hangup' } });
      const id = await callOn(client, number);
      await call.done;
      expect(call.said).to.deep.equal(['Press 3 to leave a message.', 'Leave a message after the tone.']);
      const [recorded] = twilio.recordings.filter((r) => r.callSid === call.sid);
      expect(recorded).to.not.equal(undefined);
      // The recording was fetched from the carrier with the account's credentials.
      const fetchedOf = () => twilio.requests.filter((r) => r.url.endsWith(`/Recordings/${recorded!.sid}.wav`));
      // Fetched once the recording's status callback is answered, which the call's end does not wait for.
      await eventually('the recording fetched', () => fetchedOf().length > 0);
      const fetched = fetchedOf();
      expect(fetched).to.have.length(1);
      expect(fetched[0]!.headers.authorization).to.equal(`Basic ${Buffer.from(`${ACCOUNT_SID}:${AUTH_TOKEN}`).toString('base64')}`);

      const created = await eventually(
        'message.created',
        () => receiver.events.find((e) => e.type === 'message.created' && e.data.call.id === id),
        { everyMs: 500 },
      );
      expect(created.tenant_id).to.equal(tenantId);
      expect(created.data.message).to.deep.include({
        kind: 'voicemail',
        caller: from,
        mailbox_id: mailboxId,
        mailbox_name: 'After hours',
        duration_sec: 3,
        status: 'new',
      });
      expect(created.data.message.recording_url).to.equal(`${front.url}/v1/messages/${created.data.message.id}/recording`);
      const download = await fetch(created.data.message.recording_url, { headers: { authorization: `Bearer ${apiKey}` } });
      expect(download.status).to.equal(200);
      expect(download.headers.get('content-type')).to.equal('audio/wav');
      const file = Buffer.from(await download.arrayBuffer());
      expect(file.equals(recorded!.wav)).to.equal(true);
      expect(readWav(file)).to.deep.include({ channels: 1, sampleRate: 8000, seconds: 3 });

      const record = (await client.get(`/v1/calls/${id}`)).body;
      expect(record).to.include({ status: 'completed', handler: 'voicemail', hangup_cause: 'caller_hangup' });
      const sent = await eventsOf(id, 'call.ended');
      expect(sent.filter((e) => e.type === 'call.updated').map((e) => e.data.handler)).to.deep.equal(['menu', 'voicemail']);
    });

    it('two reports of one recording arriving together leave one message', async () => {
      const { client, number } = await routed(() => ({ type: 'transfer', to: SALES }));
      const mailboxId = (await client.post('/v1/mailboxes', { name: 'After hours', greeting: 'Leave a message.' })).body.id;
      expect(
        (await client.patch(`/v1/numbers/${encodeURIComponent(number)}`, { routing: { type: 'voicemail', mailbox_id: mailboxId } })).status,
      ).to.equal(200);
      const { call } = ringIn(number, { message: { seconds: 2, then: 'hangup' } });
      const id = await callOn(client, number);
      await call.done;
      const { db } = app.runtime.ctx;
      await eventually('the message kept', async () => (await db('voice_messages').where({ call_id: id })).length === 1);
      // As if the carrier's report had not come yet: now it comes twice at once.
      await db('voice_messages').where({ call_id: id }).delete();
      const report = call.webhooks.find((w) => w.purpose === 'recording')!;
      expect((await Promise.all([sendAgain(report), sendAgain(report)])).map((r) => r.status)).to.deep.equal([204, 204]);
      expect(await db('voice_messages').where({ call_id: id })).to.have.length(1);
    });

    it('a caller who says nothing leaves no message; the call ends voicemail_recorded', async () => {
      const { client, number } = await routed(() => ({ type: 'transfer', to: SALES }));
      const mailboxId = (await client.post('/v1/mailboxes', { name: 'After hours', greeting: 'Leave a message.' })).body.id;
      expect(
        (await client.patch(`/v1/numbers/${encodeURIComponent(number)}`, { routing: { type: 'voicemail', mailbox_id: mailboxId } })).status,
      ).to.equal(200);
      const { call } = ringIn(number);
      const id = await callOn(client, number);
      await call.done;
      expect(call.said).to.deep.equal(['Leave a message.']);
      expect(await finalResult(client, id)).to.include({ status: 'completed' });
      expect((await client.get(`/v1/calls/${id}`)).body).to.include({ handler: 'voicemail', hangup_cause: 'voicemail_recorded' });
      expect((await client.get('/v1/messages')).body.data).to.deep.equal([]);
    });
  });

  describe('queue', () => {
    async function queued(members: { id: string; name: string; phone: string }[], extra: object = {}) {
      const company = await routed(() => ({ type: 'transfer', to: SALES }));
      const created = await company.client.post('/v1/queues', { name: 'Front desk', members, hold_message: 'Please hold.', ...extra });
      expect(created.status, JSON.stringify(created.body)).to.equal(201);
      const queueId = created.body.id as string;
      expect(
        (await company.client.patch(`/v1/numbers/${encodeURIComponent(company.number)}`, { routing: { type: 'queue', queue_id: queueId } }))
          .status,
      ).to.equal(200);
      return { ...company, queueId };
    }
    const queueMoves = (sent: any[]) => sent.filter((e) => e.type.startsWith('queue.')).map((e) => ({ type: e.type, queue: e.data.queue }));

    it('answered: the hold message, then members rung longest idle first until one answers and is bridged; queue.entered, queue.exited answered', async () => {
      const { client, number, queueId } = await queued([
        { id: 'al', name: 'Al', phone: NOBODY },
        { id: 'bea', name: 'Bea', phone: SALES },
      ]);
      const { call } = ringIn(number);
      const id = await callOn(client, number);
      await call.done;
      expect(call.said).to.deep.equal(['Please hold.']);
      expect(call.dialled.map((d) => [d.to, d.status])).to.deep.equal([
        [NOBODY, 'no-answer'],
        [SALES, 'completed'],
      ]);
      const answered = call.webhooks.filter((w) => w.purpose === 'answered');
      expect(answered.map((w) => w.params.ParentCallSid)).to.deep.equal([call.sid]);
      const sent = await eventsOf(id, 'call.ended');
      expect(sent.map((e) => e.type)).to.deep.equal([
        'call.initiated',
        'call.answered',
        'call.updated',
        'queue.entered',
        'queue.exited',
        'call.ended',
      ]);
      const moves = queueMoves(sent);
      expect(moves[0]!.queue).to.deep.include({ id: queueId, name: 'Front desk', position: 1 });
      expect(moves[1]!.queue).to.deep.include({ id: queueId, reason: 'answered', answered_by: { member_id: 'bea', name: 'Bea' } });
      expect((await client.get(`/v1/calls/${id}`)).body).to.include({
        status: 'completed',
        handler: 'queue',
        queue: null,
        hangup_cause: 'queue_ended',
      });
      expect(await transcriptOf(client, id)).to.deep.equal(['Please hold.']);
    });

    it('timed out: the only member rings until max_wait_sec is over; queue.timeout max_wait and the call ends queue_timeout', async () => {
      const { client, number } = await queued([{ id: 'cy', name: 'Cy', phone: RINGS_OUT }], { max_wait_sec: 10 });
      const { call } = ringIn(number);
      const id = await callOn(client, number);
      await call.done;
      expect(call.dialled).to.have.length(1);
      expect(Number(call.dialled[0]!.timeout)).to.be.within(1, 10);
      const sent = await eventsOf(id, 'call.ended');
      expect(sent.map((e) => e.type)).to.deep.equal([
        'call.initiated',
        'call.answered',
        'call.updated',
        'queue.entered',
        'queue.timeout',
        'call.ended',
      ]);
      expect(queueMoves(sent)[1]!.queue).to.deep.include({ reason: 'max_wait' });
      expect((await client.get(`/v1/calls/${id}`)).body).to.include({ status: 'completed', queue: null, hangup_cause: 'queue_timeout' });
    });

    it('a member ringing for one caller is not rung for another, who waits for them: both time out max_wait, not no_agents', async () => {
      const { client, number } = await queued([{ id: 'cy', name: 'Cy', phone: RINGS_OUT }], { max_wait_sec: 10 });
      const first = ringIn(number);
      await eventually('Cy rung for the first caller', () => first.call.dialled.length === 1);
      const second = ringIn(number);
      await Promise.all([first.call.done, second.call.done]);
      const [firstRang] = first.call.rang;
      expect(second.call.rang.every((r) => r.fromMs >= firstRang!.untilMs)).to.equal(true);
      // Rung only for what was left of the second caller's wait.
      expect(second.call.dialled.every((d) => Number(d.timeout) < 10)).to.equal(true);
      const [firstId, secondId] = [first.call.sid, second.call.sid].map((sid) =>
        app.runtime.ctx
          .db('calls')
          .where({ carrier_sid: sid })
          .first()
          .then((r: any) => r.id as string),
      );
      const moves = await Promise.all(
        [await firstId, await secondId].map(async (id) =>
          queueMoves(await eventsOf(id, 'call.ended')).map((m) => [m.type, m.queue.position ?? m.queue.reason]),
        ),
      );
      expect(moves).to.deep.equal([
        [
          ['queue.entered', 1],
          ['queue.timeout', 'max_wait'],
        ],
        [
          ['queue.entered', 2],
          ['queue.timeout', 'max_wait'],
        ],
      ]);
      expect((await client.get(`/v1/calls/${await secondId}`)).body).to.include({ hangup_cause: 'queue_timeout' });
    });

    it('abandoned: the caller hangs up while a member rings; queue.exited hangup, and the member is released', async () => {
      const { client, number, queueId } = await queued([{ id: 'cy', name: 'Cy', phone: RINGS_OUT }], { max_wait_sec: 60 });
      const { call } = ringIn(number);
      await eventually('Cy rung', () => call.dialled.length === 1);
      twilio.call(call.sid).hangUpByApi('completed');
      await call.done;
      const id = await callOn(client, number);
      const sent = await eventsOf(id, 'call.ended');
      expect(sent.map((e) => e.type)).to.deep.equal([
        'call.initiated',
        'call.answered',
        'call.updated',
        'queue.entered',
        'queue.exited',
        'call.ended',
      ]);
      expect(queueMoves(sent)[1]!.queue).to.deep.include({ reason: 'hangup' });
      expect((await client.get(`/v1/calls/${id}`)).body).to.include({ status: 'completed', queue: null, hangup_cause: 'caller_hangup' });
      expect(await app.runtime.ctx.db('queue_member_idle').where({ queue_id: queueId }).whereNotNull('busy_call_id')).to.deep.equal([]);
    });

    it('the caller hanging up as they enter the queue leaves it: queue.entered, then queue.exited hangup, then call.ended', async () => {
      const { client, number, queueId } = await queued([{ id: 'cy', name: 'Cy', phone: RINGS_OUT }], { max_wait_sec: 60 });
      const { db } = app.runtime.ctx;
      const lockWaits = async () =>
        Number(
          (
            await db.raw(
              `select count(*) as n from pg_stat_activity where wait_event_type = 'Lock' and wait_event <> 'advisory' and datname = current_database()`,
            )
          ).rows[0].n,
        );
      // The queue's entry held, then the call's row: the entry waits for the row, and Twilio's report of the hang-up behind it.
      const entry = await db.transaction();
      const row = await db.transaction();
      let reported: Promise<Response> | undefined;
      try {
        await entry.raw('select pg_advisory_xact_lock(hashtext(?))', [`queue:${queueId}`]);
        const { call } = ringIn(number);
        const id = await callOn(client, number);
        await eventually(
          'the call on its queue step',
          async () => (await db('calls').where({ id }).first())?.carrier_step?.type === 'queue',
        );
        await row('calls').where({ id }).forUpdate().first();
        await entry.commit();
        await eventually('the entry waiting for the row', async () => (await lockWaits()) === 1);
        twilio.call(call.sid).hangUpByApi('completed');
        reported = reportCompleted(call.sid);
        await eventually('the report waiting behind it', async () => (await lockWaits()) === 2);
        await row.commit();
        expect((await reported).status).to.equal(204);
        await call.done;
        const sent = (await app.runtime.ctx.db('webhook_outbox').where({ ordering_key: id }).orderBy('seq')).map(
          (e: { type: string; payload: any }) => [e.type, e.payload.data.queue?.reason],
        );
        expect(sent.slice(-3)).to.deep.equal([
          ['queue.entered', undefined],
          ['queue.exited', 'hangup'],
          ['call.ended', undefined],
        ]);
        expect((await client.get(`/v1/calls/${id}`)).body).to.include({ status: 'completed', queue: null, hangup_cause: 'caller_hangup' });
      } finally {
        if (!entry.isCompleted()) await entry.rollback();
        if (!row.isCompleted()) await row.rollback();
        await reported?.catch(() => {});
      }
    });

    it('a member answering as the caller hangs up, the hang-up reported first: queue.exited hangup once, nothing after call.ended', async () => {
      const { client, number } = await queued([{ id: 'cy', name: 'Cy', phone: RINGS_OUT }], { max_wait_sec: 60 });
      const { db } = app.runtime.ctx;
      const { call } = ringIn(number);
      const id = await callOn(client, number);
      await eventually('Cy rung', () => call.dialled.length === 1);
      const lockWaits = async () =>
        Number(
          (
            await db.raw(
              `select count(*) as n from pg_stat_activity where wait_event_type = 'Lock' and wait_event <> 'advisory' and datname = current_database()`,
            )
          ).rows[0].n,
        );
      // The call's row held: Twilio's report of the hang-up waits on it, then Cy's answer (<Number url>) behind it.
      const row = await db.transaction();
      const answerUrl = `${front.url}/v1/carrier/twilio/queue-answered?member=cy`;
      const answer = { AccountSid: ACCOUNT_SID, CallSid: 'CA-cy-answering', ParentCallSid: call.sid, CallStatus: 'in-progress' };
      const requests: Promise<Response>[] = [];
      try {
        await row('calls').where({ id }).forUpdate().first();
        requests.push(reportCompleted(call.sid));
        await eventually('the report waiting on the row', async () => (await lockWaits()) === 1);
        requests.push(
          fetch(answerUrl, {
            method: 'POST',
            headers: {
              'content-type': 'application/x-www-form-urlencoded',
              'x-twilio-signature': twilioSignature(AUTH_TOKEN, answerUrl, answer),
            },
            body: new URLSearchParams(answer),
          }),
        );
        await eventually('the answer waiting behind it', async () => (await lockWaits()) === 2);
        await row.commit();
        expect((await Promise.all(requests)).map((r) => r.status)).to.deep.equal([204, 200]);
        const sent = (await db('webhook_outbox').where({ ordering_key: id }).orderBy('seq')).map((e: { type: string; payload: any }) => [
          e.type,
          e.payload.data.queue?.reason,
        ]);
        expect(sent.slice(-3)).to.deep.equal([
          ['queue.entered', undefined],
          ['queue.exited', 'hangup'],
          ['call.ended', undefined],
        ]);
        expect((await client.get(`/v1/calls/${id}`)).body).to.include({ status: 'completed', queue: null, hangup_cause: 'caller_hangup' });
      } finally {
        if (!row.isCompleted()) await row.rollback();
        await Promise.allSettled(requests);
        twilio.call(call.sid).hangUpByApi('completed');
        await call.done;
      }
    });

    it('hung up through the API while waiting: Twilio is asked to hang up, and the call is final at once', async () => {
      const { client, number } = await queued([{ id: 'cy', name: 'Cy', phone: RINGS_OUT }], { max_wait_sec: 60 });
      const { call } = ringIn(number);
      await eventually('Cy rung', () => call.dialled.length === 1);
      const id = await callOn(client, number);
      const hungUp = await client.post(`/v1/calls/${id}/hangup`, {});
      expect(hungUp.status, JSON.stringify(hungUp.body)).to.equal(200);
      expect(hungUp.body).to.include({ status: 'completed', hangup_cause: 'api_hangup' });
      // Only Twilio was conducting the call: without the request it would stay up there, billed.
      await call.done;
      const asked = twilio.requests.filter(
        (r) =>
          r.method === 'POST' && r.url.endsWith(`/Calls/${call.sid}.json`) && new URLSearchParams(r.body).get('Status') === 'completed',
      );
      expect(asked).to.have.length(1);
      // Made final at once, not when the call's longest duration would have run out.
      expect(await finalResult(client, id, 5)).to.include({ status: 'completed' });
    });

    it('a voice webhook and a wait the carrier sends again get the answers they got: one queue.entered, one member rung', async () => {
      const { client, number, queueId } = await queued([
        { id: 'al', name: 'Al', phone: NOBODY },
        { id: 'bea', name: 'Bea', phone: SALES },
      ]);
      // Rung in by hand: the carrier's requests are the test's to repeat.
      const base = `${front.url}/v1/carrier/twilio`;
      const ringing = {
        AccountSid: ACCOUNT_SID,
        CallSid: 'CA-repeated-queue',
        From: '+12025557998',
        To: number,
        CallStatus: 'in-progress',
        Direction: 'inbound',
      };
      const answer = async (url: string) => {
        const res = await signedPost(url, ringing);
        expect(res.status, url).to.equal(200);
        return res.text();
      };
      const voice = await answer(`${base}/voice`);
      expect(voice).to.include('Please hold.');
      expect(await answer(`${base}/voice`)).to.equal(voice);
      const id = await callOn(client, number);
      expect((await outboxTypes(id)).filter((t) => t === 'queue.entered')).to.have.length(1);
      // The hold message's <Redirect>: Al, idle longest, is rung; asked again, the same <Dial>, and Bea is not taken.
      const wait = /<Redirect[^>]*>([^<]+)<\/Redirect>/.exec(voice)![1]!.replaceAll('&amp;', '&');
      const dial = await answer(wait);
      expect(dial).to.include(`>${NOBODY}</Number>`);
      const [first, second] = await Promise.all([answer(wait), answer(wait)]);
      expect([first, second]).to.deep.equal([dial, dial]);
      const held = await app.runtime.ctx.db('queue_member_idle').where({ queue_id: queueId, busy_call_id: id }).select('member_id');
      expect(held.map((m: { member_id: string }) => m.member_id)).to.deep.equal(['al']);
      expect((await reportCompleted(ringing.CallSid)).status).to.equal(204);
      const sent = await eventsOf(id, 'call.ended');
      expect(sent.map((e) => e.type)).to.deep.equal([
        'call.initiated',
        'call.answered',
        'call.updated',
        'queue.entered',
        'queue.exited',
        'call.ended',
      ]);
    });

    it('a request whose answer failed is answered anew when the carrier sends it again, without waiting', async () => {
      const { client, number } = await queued([{ id: 'al', name: 'Al', phone: NOBODY }]);
      const { db } = app.runtime.ctx;
      // The database refuses the caller's first entry into a queue, once (a sequence counts outside the refused transaction).
      await db.raw('create sequence refuse_entry');
      await db.raw(`create function refuse_entry() returns trigger language plpgsql as $$
        begin
          if new.queue is not null and old.queue is null then
            if nextval('refuse_entry') = 1 then raise exception 'no room' using errcode = 'disk_full'; end if;
          end if;
          return new;
        end $$`);
      await db.raw('create trigger refuse_entry before update on calls for each row execute function refuse_entry()');
      let looks = 0;
      const count = (q: { sql: string }) => void (q.sql.startsWith('select "carrier_answer"') && looks++);
      try {
        const voiceUrl = `${front.url}/v1/carrier/twilio/voice`;
        const ringing = {
          AccountSid: ACCOUNT_SID,
          CallSid: 'CA-failed-once',
          From: '+12025557996',
          To: number,
          CallStatus: 'ringing',
          Direction: 'inbound',
        };
        expect((await signedPost(voiceUrl, ringing)).status).to.equal(503);
        db.on('query', count);
        const again = await signedPost(voiceUrl, ringing);
        expect(again.status).to.equal(200);
        expect(await again.text()).to.include('Please hold.');
        // Answered at once: it did not wait for the failed answer as for one still being made.
        expect(looks).to.equal(0);
        const id = await callOn(client, number);
        expect((await outboxTypes(id)).filter((t) => t === 'queue.entered')).to.have.length(1);
        expect((await reportCompleted(ringing.CallSid)).status).to.equal(204);
      } finally {
        db.off('query', count);
        await db.raw('drop trigger refuse_entry on calls');
        await db.raw('drop function refuse_entry()');
        await db.raw('drop sequence refuse_entry');
      }
    });

    it('nobody left to ring: queue.timeout no_agents', async () => {
      const { client, number } = await queued([{ id: 'al', name: 'Al', phone: NOBODY }]);
      const { call } = ringIn(number);
      const id = await callOn(client, number);
      await call.done;
      const sent = await eventsOf(id, 'call.ended');
      expect(queueMoves(sent).map((m) => [m.type, m.queue.reason])).to.deep.equal([
        ['queue.entered', undefined],
        ['queue.timeout', 'no_agents'],
      ]);
    });
  });

  describe('webhook', () => {
    it("asks the customer's system (signed, as on the simulator) and plays the step it answers", async () => {
      let answer = '';
      const system = await startHttpsServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(answer));
      try {
        const { client, number } = await routed((agent) => ({
          type: 'webhook',
          url: `${system.url}/route`,
          fallback: { type: 'ai', agent_id: agent },
        }));
        answer = JSON.stringify({ step: { type: 'transfer', to: SALES } });
        const { call } = ringIn(number);
        const id = await callOn(client, number);
        await call.done;
        expect(call.dialled.map((d) => d.to)).to.deep.equal([SALES]);
        expect(JSON.parse(system.requests[0]!.body).data).to.deep.include({ id, status: 'in-progress', handler: 'webhook' });
        expect(system.requests[0]!.headers['x-voice-signature']).to.match(/^sha256=/);
        const sent = await eventsOf(id, 'call.ended');
        expect(sent.filter((e) => e.type === 'call.updated').map((e) => e.data.handler)).to.deep.equal(['webhook', 'transfer']);
      } finally {
        await system.close();
      }
    });

    /** A customer's system that answers only when the test does, asked by a number's webhook step (its fallback a transfer to SALES). */
    async function heldSystem() {
      const waiting: ServerResponse[] = [];
      const system = await startHttpsServer((_req, res) => waiting.push(res));
      const close = async () => {
        for (const res of waiting) res.end();
        await system.close();
      };
      const company = await routed(() => ({
        type: 'webhook',
        url: `${system.url}/route`,
        fallback: { type: 'transfer', to: SALES },
      })).catch(async (err) => {
        await close();
        throw err;
      });
      return { ...company, waiting, close };
    }

    it('no answer within 3 s: the fallback', async () => {
      const { client, number, close } = await heldSystem();
      try {
        const { call } = ringIn(number);
        const id = await callOn(client, number);
        await call.done;
        expect(call.dialled.map((d) => d.to)).to.deep.equal([SALES]);
        const sent = await eventsOf(id, 'call.ended');
        expect(sent.filter((e) => e.type === 'call.updated').map((e) => e.data.handler)).to.deep.equal(['webhook', 'transfer']);
      } finally {
        await close();
      }
    });

    it('the caller hangs up while the system is asked: the step it answers then is not played, nothing announced after call.ended', async () => {
      const { client, number, waiting, close } = await heldSystem();
      try {
        const { call } = ringIn(number);
        await eventually('the routing request', () => waiting.length === 1);
        const id = await callOn(client, number);
        // Twilio reports the end as the caller hangs up, while its request for the call's TwiML still waits for an answer.
        twilio.call(call.sid).hangUpByApi('completed');
        expect((await reportCompleted(call.sid)).status).to.equal(204);
        waiting[0]!.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ step: { type: 'transfer', to: SALES } }));
        await call.done;
        expect(call.webhooks.find((w) => w.purpose === 'voice')!.body).to.include('<Hangup');
        expect((await client.get(`/v1/calls/${id}`)).body).to.include({
          status: 'completed',
          handler: 'webhook',
          hangup_cause: 'caller_hangup',
        });
        const written = await app.runtime.ctx.db('webhook_outbox').where({ ordering_key: id }).orderBy('seq');
        expect(written.map((e: { type: string }) => e.type)).to.deep.equal([
          'call.initiated',
          'call.answered',
          'call.updated',
          'call.ended',
        ]);
      } finally {
        await close();
      }
    });
  });

  it('a request repeated while another replica still answers it waits for that answer; one left unanswered 15 s is taken over', async () => {
    const { number } = await routed(() => ({ type: 'transfer', to: SALES }));
    const voiceUrl = `${front.url}/v1/carrier/twilio/voice`;
    const ringing = {
      AccountSid: ACCOUNT_SID,
      CallSid: 'CA-repeated-elsewhere',
      From: '+12025557997',
      To: number,
      CallStatus: 'ringing',
      Direction: 'inbound',
    };
    expect(await (await signedPost(voiceUrl, ringing)).text()).to.include(`>${SALES}</Dial>`);
    // As if the request were still being answered by another replica: its answer is not kept yet.
    const { db } = app.runtime.ctx;
    const row = db('calls').where({ carrier_sid: ringing.CallSid });
    await row.clone().update({ carrier_answer: db.raw(`jsonb_set(carrier_answer, '{twiml}', 'null')`) });
    // The repeat looks for that answer more than once: it is waiting.
    let looks = 0;
    const count = (q: { sql: string }) => void (q.sql.startsWith('select "carrier_answer"') && looks++);
    db.on('query', count);
    let answered = false;
    const repeat = signedPost(voiceUrl, ringing).then(async (res) => {
      answered = true;
      return res.text();
    });
    try {
      await eventually('the repeat waiting for the answer', () => looks >= 2);
    } finally {
      db.off('query', count);
    }
    expect(answered).to.equal(false);
    const elsewhere = '<?xml version="1.0" encoding="UTF-8"?><Response><Say>Answered by the other replica.</Say></Response>';
    await row.clone().update({ carrier_answer: db.raw(`jsonb_set(carrier_answer, '{twiml}', to_jsonb(?::text))`, [elsewhere]) });
    expect(await repeat).to.equal(elsewhere);
    // A request that replica took 20 s ago and never answered: it is gone, and the repeat is answered here.
    await row.clone().update({
      carrier_answer: db.raw(
        `jsonb_set(jsonb_set(carrier_answer, '{twiml}', 'null'), '{at}', to_jsonb((now() - interval '20 seconds')::text))`,
      ),
    });
    expect(await (await signedPost(voiceUrl, ringing)).text()).to.include(`>${SALES}</Dial>`);
    expect((await reportCompleted(ringing.CallSid)).status).to.equal(204);
  });

  it("a voice webhook that found no call, whose call another replica rang in by the same request meanwhile, sends that replica's answer", async () => {
    const { client, number } = await routed(() => ({ type: 'transfer', to: SALES }));
    const ringing = {
      AccountSid: ACCOUNT_SID,
      CallSid: 'CA-rung-in-elsewhere',
      From: '+12025557995',
      To: number,
      CallStatus: 'ringing',
      Direction: 'inbound',
    };
    // The other replica rang the call in by this request and answered it.
    expect(await (await signedPost(`${front.url}/v1/carrier/twilio/voice`, ringing)).text()).to.include(`>${SALES}</Dial>`);
    const id = await callOn(client, number);
    const { db } = app.runtime.ctx;
    const { carrier_answer: taken } = await db('calls').where({ id }).first('carrier_answer');
    const written = await outboxTypes(id);
    // This replica took the same request a moment before that row was written, so it found no call (known: false).
    const here = { to: number, from: ringing.From, callSid: ringing.CallSid, request: taken.request, known: false };
    const outcome = await answerCarriedCall(app.runtime.ctx, here).then(
      (twiml) => twiml,
      (err: Error) => err,
    );
    // Its answer is the other replica's, which answeredOnce then sends; nothing is played or announced again.
    expect(outcome).to.be.instanceOf(AnsweredElsewhere);
    expect(await outboxTypes(id)).to.deep.equal(written);
    expect((await reportCompleted(ringing.CallSid)).status).to.equal(204);
  });

  it('refuses each routing request without a valid X-Twilio-Signature (403), changing nothing', async () => {
    const { client, number } = await routed(() => ({
      type: 'menu',
      prompt: 'Press 1.',
      options: { '1': { type: 'transfer', to: SALES } },
      fallback: { type: 'transfer', to: SALES },
    }));
    // A call on the menu, rung in by a signed voice webhook nobody plays further.
    const voiceUrl = `${front.url}/v1/carrier/twilio/voice`;
    const ringing = {
      AccountSid: ACCOUNT_SID,
      CallSid: 'CA-forged-routing',
      From: '+12025557999',
      To: number,
      CallStatus: 'ringing',
      Direction: 'inbound',
    };
    const post = (url: string, params: Record<string, string>, token: string | null) =>
      fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          ...(token ? { 'x-twilio-signature': twilioSignature(token, url, params) } : {}),
        },
        body: new URLSearchParams(params),
      });
    expect((await post(voiceUrl, ringing, AUTH_TOKEN)).status).to.equal(200);
    const id = await callOn(client, number);
    const before = (await client.get(`/v1/calls/${id}`)).body;
    const outbox = async () => (await app.runtime.ctx.db('webhook_outbox').where({ ordering_key: id })).length;
    const written = await outbox();
    const base = `${front.url}/v1/carrier/twilio`;
    const forged: [string, Record<string, string>][] = [
      [`${base}/menu?attempt=0`, { CallSid: ringing.CallSid, Digits: '1' }],
      [`${base}/voicemail-recorded`, { CallSid: ringing.CallSid, RecordingDuration: '3', RecordingUrl: `${twilio.url}/x` }],
      [
        `${base}/recording`,
        { CallSid: ringing.CallSid, RecordingStatus: 'completed', RecordingDuration: '3', RecordingUrl: `${twilio.url}/x` },
      ],
      [`${base}/queue-wait`, { CallSid: ringing.CallSid }],
      [`${base}/queue-answered?member=al`, { CallSid: 'CA-member', ParentCallSid: ringing.CallSid }],
      [`${base}/queue-dialled?member=al`, { CallSid: ringing.CallSid, DialCallStatus: 'completed' }],
    ];
    for (const [url, params] of forged) {
      for (const token of [null, 'another-token']) expect((await post(url, params, token)).status, url).to.equal(403);
    }
    expect((await client.get(`/v1/calls/${id}`)).body).to.deep.equal(before);
    expect(await outbox()).to.equal(written);
    expect((await client.get('/v1/messages')).body.data).to.deep.equal([]);
    // Signed, the same answer moves the call on: the refusals above were the signature's alone.
    expect(await (await post(`${base}/menu?attempt=0`, { CallSid: ringing.CallSid, Digits: '1' }, AUTH_TOKEN)).text()).to.include(
      `<Dial callerId="${number}"`,
    );
  });
});
