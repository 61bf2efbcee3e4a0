import { expect } from 'chai';
import type { ServerResponse } from 'node:http';
import { agentRef } from '../../../pkg/ids.js';
import { MESSAGE_STATUSES, MESSAGE_TRANSITIONS } from '../../../pkg/messages/state.js';
import { createAgent, updateAgent } from '../../../pkg/agent/settings.js';
import { webhookSecret } from '../../../pkg/webhooks/secret.js';
import type { Client } from '../../support/app.js';
import { callStatus, finalResult, NUMBERS, outboxOf, startCallsApp, SUMMARY, type CallsApp } from '../../support/calls.js';
import { switchboard } from '../../support/cli.js';
import { expectVoiceError } from '../../support/errors.js';
import { eventually } from '../../support/eventually.js';
import { startHttpsServer } from '../../support/https.js';
import { readWav } from '../../support/wav.js';
import { signatureProblem, startReceiver, type Receiver } from '../../support/webhooks.js';

const EVENTS_URL = 'https://127.0.0.1:9/events';
/** The address clients reach the deployment at (a proxy in front of the app, say): not the default. */
const PUBLIC_URL = 'https://voice.example.test/switchboard';

describe('Inbound calls on the simulated network', function () {
  this.timeout(60_000);
  let app: CallsApp;
  before(async () => {
    // The manual clock moves menu timeouts and the routing webhook's answer window.
    app = await startCallsApp({
      controllers: true,
      manualClock: true,
      env: { SWITCHBOARD_LEASE_SEC: '600', SWITCHBOARD_PUBLIC_URL: `${PUBLIC_URL}/` },
    });
  });
  after(async () => app?.close());

  let numbers = 0;
  /** A company with events on, owning one number routed with `routing` (a function of its agent's agt_ id). */
  const routed = (
    routing: ((agent: string) => object) | null,
    settings: { maxConcurrentCalls?: number; messageWebhookUrl?: string } = {},
  ) => app.routedCompany(`+1202555${2000 + numbers++}`, routing, { eventsUrl: EVENTS_URL, ...settings });

  let callers = 0;
  /** A simulated caller with a number of its own, so its agent's replies can be scripted by it. */
  async function ringIn(client: Client, to: string, script: { lines?: string[]; presses?: string[] } = {}) {
    const from = `+1202555${3000 + callers++}`;
    const res = await client.post('/v1/sim/calls', { to, from, ...script });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    return res.body;
  }

  const events = async (callId: string) => (await outboxOf(app, callId)).map((e) => e.payload);

  /** Moves the clock a second at a time until `done` holds: timeouts fire whenever they were set. */
  const advanceUntil = (what: string, done: () => Promise<boolean>) =>
    eventually(what, async () => {
      if (await done()) return true;
      app.advance(1000);
      return false;
    });

  const transcriptOf = async (client: Client, callId: string) =>
    (await client.get(`/v1/calls/${callId}/result`)).body.transcript as { speaker: string; text: string }[];

  describe('POST /v1/sim/calls', () => {
    it("rings one of the account's numbers: the call arrives ringing, inbound; any other number is refused", async () => {
      const { client, number } = await routed(null);
      const res = await client.post('/v1/sim/calls', { to: number, from: '(202) 555-0199', lines: ['Hi'] });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      expect(res.body).to.deep.include({
        direction: 'inbound',
        from: '+12025550199',
        to: number,
        status: 'ringing',
        handler: null,
        ai: null,
      });
      const other = await routed(null);
      expect((await other.client.post('/v1/sim/calls', { to: number, from: '+12025550199' })).body.error.code).to.equal('invalid_to');
      expect((await client.post('/v1/sim/calls', { to: number, from: 'nobody' })).body.error.code).to.equal('invalid_from');
      expect((await client.post('/v1/sim/calls', { to: number, from: '+12025550199', presses: ['1a'] })).body.error.code).to.equal(
        'invalid_presses',
      );
    });

    it('a number with no routing is not answered: the call ends no-answer', async () => {
      const { client, number } = await routed(null);
      const call = await ringIn(client, number, { lines: ['Hello?'] });
      const result = await finalResult(client, call.id);
      expect(result).to.include({ status: 'no-answer', outcome: 'no-answer', final: true });
      expect((await events(call.id)).map((e) => e.type)).to.deep.equal(['call.initiated', 'call.ended']);
    });

    it('switchboard sim call rings the number as a caller with lines and presses', async () => {
      const { client, number } = await routed((agent) => ({ type: 'ai', agent_id: agent, greeting: 'Hello from the CLI test' }));
      // The CLI works on the app's own database.
      const env = { DATABASE_URL: app.runtime.ctx.config.DATABASE_URL! };
      const rang = await switchboard(['sim', 'call', '--to', number, '--from', '+12025550198', '--line', 'Bye now', '--json'], env);
      expect(rang.code, rang.stderr).to.equal(0);
      expect(rang.json).to.include({ direction: 'inbound', to: number, from: '+12025550198', status: 'ringing' });
      // The CLI's process keeps real time: the call is due from then on the app's manual clock.
      app.advance(Math.max(0, Date.now() - app.clock.now().getTime()));
      await finalResult(client, rang.json.id);
      expect(await transcriptOf(client, rang.json.id)).to.deep.include({ speaker: 'caller', text: 'Bye now' });
      const refused = await switchboard(['sim', 'call', '--to', '+12025550197', '--from', '+12025550198'], env);
      expect(refused.code).to.equal(1);
      expect(refused.stderr).to.match(/not one of the account's numbers/);
    });
  });

  describe('the ai step', () => {
    it('the agent greets, converses and ends with an outcome; ringing → in-progress → completed with its events and ai.summary', async () => {
      const { client, number, agent } = await routed((a) => ({ type: 'ai', agent_id: a, greeting: 'Acme, Ann speaking.' }));
      const caller = `+1202555${3000 + callers}`;
      app.script(
        caller,
        { toolCalls: [{ name: 'end_call', arguments: { outcome: 'callback_requested', note: 'Call back tomorrow' } }] },
        { content: 'We will call you back. Bye!' },
      );
      const call = await ringIn(client, number, { lines: ['Please call me back tomorrow.'] });
      expect(call.from).to.equal(caller);
      const result = await finalResult(client, call.id);
      expect(result).to.deep.include({ status: 'completed', outcome: 'callback_requested', summary: SUMMARY });
      expect(result.transcript).to.deep.equal([
        { speaker: 'agent', text: 'Acme, Ann speaking.' },
        { speaker: 'caller', text: 'Please call me back tomorrow.' },
        { speaker: 'agent', text: 'We will call you back. Bye!' },
      ]);
      const record = (await client.get(`/v1/calls/${call.id}`)).body;
      expect(record).to.deep.include({
        direction: 'inbound',
        status: 'completed',
        handler: 'ai',
        ai: { agent_id: agent },
        hangup_cause: 'agent_hangup',
      });
      const sent = await events(call.id);
      expect(sent.map((e) => e.type)).to.deep.equal(['call.initiated', 'call.answered', 'call.updated', 'call.ended', 'ai.summary']);
      expect(sent.map((e) => e.data.status)).to.deep.equal(['ringing', 'in-progress', 'in-progress', 'completed', 'completed']);
      expect(sent[2].data).to.deep.include({ handler: 'ai', ai: { agent_id: agent } });
      expect(sent[4].data).to.deep.include({ outcome: 'callback_requested', summary: SUMMARY });
    });

    it('a message the agent takes names the caller who rang in', async () => {
      const { client, number } = await routed((a) => ({ type: 'ai', agent_id: a }), { messageWebhookUrl: 'https://127.0.0.1:9/messages' });
      const caller = `+1202555${3000 + callers}`;
      app.script(
        caller,
        { toolCalls: [{ name: 'take_message', arguments: { summary: 'Call Bo back', details: { name: 'Bo' } } }] },
        { content: 'I will pass it on.' },
      );
      const call = await ringIn(client, number, { lines: ['Please tell them Bo called.'] });
      await finalResult(client, call.id);
      expect((await events(call.id)).map((e) => e.type)).to.include('ai.message');
      const [created] = await app.runtime.ctx
        .db('webhook_outbox')
        .where({ type: 'message.created' })
        .andWhereRaw("payload->'data'->'call'->>'id' = ?", [call.id]);
      expect(created.payload.data.message).to.deep.include({ kind: 'ai_message', caller, summary: 'Call Bo back' });
      expect(created.payload.data.call).to.deep.include({ from: caller, to: number });
    });

    it('the agent transfers the caller: the target is rung and bridged to the caller until one hangs up; ai.transfer answered', async () => {
      const { client, number, agent } = await routed((a) => ({ type: 'ai', agent_id: a, greeting: 'Acme, how can I help?' }));
      const caller = `+1202555${3000 + callers}`;
      // The network's default phone: answers "Hello?", then "Okay." and "Bye." to what it hears, then hangs up.
      const target = '+12025550130';
      app.script(
        caller,
        { toolCalls: [{ name: 'transfer_call', arguments: { target, name: 'Front desk' } }] },
        { content: 'Putting you through.' },
      );
      const call = await ringIn(client, number, {
        lines: ['Put me through, please.', '', 'Hi!', 'I need help.', 'Thanks.', 'Still there?'],
      });
      const result = await finalResult(client, call.id);
      expect(result).to.deep.include({ status: 'completed', outcome: 'transferred' });
      expect(result.transcript.at(-1)).to.deep.equal({ speaker: 'agent', text: 'Putting you through.' });
      // The target hung up after hearing the caller three times: the two were bridged.
      expect((await client.get(`/v1/calls/${call.id}`)).body).to.include({ handler: 'transfer', hangup_cause: 'transfer_ended' });
      const sent = await events(call.id);
      expect(sent.map((e) => e.type)).to.deep.equal([
        'call.initiated',
        'call.answered',
        'call.updated',
        'ai.transfer',
        'call.updated',
        'call.ended',
        'ai.summary',
      ]);
      expect(sent[3].data.ai).to.deep.equal({ agent_id: agent, transfer: { name: 'Front desk', target, status: 'answered' } });
      expect(sent[4].data).to.include({ handler: 'transfer', status: 'in-progress' });
    });

    it('a transfer target that rings out: ai.transfer no-answer after 30 s, and the agent, told, carries on with the caller', async () => {
      const { client, number } = await routed((a) => ({ type: 'ai', agent_id: a, greeting: 'Acme, how can I help?' }));
      const caller = `+1202555${3000 + callers}`;
      app.script(
        caller,
        { toolCalls: [{ name: 'transfer_call', arguments: { target: NUMBERS.longRing } }] },
        { content: 'Ringing them.' },
        (request) => ({
          content: JSON.stringify(request.messages).includes(`TRANSFER to ${NUMBERS.longRing} did not go through (no-answer)`)
            ? 'Nobody picked up.'
            : 'Not told.',
        }),
      );
      const call = await ringIn(client, number, { lines: ['Transfer me.', '', 'OK, bye.'] });
      await advanceUntil('the transfer given up', async () => (await events(call.id)).some((e) => e.type === 'ai.transfer'));
      const result = await finalResult(client, call.id);
      expect(result).to.deep.include({ status: 'completed', outcome: 'completed', result: null });
      expect(result.transcript.map((t: any) => t.text)).to.deep.equal([
        'Acme, how can I help?',
        'Transfer me.',
        'Ringing them.',
        'Nobody picked up.',
        'OK, bye.',
        'Goodbye.',
      ]);
      const transfer = (await events(call.id)).find((e) => e.type === 'ai.transfer')!;
      expect(transfer.data).to.include({ handler: 'ai', status: 'in-progress' });
      expect(transfer.data.ai.transfer).to.deep.equal({ name: null, target: NUMBERS.longRing, status: 'no-answer' });
      expect((await client.get(`/v1/calls/${call.id}`)).body).to.include({ handler: 'ai', hangup_cause: 'caller_hangup' });
    });

    it("takes no outgoing slot: answered while the account's one slot is held, which stays the only one held", async () => {
      const { client, number } = await routed((a) => ({ type: 'ai', agent_id: a }), { maxConcurrentCalls: 1 });
      const held = await client.post('/v1/calls', { to: NUMBERS.longRing });
      expect(held.status).to.equal(201);
      const call = await ringIn(client, number, { lines: ['Just checking.'] });
      expect((await finalResult(client, call.id)).status).to.equal('completed');
      expect((await client.post('/v1/calls', { to: NUMBERS.answer })).body.error.code).to.equal('tenant_busy');
      await client.post(`/v1/calls/${held.body.id}/hangup`);
      await callStatus(client, held.body.id, 'canceled');
      await eventually('the slot back', async () => (await client.post('/v1/calls', { to: NUMBERS.answer })).status === 201);
    });
  });

  describe('the menu step', () => {
    const menu = (agent: string) => ({
      type: 'menu',
      prompt: 'Press or say 1 for sales, 2 for support.',
      timeout_sec: 2,
      retries: 1,
      options: {
        '1': { type: 'ai', agent_id: agent, greeting: 'Sales here.' },
        '2': { type: 'ai', agent_id: agent, greeting: 'Support here.' },
      },
      fallback: { type: 'ai', agent_id: agent, greeting: 'Operator here.' },
    });

    it('answered by a key: the option it names is reached, each step announced with call.updated', async () => {
      const { client, number, agent } = await routed(menu);
      const call = await ringIn(client, number, { presses: ['1'], lines: ['I want to buy.'] });
      const result = await finalResult(client, call.id);
      expect(result.transcript.slice(0, 4)).to.deep.equal([
        { speaker: 'agent', text: 'Press or say 1 for sales, 2 for support.' },
        { speaker: 'caller', text: '(pressed 1)' },
        { speaker: 'agent', text: 'Sales here.' },
        { speaker: 'caller', text: 'I want to buy.' },
      ]);
      const sent = await events(call.id);
      expect(sent.map((e) => e.type)).to.deep.equal([
        'call.initiated',
        'call.answered',
        'call.updated',
        'call.updated',
        'call.ended',
        'ai.summary',
      ]);
      expect(sent[2].data).to.include({ handler: 'menu' });
      expect(sent[3].data).to.deep.include({ handler: 'ai', ai: { agent_id: agent } });
    });

    it('answered by speech: the key said in words is the choice', async () => {
      const { client, number } = await routed(menu);
      const call = await ringIn(client, number, { lines: ['Two, please.', 'My phone is broken.'] });
      const result = await finalResult(client, call.id);
      expect(result.transcript.map((t: any) => t.text).slice(0, 3)).to.deep.equal([
        'Press or say 1 for sales, 2 for support.',
        'Two, please.',
        'Support here.',
      ]);
    });

    it('answered by silence: after the timeout and its retries, the fallback', async () => {
      const { client, number } = await routed(menu);
      const call = await ringIn(client, number, { presses: ['', ''] });
      await advanceUntil('the fallback reached', async () =>
        (await transcriptOf(client, call.id)).some((t) => t.text === 'Operator here.'),
      );
      const result = await finalResult(client, call.id);
      expect(result.transcript.map((t: any) => t.text)).to.deep.equal([
        'Press or say 1 for sales, 2 for support.',
        'Sorry, I did not get that. Press or say 1 for sales, 2 for support.',
        'Operator here.',
      ]);
      expect(result).to.include({ status: 'completed' });
      expect((await client.get(`/v1/calls/${call.id}`)).body.hangup_cause).to.equal('caller_hangup');
    });
  });

  describe('the webhook step', () => {
    it('POSTs the call record signed like webhooks and follows the step answered', async () => {
      let routedTo = '';
      const server = await startHttpsServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(routedTo));
      try {
        const { client, number, agent, tenantId } = await routed((a) => ({
          type: 'webhook',
          url: `${server.url}/route`,
          fallback: { type: 'ai', agent_id: a, greeting: 'Fallback here.' },
        }));
        routedTo = JSON.stringify({ step: { type: 'ai', agent_id: agent, greeting: 'Chosen by your system.' } });
        const call = await ringIn(client, number);
        const result = await finalResult(client, call.id);
        expect(result.transcript).to.deep.equal([{ speaker: 'agent', text: 'Chosen by your system.' }]);
        const [asked] = server.requests;
        expect(
          signatureProblem(await webhookSecret(app.runtime.ctx, tenantId), asked!.headers, asked!.body, app.clock.now().getTime()),
        ).to.equal(null);
        expect(JSON.parse(asked!.body)).to.deep.include({ type: 'call.routing', tenant_id: tenantId });
        expect(JSON.parse(asked!.body).data).to.deep.include({
          id: call.id,
          direction: 'inbound',
          status: 'in-progress',
          handler: 'webhook',
        });
        expect((await events(call.id)).filter((e) => e.type === 'call.updated').map((e) => e.data.handler)).to.deep.equal([
          'webhook',
          'ai',
        ]);
      } finally {
        await server.close();
      }
    });

    it('answered late (after 3 s), takes the fallback', async () => {
      const waiting: ServerResponse[] = [];
      const server = await startHttpsServer((_req, res) => waiting.push(res));
      try {
        const { client, number, agent } = await routed((a) => ({
          type: 'webhook',
          url: `${server.url}/route`,
          fallback: { type: 'ai', agent_id: a, greeting: 'Fallback here.' },
        }));
        const call = await ringIn(client, number);
        await eventually('the routing request', () => waiting.length === 1);
        app.advance(3000);
        await callStatus(client, call.id, 'completed');
        waiting[0]!
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ step: { type: 'ai', agent_id: agent, greeting: 'Too late.' } }));
        expect((await finalResult(client, call.id)).transcript).to.deep.equal([{ speaker: 'agent', text: 'Fallback here.' }]);
      } finally {
        await server.close();
      }
    });
    it('hung up through the API while the system is asked: the step it answers then is not reached, nothing announced after call.ended', async () => {
      const waiting: ServerResponse[] = [];
      const server = await startHttpsServer((_req, res) => waiting.push(res));
      try {
        const { client, number, agent } = await routed((a) => ({
          type: 'webhook',
          url: `${server.url}/route`,
          fallback: { type: 'ai', agent_id: a },
        }));
        const call = await ringIn(client, number);
        await eventually('the routing request', () => waiting.length === 1);
        expect((await client.post(`/v1/calls/${call.id}/hangup`)).status).to.equal(200);
        waiting[0]!
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ step: { type: 'ai', agent_id: agent, greeting: 'Too late.' } }));
        expect((await finalResult(client, call.id)).transcript).to.deep.equal([]);
        expect((await client.get(`/v1/calls/${call.id}`)).body).to.include({ handler: 'webhook', hangup_cause: 'api_hangup' });
        expect((await events(call.id)).map((e) => e.type)).to.deep.equal(['call.initiated', 'call.answered', 'call.updated', 'call.ended']);
      } finally {
        await server.close();
      }
    });
  });

  describe('the transfer step', () => {
    it('bridges the caller to the number on the network: each hears the other until one hangs up', async () => {
      const { client, number } = await routed(() => ({ type: 'transfer', to: NUMBERS.answer }));
      const call = await ringIn(client, number, { lines: ['Hi, is that Ann?'] });
      const result = await finalResult(client, call.id);
      expect(result).to.include({ status: 'completed' });
      const record = (await client.get(`/v1/calls/${call.id}`)).body;
      expect(record).to.include({ handler: 'transfer', hangup_cause: 'caller_hangup' });
      expect((await events(call.id)).map((e) => e.type)).to.deep.equal(['call.initiated', 'call.answered', 'call.updated', 'call.ended']);
    });

    it('a bridged call hung up by the API ends at once, both lines down', async () => {
      const { client, number } = await routed(() => ({ type: 'transfer', to: NUMBERS.stays }));
      const call = await ringIn(client, number, { lines: ['Hi.', 'Still there?'] });
      await eventually('the bridge', async () => (await client.get(`/v1/calls/${call.id}`)).body.handler === 'transfer');
      expect((await client.post(`/v1/calls/${call.id}/hangup`)).status).to.equal(200);
      expect(await finalResult(client, call.id)).to.include({ status: 'completed', final: true });
    });

    it('ends the call when the number it is transferred to is busy', async () => {
      const { client, number } = await routed(() => ({ type: 'transfer', to: NUMBERS.busy }));
      const call = await ringIn(client, number, { lines: ['Hello?'] });
      await finalResult(client, call.id);
      expect((await client.get(`/v1/calls/${call.id}`)).body).to.include({ status: 'completed', hangup_cause: 'transfer_busy' });
    });
  });

  describe('queues', () => {
    /** A company whose number routes to a new queue of `members` (phones on the test network). */
    async function queued(members: { id?: string; name: string; phone: string; available?: boolean }[], extra: object = {}) {
      const company = await routed(null);
      const created = await company.client.post('/v1/queues', { name: 'Front desk', members, hold_message: 'Please hold.', ...extra });
      expect(created.status, JSON.stringify(created.body)).to.equal(201);
      const res = await company.client.patch(`/v1/numbers/${encodeURIComponent(company.number)}`, {
        routing: { type: 'queue', queue_id: created.body.id },
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      return { ...company, queue: created.body };
    }
    const queueEvents = async (callId: string) =>
      (await events(callId)).filter((e) => e.type.startsWith('queue.')).map((e) => ({ type: e.type, queue: e.data.queue }));

    it("POST/GET/PATCH/DELETE /v1/queues keep the account's queues; a bad member is refused naming it", async () => {
      const { client } = await routed(null);
      const created = await client.post('/v1/queues', { name: 'Sales', members: [{ id: 'm1', name: 'Al', phone: '(202) 555-0110' }] });
      expect(created.status, JSON.stringify(created.body)).to.equal(201);
      expect(created.body).to.deep.include({
        name: 'Sales',
        max_wait_sec: 300,
        hold_message: null,
        members: [{ id: 'm1', name: 'Al', phone: NUMBERS.answer, available: true }],
      });
      expect(created.body.id).to.match(/^que_/);
      expect((await client.get('/v1/queues')).body.data.map((q: any) => q.id)).to.deep.equal([created.body.id]);
      const changed = await client.patch(`/v1/queues/${created.body.id}`, { max_wait_sec: 60, members: [] });
      expect(changed.body).to.deep.include({ name: 'Sales', max_wait_sec: 60, members: [] });
      const bad = await client.post('/v1/queues', { name: 'Bad', members: [{ id: 'm1', name: 'Al', phone: 'nobody' }] });
      expect(bad.status).to.equal(422);
      expect(bad.body.error).to.deep.include({ code: 'invalid_members' });
      expect(bad.body.error.message).to.match(/^members\.0\.phone: /);
      const other = await routed(null);
      expect((await other.client.get(`/v1/queues/${created.body.id}`)).status).to.equal(404);
      expect((await client.request('DELETE', `/v1/queues/${created.body.id}`)).status).to.equal(200);
      expect((await client.get(`/v1/queues/${created.body.id}`)).status).to.equal(404);
    });

    it('a member given without an id gets one (mem_ and a ULID), which names it when it answers; a given id is kept (DECISIONS.md "Queue member ids")', async () => {
      const { client, number, queue } = await queued([{ name: 'Bea', phone: NUMBERS.answer }]);
      const [made] = queue.members;
      expect(made.id).to.match(/^mem_[0-9A-HJKMNP-TV-Z]{26}$/);
      expect((await client.get(`/v1/queues/${queue.id}`)).body.members).to.deep.equal([
        { id: made.id, name: 'Bea', phone: NUMBERS.answer, available: true },
      ]);
      const call = await ringIn(client, number, { lines: ['Hi, I need help.'] });
      expect(await finalResult(client, call.id)).to.include({ status: 'completed' });
      const exited = (await queueEvents(call.id)).find((e) => e.type === 'queue.exited')!;
      expect(exited.queue.answered_by).to.deep.equal({ member_id: made.id, name: 'Bea' });

      const replaced = await client.patch(`/v1/queues/${queue.id}`, {
        members: [made, { name: 'Cy', phone: NUMBERS.noAnswer }, { id: 'staff-7', name: 'Di', phone: NUMBERS.busy }],
      });
      expect(replaced.status, JSON.stringify(replaced.body)).to.equal(200);
      const [kept, cy, di] = replaced.body.members;
      expect([kept.id, di.id]).to.deep.equal([made.id, 'staff-7']);
      expect(cy.id).to.match(/^mem_/).and.not.equal(made.id);
      const twice = await client.patch(`/v1/queues/${queue.id}`, {
        members: [
          { id: 'x', name: 'A', phone: NUMBERS.answer },
          { id: 'x', name: 'B', phone: NUMBERS.busy },
          { name: 'C', phone: NUMBERS.noAnswer },
        ],
      });
      expect([twice.status, twice.body.error.code]).to.deep.equal([422, 'invalid_members']);
    });

    it('answered: members are rung in turn until one answers, who is bridged to the caller; queue.entered then queue.exited answered', async () => {
      const { client, number, queue } = await queued([
        { id: 'al', name: 'Al', phone: NUMBERS.noAnswer },
        { id: 'bea', name: 'Bea', phone: NUMBERS.answer },
      ]);
      const call = await ringIn(client, number, { lines: ['Hi, I need help.'] });
      const result = await finalResult(client, call.id);
      expect(result).to.include({ status: 'completed' });
      expect(result.transcript[0]).to.deep.equal({ speaker: 'agent', text: 'Please hold.' });
      const moves = await queueEvents(call.id);
      expect(moves.map((m) => m.type)).to.deep.equal(['queue.entered', 'queue.exited']);
      expect(moves[0]!.queue).to.deep.include({ id: queue.id, name: 'Front desk', position: 1 });
      expect(moves[1]!.queue).to.deep.include({ id: queue.id, reason: 'answered', answered_by: { member_id: 'bea', name: 'Bea' } });
      expect(moves[1]!.queue.wait_sec).to.be.a('number');
      expect((await events(call.id)).map((e) => e.type)).to.deep.equal([
        'call.initiated',
        'call.answered',
        'call.updated',
        'queue.entered',
        'queue.exited',
        'call.ended',
      ]);
      expect((await client.get(`/v1/calls/${call.id}`)).body).to.include({ handler: 'queue', queue: null });
    });

    it('rings the member idle longest first', async () => {
      const { client, number } = await queued([
        { id: 'bea', name: 'Bea', phone: NUMBERS.answer },
        { id: 'cy', name: 'Cy', phone: '+12025550120' },
      ]);
      const answeredBy = async () => {
        const call = await ringIn(client, number, { lines: ['Hello?'] });
        await finalResult(client, call.id);
        return (await queueEvents(call.id)).find((m) => m.type === 'queue.exited')!.queue.answered_by.member_id;
      };
      expect(await answeredBy()).to.equal('bea');
      expect(await answeredBy()).to.equal('cy');
      expect(await answeredBy()).to.equal('bea');
    });

    /** A caller who stays on the line, silent, once bridged (or while waiting). */
    const quietCaller = (client: Client, number: string) => ringIn(client, number, { lines: ['', ''] });
    const exitOf = async (callId: string) => (await queueEvents(callId)).find((m) => m.type !== 'queue.entered');
    const bridgedTo = async (callId: string) =>
      (await eventually(`call ${callId} answered from the queue`, () => exitOf(callId))).queue.answered_by?.member_id;
    const hangUp = async (client: Client, callId: string) => {
      expect((await client.post(`/v1/calls/${callId}/hangup`)).status).to.equal(200);
      await finalResult(client, callId);
    };

    it('a member on a call from the queue is not rung for another caller; freed, longest idle first', async () => {
      const { client, number } = await queued([
        { id: 'al', name: 'Al', phone: NUMBERS.stays },
        { id: 'bea', name: 'Bea', phone: '+12025550121' },
      ]);
      const first = await quietCaller(client, number);
      expect(await bridgedTo(first.id)).to.equal('al');
      const second = await quietCaller(client, number);
      expect(await bridgedTo(second.id)).to.equal('bea');
      // Bea's call ends first: she has been idle longer than Al when the next caller comes.
      await hangUp(client, second.id);
      app.advance(1000);
      await hangUp(client, first.id);
      const third = await quietCaller(client, number);
      expect(await bridgedTo(third.id)).to.equal('bea');
      await hangUp(client, third.id);
    });

    it("a caller waits while the only member is on another caller's call, and is put through when that call ends", async () => {
      const { client, number } = await queued([{ id: 'al', name: 'Al', phone: NUMBERS.stays }]);
      const first = await quietCaller(client, number);
      expect(await bridgedTo(first.id)).to.equal('al');
      const second = await quietCaller(client, number);
      await eventually('the second caller queued', async () => (await client.get(`/v1/calls/${second.id}`)).body.queue ?? undefined);
      app.advance(30_000);
      await hangUp(client, first.id);
      expect(await bridgedTo(second.id)).to.equal('al');
      const exited = (await outboxOf(app, second.id)).find((e) => e.type === 'queue.exited')!;
      expect(exited.payload.data.queue.wait_sec).to.be.at.least(30);
      const firstEnded = (await outboxOf(app, first.id)).find((e) => e.type === 'call.ended')!;
      expect(Number(exited.seq)).to.be.greaterThan(Number(firstEnded.seq));
      await hangUp(client, second.id);
    });

    it('a caller waiting for a busy member times out max_wait, not no_agents', async () => {
      const { client, number } = await queued([{ id: 'al', name: 'Al', phone: NUMBERS.stays }], { max_wait_sec: 10 });
      const first = await quietCaller(client, number);
      expect(await bridgedTo(first.id)).to.equal('al');
      const second = await quietCaller(client, number);
      await advanceUntil('the wait over', async () => (await client.get(`/v1/calls/${second.id}`)).body.status === 'completed');
      expect((await exitOf(second.id))!).to.deep.include({ type: 'queue.timeout' });
      expect((await exitOf(second.id))!.queue).to.include({ reason: 'max_wait' });
      await hangUp(client, first.id);
    });

    it('abandoned: the caller hangs up while waiting; queue.exited hangup', async () => {
      const { client, number } = await queued([{ id: 'al', name: 'Al', phone: NUMBERS.longRing }]);
      const call = await ringIn(client, number);
      await finalResult(client, call.id);
      expect((await queueEvents(call.id)).map((m) => [m.type, m.queue.reason])).to.deep.equal([
        ['queue.entered', undefined],
        ['queue.exited', 'hangup'],
      ]);
      expect((await client.get(`/v1/calls/${call.id}`)).body).to.include({ status: 'completed', hangup_cause: 'caller_hangup' });
    });

    it('the call record carries its queue while the caller waits; hung up by the API, the caller leaves it', async () => {
      const { client, number, queue } = await queued([{ id: 'al', name: 'Al', phone: NUMBERS.longRing }]);
      const call = await ringIn(client, number, { lines: [''] });
      const waiting = await eventually('the caller queued', async () => (await client.get(`/v1/calls/${call.id}`)).body.queue ?? undefined);
      expect(waiting).to.deep.include({ id: queue.id, name: 'Front desk', position: 1 });
      const second = await ringIn(client, number, { lines: [''] });
      expect(
        await eventually('the second caller queued', async () => (await client.get(`/v1/calls/${second.id}`)).body.queue ?? undefined),
      ).to.include({ position: 2 });
      await client.post(`/v1/calls/${call.id}/hangup`);
      await finalResult(client, call.id);
      expect((await client.get(`/v1/calls/${call.id}`)).body).to.include({ status: 'completed', queue: null });
      expect((await queueEvents(call.id)).map((m) => [m.type, m.queue.reason])).to.deep.equal([
        ['queue.entered', undefined],
        ['queue.exited', 'hangup'],
      ]);
      await client.post(`/v1/calls/${second.id}/hangup`);
      await finalResult(client, second.id);
    });

    it('timed out: nobody answers within max_wait_sec; queue.timeout max_wait', async () => {
      const { client, number } = await queued([{ id: 'al', name: 'Al', phone: NUMBERS.longRing }], { max_wait_sec: 10 });
      const call = await ringIn(client, number, { lines: [''] });
      await eventually('the queue entered', async () => (await queueEvents(call.id)).length === 1);
      await advanceUntil('the wait over', async () => (await client.get(`/v1/calls/${call.id}`)).body.status === 'completed');
      const moves = await queueEvents(call.id);
      expect(moves[1]).to.deep.include({ type: 'queue.timeout' });
      expect(moves[1]!.queue).to.include({ reason: 'max_wait' });
      expect(moves[1]!.queue.wait_sec).to.be.at.least(10);
      expect((await client.get(`/v1/calls/${call.id}`)).body.hangup_cause).to.equal('queue_timeout');
    });

    it('nobody available: queue.timeout no_agents at once', async () => {
      const { client, number } = await queued([{ id: 'al', name: 'Al', phone: NUMBERS.answer, available: false }]);
      const call = await ringIn(client, number, { lines: [''] });
      await finalResult(client, call.id);
      expect((await queueEvents(call.id)).map((m) => [m.type, m.queue.reason])).to.deep.equal([
        ['queue.entered', undefined],
        ['queue.timeout', 'no_agents'],
      ]);
    });
  });

  describe('mailboxes and the voicemail step', () => {
    /** A company with a message webhook whose number routes to a new mailbox. */
    async function mailboxed() {
      const company = await routed(null, { messageWebhookUrl: 'https://127.0.0.1:9/messages' });
      const created = await company.client.post('/v1/mailboxes', { name: 'After hours', greeting: 'Leave a message after the tone.' });
      expect(created.status, JSON.stringify(created.body)).to.equal(201);
      const res = await company.client.patch(`/v1/numbers/${encodeURIComponent(company.number)}`, {
        routing: { type: 'voicemail', mailbox_id: created.body.id },
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      return { ...company, mailbox: created.body };
    }
    const messageOf = async (callId: string) =>
      (
        await app.runtime.ctx
          .db('webhook_outbox')
          .where({ type: 'message.created' })
          .andWhereRaw("payload->'data'->'call'->>'id' = ?", [callId])
      )[0]?.payload.data;
    /** A voicemail left by a caller saying `lines`, as message.created sent it. */
    const leaveVoicemail = async (client: Client, number: string, lines: string[]) => {
      const call = await ringIn(client, number, { lines });
      await advanceUntil('the voicemail recorded', async () => (await client.get(`/v1/calls/${call.id}`)).body.status === 'completed');
      return (await eventually('message.created', () => messageOf(call.id))).message;
    };
    /** A message the number's agent takes down from a caller (the number is routed to it from now on). */
    const takeMessage = async (client: Client, number: string, agent: string) => {
      expect(
        (await client.patch(`/v1/numbers/${encodeURIComponent(number)}`, { routing: { type: 'ai', agent_id: agent } })).status,
      ).to.equal(200);
      app.script(
        `+1202555${3000 + callers}`,
        { toolCalls: [{ name: 'take_message', arguments: { summary: 'Call Eve back', details: { name: 'Eve' } } }] },
        { content: 'Noted.' },
      );
      const call = await ringIn(client, number, { lines: ['Please ask them to call Eve.'] });
      await finalResult(client, call.id);
      return (await eventually('message.created', () => messageOf(call.id))).message;
    };
    /** GET a recording_url, reaching the app behind the public URL. */
    const download = (url: string, apiKey?: string) =>
      fetch(url.replace(PUBLIC_URL, app.url), { headers: apiKey ? { authorization: `Bearer ${apiKey}` } : {} });

    it("POST/GET /v1/mailboxes keep the account's mailboxes", async () => {
      const { client, mailbox } = await mailboxed();
      expect(mailbox).to.deep.include({ name: 'After hours', greeting: 'Leave a message after the tone.' });
      expect(mailbox.id).to.match(/^mbx_/);
      expect((await client.get('/v1/mailboxes')).body.data).to.deep.equal([mailbox]);
      expect((await client.get(`/v1/mailboxes/${mailbox.id}`)).body).to.deep.equal(mailbox);
      expect((await (await routed(null)).client.get(`/v1/mailboxes/${mailbox.id}`)).status).to.equal(404);
      expect((await client.post('/v1/mailboxes', { name: 'No greeting' })).body.error.code).to.equal('invalid_greeting');
    });

    it('the caller hears the greeting and leaves a voicemail; message.created after the call ends; its recording is a WAV of its length', async () => {
      const { client, number, mailbox, apiKey } = await mailboxed();
      const call = await ringIn(client, number, { lines: ['Hi, this is Dan, please call me back about the invoice.'] });
      await advanceUntil('the voicemail recorded', async () => (await client.get(`/v1/calls/${call.id}`)).body.status === 'completed');
      await finalResult(client, call.id);
      const sent = await events(call.id);
      expect(sent.find((e) => e.type === 'call.updated')!.data).to.include({ handler: 'voicemail' });
      const created = await eventually('message.created', () => messageOf(call.id));
      expect(created.message).to.deep.include({
        kind: 'voicemail',
        caller: call.from,
        summary: 'Hi, this is Dan, please call me back about the invoice.',
        mailbox_id: mailbox.id,
        mailbox_name: 'After hours',
        duration_sec: 5,
        status: 'new',
      });
      expect(created.message.recording_url).to.equal(`${PUBLIC_URL}/v1/messages/${created.message.id}/recording`);
      expect((await client.get(`/v1/messages/${created.message.id}`)).body).to.deep.include({
        recording_url: created.message.recording_url,
        duration_sec: 5,
      });
      const recording = await download(created.message.recording_url, apiKey);
      expect(recording.status).to.equal(200);
      expect(recording.headers.get('content-type')).to.equal('audio/wav');
      const file = Buffer.from(await recording.arrayBuffer());
      expect(Number(recording.headers.get('content-length'))).to.equal(file.length);
      expect(readWav(file)).to.deep.include({ format: 1, channels: 1, sampleRate: 8000, bitsPerSample: 16, seconds: 5 });
    });

    it('a recording is the audio of what the caller said: two messages of one length sound different', async () => {
      const { client, number, apiKey } = await mailboxed();
      const audioOf = async (words: string) => {
        const message = await leaveVoicemail(client, number, [words]);
        const wav = readWav(Buffer.from(await (await download(message.recording_url, apiKey)).arrayBuffer()));
        expect(wav.seconds).to.equal(message.duration_sec);
        return wav.data;
      };
      const first = await audioOf('Call me back today.');
      const second = await audioOf('Ring the shop soon.');
      expect(first.length).to.equal(second.length);
      expect(first.equals(second)).to.equal(false);
    });

    it('a voicemail ends at 120 s of audio, without waiting for silence', async () => {
      const { client, number, apiKey } = await mailboxed();
      const call = await ringIn(client, number, { lines: [Array(310).fill('hi').join(' ')] });
      const result = await finalResult(client, call.id);
      expect(result).to.include({ status: 'completed' });
      expect((await client.get(`/v1/calls/${call.id}`)).body.hangup_cause).to.equal('voicemail_recorded');
      const { message } = await eventually('message.created', () => messageOf(call.id));
      expect(message.duration_sec).to.equal(120);
      expect(readWav(Buffer.from(await (await download(message.recording_url, apiKey)).arrayBuffer())).seconds).to.equal(120);
    });

    it("GET /v1/messages/{id}/recording: 401 without a key; 404 for another account's message and for a message without audio", async () => {
      const { client, number, agent } = await mailboxed();
      const voicemail = await leaveVoicemail(client, number, ['Hello, it is Eve.']);
      expect((await download(voicemail.recording_url)).status).to.equal(401);
      const path = new URL(voicemail.recording_url.replace(PUBLIC_URL, app.url)).pathname;
      const elsewhere = await (await routed(null)).client.get(path);
      expectVoiceError(elsewhere, 404, 'not_found');
      // What an AI agent takes down has no audio.
      const taken = await takeMessage(client, number, agent);
      expect(taken).to.not.have.property('recording_url');
      const silent = await client.get(`/v1/messages/${taken.id}/recording`);
      expectVoiceError(silent, 404, 'not_found');
      // The error is JSON, said so: not sent as the audio that was asked for.
      for (const refused of [elsewhere, silent]) expect(refused.headers.get('content-type')).to.match(/^application\/json/);
    });

    it('GET /v1/messages: newest first, filtered by status, type, mailbox_id and agent_id, in pages', async () => {
      const { client, number, mailbox, agent } = await mailboxed();
      const first = await leaveVoicemail(client, number, ['First message.']);
      const second = await leaveVoicemail(client, number, ['Second message.']);
      const taken = await takeMessage(client, number, agent);
      const empty = (await client.post('/v1/mailboxes', { name: 'Empty', greeting: 'Nobody here.' })).body;
      expect((await client.patch(`/v1/messages/${first.id}`, { status: 'read' })).status).to.equal(200);
      const ids = async (query: string) => {
        const res = await client.get(`/v1/messages?${query}`);
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
        return res.body.data.map((m: any) => m.id);
      };
      expect(await ids('')).to.deep.equal([taken.id, second.id, first.id]);
      expect(await ids('status=new')).to.deep.equal([taken.id, second.id]);
      expect(await ids('status=read')).to.deep.equal([first.id]);
      expect(await ids('status=archived')).to.deep.equal([]);
      expect(await ids('type=voicemail')).to.deep.equal([second.id, first.id]);
      expect(await ids('type=ai_message')).to.deep.equal([taken.id]);
      expect(await ids(`mailbox_id=${mailbox.id}`)).to.deep.equal([second.id, first.id]);
      expect(await ids(`mailbox_id=${empty.id}`)).to.deep.equal([]);
      expect(await ids(`agent_id=${agent}`)).to.deep.equal([taken.id]);
      expect(await ids(`type=voicemail&mailbox_id=${mailbox.id}&status=new`)).to.deep.equal([second.id]);
      const page = await client.get('/v1/messages?limit=2');
      expect(page.body.data.map((m: any) => m.id)).to.deep.equal([taken.id, second.id]);
      expect(await ids(`limit=2&cursor=${page.body.next_cursor}`)).to.deep.equal([first.id]);
      expect((await client.get(`/v1/messages?limit=2&cursor=${page.body.next_cursor}`)).body.next_cursor).to.equal(null);
      expect((await client.get(`/v1/messages/${second.id}`)).body).to.deep.equal(second);
      expect((await (await routed(null)).client.get('/v1/messages')).body.data).to.deep.equal([]);

      expectVoiceError(await client.get('/v1/messages?status=unread'), 422, 'invalid_status');
      expectVoiceError(await client.get('/v1/messages?type=fax'), 422, 'invalid_type');
      expectVoiceError(await client.get('/v1/messages?agent_id=nobody'), 422, 'invalid_agent_id');
      expectVoiceError(await client.get('/v1/messages?cursor=nonsense'), 422, 'invalid_cursor');
      expectVoiceError(await client.get('/v1/messages?limit=0'), 422, 'invalid_limit');
    });

    it('PATCH /v1/messages/{id}: each move of the lifecycle table; any other is refused 422 and changes nothing', async () => {
      const { client, number } = await mailboxed();
      const statusOf = new Map<string, string>();
      for (const row of MESSAGE_TRANSITIONS) {
        const { id } = await leaveVoicemail(client, number, [`A message to move ${row.from} → ${row.to}.`]);
        if (row.from !== 'new') expect((await client.patch(`/v1/messages/${id}`, { status: row.from })).body.status).to.equal(row.from);
        const moved = await client.patch(`/v1/messages/${id}`, { status: row.to });
        expect(moved.status, `${row.from} → ${row.to}: ${JSON.stringify(moved.body)}`).to.equal(200);
        expect(moved.body.status).to.equal(row.to);
        expect((await client.get(`/v1/messages/${id}`)).body.status).to.equal(row.to);
        statusOf.set(id, row.to);
      }
      const allowed = (from: string, to: string) => from === to || MESSAGE_TRANSITIONS.some((t) => t.from === from && t.to === to);
      for (const from of MESSAGE_STATUSES) {
        for (const to of MESSAGE_STATUSES.filter((to) => !allowed(from, to))) {
          const id = [...statusOf].find(([, status]) => status === from)?.[0];
          expect(id, `a message in ${from}`).to.be.a('string');
          const refused = await client.patch(`/v1/messages/${id}`, { status: to });
          expectVoiceError(refused, 422, 'invalid_status');
          expect(refused.body.error.message).to.match(/^status: /);
          expect((await client.get(`/v1/messages/${id}`)).body.status, `${from} → ${to} changed nothing`).to.equal(from);
        }
      }
      // The same status again is no move: 200, nothing changes.
      const [id, status] = [...statusOf][0]!;
      expect((await client.patch(`/v1/messages/${id}`, { status })).body.status).to.equal(status);
      expectVoiceError(await client.patch(`/v1/messages/${id}`, { status: 'unread' }), 422, 'invalid_status');
      expectVoiceError(await client.patch(`/v1/messages/${id}`, { status: 'read', note: 'x' }), 400, 'invalid_json');
      const other = await routed(null);
      expectVoiceError(await other.client.get(`/v1/messages/${id}`), 404, 'not_found');
      expectVoiceError(await other.client.patch(`/v1/messages/${id}`, { status: 'archived' }), 404, 'not_found');
      expect((await client.get(`/v1/messages/${id}`)).body.status).to.equal(status);
    });

    it('a caller who says nothing leaves no message: a missed call is not sent', async () => {
      const { client, number } = await mailboxed();
      const call = await ringIn(client, number, { lines: [''] });
      await advanceUntil('the recorder giving up', async () => (await client.get(`/v1/calls/${call.id}`)).body.status === 'completed');
      await finalResult(client, call.id);
      expect(await messageOf(call.id)).to.equal(undefined);
      expect((await client.get(`/v1/calls/${call.id}`)).body.hangup_cause).to.equal('voicemail_recorded');
    });
  });

  describe('the per-agent message webhook', () => {
    it("a message an agent takes goes to the agent's own webhook; voicemails and other agents' messages to the account's, each signed", async () => {
      const account = await startReceiver('');
      const own = await startReceiver('');
      try {
        const { client, number, tenantId, agentId } = await routed(null, { messageWebhookUrl: account.url });
        account.secret = own.secret = await webhookSecret(app.runtime.ctx, tenantId);
        await updateAgent(app.runtime.ctx, agentId, { messageWebhookUrl: own.url });
        const other = await createAgent(app.runtime.ctx, tenantId, { name: 'Night desk' });
        const mailbox = (await client.post('/v1/mailboxes', { name: 'After hours', greeting: 'Leave a message.' })).body;
        const routeTo = async (routing: object) =>
          expect((await client.patch(`/v1/numbers/${encodeURIComponent(number)}`, { routing })).status).to.equal(200);
        const takesMessage = async (summary: string) => {
          app.script(`+1202555${3000 + callers}`, { toolCalls: [{ name: 'take_message', arguments: { summary } }] }, { content: 'Noted.' });
          const call = await ringIn(client, number, { lines: ['Please take a message.'] });
          await finalResult(client, call.id);
          return call.id as string;
        };

        await routeTo({ type: 'ai', agent_id: agentRef(agentId) });
        const byOwnAgent = await takesMessage('For the own webhook');
        await routeTo({ type: 'ai', agent_id: agentRef(other.id) });
        const byOtherAgent = await takesMessage('For the account');
        await routeTo({ type: 'voicemail', mailbox_id: mailbox.id });
        const voicemail = (await ringIn(client, number, { lines: ['A voicemail for the account.'] })).id as string;
        await advanceUntil('the voicemail recorded', async () => (await client.get(`/v1/calls/${voicemail}`)).body.status === 'completed');
        await finalResult(client, voicemail);

        const createdFor = (r: Receiver) =>
          r.events.filter((e) => e.type === 'message.created').map((e) => [e.data.call.id, e.data.message.kind, e.data.message.summary]);
        await eventually('every message delivered', () => createdFor(own).length + createdFor(account).length === 3);
        expect(createdFor(own)).to.deep.equal([[byOwnAgent, 'ai_message', 'For the own webhook']]);
        expect(createdFor(account)).to.have.deep.members([
          [byOtherAgent, 'ai_message', 'For the account'],
          [voicemail, 'voicemail', 'A voicemail for the account.'],
        ]);
        expect([...own.rejected, ...account.rejected]).to.deep.equal([]);
      } finally {
        await own.close();
        await account.close();
      }
    });
  });

  it('another agent of the account may take the ai step', async () => {
    const { client, number, tenantId } = await routed(null);
    const other = await createAgent(app.runtime.ctx, tenantId, { name: 'Night desk' });
    expect(
      (await client.patch(`/v1/numbers/${encodeURIComponent(number)}`, { routing: { type: 'ai', agent_id: agentRef(other.id) } })).status,
    ).to.equal(200);
    const call = await ringIn(client, number, { lines: ['Hello?'] });
    await finalResult(client, call.id);
    expect((await client.get(`/v1/calls/${call.id}`)).body.ai).to.deep.equal({ agent_id: agentRef(other.id) });
  });
});
