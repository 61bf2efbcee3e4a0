import { expect } from 'chai';
import pg from 'pg';
import { agentRef } from '../../../pkg/ids.js';
import { createAgent, updateAgent } from '../../../pkg/agent/settings.js';
import { callStatus, finalResult, NUMBERS, outboxOf, startCallsApp, SUMMARY, type CallsApp } from '../../support/calls.js';
import { eventually } from '../../support/eventually.js';
import { offeredTools } from '../../support/model.js';
import { heldReply } from '../../support/triggers.js';

const EVENTS_URL = 'https://127.0.0.1:9/events';
const MESSAGES_URL = 'https://127.0.0.1:9/messages';
const CALLBACK_URL = 'https://127.0.0.1:9/result';

describe('Calls on the simulated network', () => {
  let app: CallsApp;
  before(async () => {
    app = await startCallsApp({ controllers: true });
  });
  after(async () => {
    await app?.close();
  });

  const company = () => app.voiceCompany({ eventsUrl: EVENTS_URL, messageWebhookUrl: MESSAGES_URL });
  const types = async (callId: string) => (await outboxOf(app, callId)).map((e) => e.type);

  it('an answered call ends with the outcome and answers the agent gave, a transcript, a summary and its events in order', async () => {
    const { client, tenantId, agentId } = await company();
    const task = 'Ask Ann about her budget';
    app.script(
      task,
      { content: 'Hi Ann, this is Acme. What is your budget?' },
      { toolCalls: [{ name: 'end_call', arguments: { outcome: 'completed', answers: { budget: '500' }, note: 'Budget known' } }] },
      { content: 'Thank you, goodbye!' },
    );
    const placed = await client.post('/v1/calls', {
      to: NUMBERS.answer,
      task,
      questions: [{ key: 'budget', question: 'What is your budget?' }],
      callback_url: CALLBACK_URL,
      metadata: { crm: 'lead-7' },
    });
    expect(placed.status, JSON.stringify(placed.body)).to.equal(201);
    const result = await finalResult(client, placed.body.id);
    expect(result).to.deep.include({
      call_id: placed.body.id,
      status: 'completed',
      final: true,
      outcome: 'completed',
      summary: SUMMARY,
      to: NUMBERS.answer,
    });
    expect(result.result).to.deep.equal({ outcome: 'completed', answers: { budget: '500' }, note: 'Budget known' });
    expect(result.metadata).to.deep.equal({ crm: 'lead-7' });
    expect(result.transcript).to.deep.equal([
      { speaker: 'caller', text: 'Hello, this is Ann.' },
      { speaker: 'agent', text: 'Hi Ann, this is Acme. What is your budget?' },
      { speaker: 'caller', text: 'My budget is 500 dollars.' },
      { speaker: 'agent', text: 'Thank you, goodbye!' },
    ]);
    const call = (await client.get(`/v1/calls/${placed.body.id}`)).body;
    expect(call).to.include({ status: 'completed', hangup_cause: 'agent_hangup', handler: 'ai' });
    expect(call.answered_at).to.be.a('string');
    expect(call.ended_at).to.be.a('string');

    // The brief, the questions and the allowed outcomes reached the agent, with the call tools.
    const first = app.model.requests.find((r) => JSON.stringify(r.messages).includes(task))!;
    const system = first.messages
      .filter((m) => m.role === 'system')
      .map((m) => m.content)
      .join('\n');
    expect(system)
      .to.include('budget: What is your budget?')
      .and.include('completed, not_interested, callback_requested, wrong_number, do_not_call');
    expect(offeredTools(first)).to.include.members(['end_call', 'transfer_call', 'take_message']);

    const events = await outboxOf(app, placed.body.id);
    expect(events.map((e) => e.type)).to.deep.equal([
      'call.initiated',
      'call.answered',
      'call.updated',
      'call.ended',
      'ai.summary',
      'call.result',
    ]);
    for (const e of events) {
      expect(e.payload).to.include({ type: e.type, tenant_id: tenantId });
      expect(e.payload.id).to.match(/^evt_/);
      expect(e.max_attempts).to.equal(1);
      expect([e.target, e.url]).to.deep.equal(e.type === 'call.result' ? ['callback', CALLBACK_URL] : ['events', EVENTS_URL]);
    }
    const byType = Object.fromEntries(events.map((e) => [e.type, e.payload.data]));
    expect(byType['call.initiated']).to.include({ id: placed.body.id, status: 'ringing' });
    expect(byType['call.answered']).to.include({ status: 'in-progress' });
    expect(byType['call.updated']).to.deep.include({ handler: 'ai', ai: { agent_id: agentRef(agentId) } });
    expect(byType['call.ended']).to.include({ status: 'completed', hangup_cause: 'agent_hangup' });
    expect(byType['ai.summary']).to.deep.include({
      summary: SUMMARY,
      transcript: result.transcript,
      outcome: 'completed',
      result: result.result,
    });
    expect(byType['call.result']).to.deep.equal(result);
  });

  it('a busy line ends busy, with no agent and no summary event', async () => {
    const { client } = await company();
    const placed = await client.post('/v1/calls', { to: NUMBERS.busy });
    const result = await finalResult(client, placed.body.id);
    expect(result).to.deep.include({ status: 'busy', outcome: 'busy', result: null, transcript: [], duration_sec: 0 });
    expect(result.summary).to.be.a('string').and.not.empty;
    expect((await client.get(`/v1/calls/${placed.body.id}`)).body).to.include({ hangup_cause: 'busy', answered_at: null });
    expect(await types(placed.body.id)).to.deep.equal(['call.initiated', 'call.ended']);
  });

  it('an unanswered call ends no-answer after ringing', async () => {
    const { client } = await company();
    const placed = await client.post('/v1/calls', { to: NUMBERS.noAnswer, callback_url: CALLBACK_URL });
    const result = await finalResult(client, placed.body.id);
    expect(result).to.deep.include({ status: 'no-answer', outcome: 'no-answer' });
    expect(await types(placed.body.id)).to.deep.equal(['call.initiated', 'call.ended', 'call.result']);
  });

  it('a call the network refuses ends failed without ringing', async () => {
    const { client } = await company();
    const placed = await client.post('/v1/calls', { to: NUMBERS.fail });
    const result = await finalResult(client, placed.body.id);
    expect(result).to.deep.include({ status: 'failed', outcome: 'failed' });
    expect((await client.get(`/v1/calls/${placed.body.id}`)).body).to.include({ hangup_cause: 'failed' });
    expect(await types(placed.body.id)).to.deep.equal(['call.ended']);
  });

  it("on an answering machine the agent leaves the voicemail its brief asks for: the call's outcome voicemail, not a message", async () => {
    const { client } = await company();
    const task = 'Leave a voicemail about the renewal';
    const message = 'Hi, this is Acme about your renewal. Please call us back at your convenience.';
    app.script(task, { toolCalls: [{ name: 'leave_voicemail', arguments: { message } }] }, { content: '' });
    const placed = await client.post('/v1/calls', { to: NUMBERS.voicemail, task, callback_url: CALLBACK_URL });
    const result = await finalResult(client, placed.body.id);
    expect(result).to.deep.include({ status: 'completed', outcome: 'voicemail', transcript: [{ speaker: 'agent', text: message }] });
    expect(result.result).to.deep.equal({ outcome: 'voicemail', answers: {}, note: 'Left a voicemail' });
    expect(await types(placed.body.id)).to.deep.equal([
      'call.initiated',
      'call.answered',
      'call.updated',
      'call.ended',
      'ai.summary',
      'call.result',
    ]);
    expect((await outboxOf(app, placed.body.id)).at(-1)!.payload.data).to.deep.include({ outcome: 'voicemail' });
    // DECISIONS.md "Outbound voicemail": messages are what callers leave for the account.
    expect(
      await app.runtime.ctx
        .db('webhook_outbox')
        .where({ type: 'message.created' })
        .andWhereRaw("payload->'data'->'call'->>'id' = ?", [placed.body.id]),
    ).to.deep.equal([]);
    expect((await client.get('/v1/messages')).body.data).to.deep.equal([]);
  });

  it('on an answering machine the agent leaves nothing when its brief does not ask for it', async () => {
    const { client } = await company();
    const task = 'Ask about the order, only in person';
    app.script(task, { content: '' });
    const placed = await client.post('/v1/calls', { to: NUMBERS.voicemail, task });
    const result = await finalResult(client, placed.body.id);
    expect(result).to.deep.include({ outcome: 'no-answer', transcript: [] });
    expect(await app.runtime.ctx.db('voice_messages').where({ call_id: placed.body.id })).to.deep.equal([]);
  });

  it('a call hung up by the API while ringing ends canceled, and its result is final with call.result', async () => {
    const { client } = await company();
    const placed = await client.post('/v1/calls', { to: NUMBERS.longRing, callback_url: CALLBACK_URL });
    await callStatus(client, placed.body.id, 'ringing');
    const hung = await client.post(`/v1/calls/${placed.body.id}/hangup`);
    expect(hung.body).to.include({ status: 'canceled', hangup_cause: 'api_hangup' });
    const result = await finalResult(client, placed.body.id);
    expect(result).to.deep.include({ status: 'canceled', outcome: 'canceled' });
    expect(await types(placed.body.id)).to.deep.equal(['call.initiated', 'call.ended', 'call.result']);
  });

  it('a call hung up by the API on the line ends completed, with the summary written by the model', async () => {
    const { client } = await company();
    const task = 'Keep talking';
    app.script(task, { content: 'Hello, are you there?' });
    const placed = await client.post('/v1/calls', { to: NUMBERS.stays, task });
    await callStatus(client, placed.body.id, 'in-progress');
    // Once the agent has spoken, the callee's next line (a minute away) is all that is left.
    await eventually(
      'the agent speaking',
      async () => (await client.get(`/v1/calls/${placed.body.id}/result`)).body.transcript.length === 2,
    );
    const hung = await client.post(`/v1/calls/${placed.body.id}/hangup`);
    expect(hung.status).to.equal(200);
    expect(hung.body).to.include({ status: 'completed', hangup_cause: 'api_hangup' });
    expect(await finalResult(client, placed.body.id)).to.deep.include({
      status: 'completed',
      outcome: 'completed',
      summary: SUMMARY,
      transcript: [
        { speaker: 'caller', text: 'Hello?' },
        { speaker: 'agent', text: 'Hello, are you there?' },
      ],
    });
    expect((await client.post(`/v1/calls/${placed.body.id}/hangup`)).body.error.code).to.equal('call_ended');
  });

  it('a call hung up by the API while the agent is answering says nothing more: the reply is never spoken or written', async () => {
    const { client } = await company();
    const task = 'Hung up mid-answer';
    const held = heldReply({ content: 'Words nobody hears.' });
    app.script(task, held.reply);
    const placed = await client.post('/v1/calls', { to: NUMBERS.stays, task });
    await eventually('the model asked', () => app.model.requests.some((r) => JSON.stringify(r.messages).includes(task)));
    const hung = await client.post(`/v1/calls/${placed.body.id}/hangup`);
    expect(hung.body).to.include({ status: 'completed', hangup_cause: 'api_hangup' });
    held.release();
    expect((await finalResult(client, placed.body.id)).transcript).to.deep.equal([{ speaker: 'caller', text: 'Hello?' }]);
  });

  it("a steered call: the instruction joins the agent's context before its next turn, and say is spoken", async () => {
    const { client } = await company();
    const task = 'Sell the premium plan';
    const held = heldReply({ content: 'Hi, do you have a minute?' });
    app.script(
      task,
      held.reply,
      { toolCalls: [{ name: 'end_call', arguments: { outcome: 'completed', note: 'Offered the discount' } }] },
      { content: 'We can give you ten percent off. Goodbye!' },
    );
    const placed = await client.post('/v1/calls', { to: '+1 202 555 0120', task });
    expect(placed.status).to.equal(201);
    await callStatus(client, placed.body.id, 'in-progress');
    // Steered while the agent answers: what is written meanwhile is taken before its next turn.
    await eventually('the agent asked', () => app.model.requests.some((r) => JSON.stringify(r.messages).includes(task)));
    const steered = await client.post(`/v1/calls/${placed.body.id}/steer`, {
      instruction: 'Offer ten percent off',
      say: 'One moment, please.',
    });
    expect(steered.status).to.equal(202);
    expect(steered.body).to.deep.equal({ call_id: placed.body.id, accepted: true });
    held.release();
    const result = await finalResult(client, placed.body.id);
    expect(result.transcript).to.deep.include({ speaker: 'agent', text: 'One moment, please.' });
    expect(result.transcript.at(-1)).to.deep.equal({ speaker: 'agent', text: 'We can give you ten percent off. Goodbye!' });
    const ended = app.model.requests.find((r) =>
      r.messages.some((m) => m.role === 'assistant' && JSON.stringify(m).includes('One moment, please.')),
    )!;
    expect(JSON.stringify(ended.messages)).to.include('Offer ten percent off');
    expect(result.result).to.deep.equal({ outcome: 'completed', answers: {}, note: 'Offered the discount' });
    expect((await client.post(`/v1/calls/${placed.body.id}/steer`, { say: 'Hi' })).body.error.code).to.equal('call_ended');
  });

  it("a call handed to another agent mid-call carries that agent's id in the call and in every event after the handoff", async () => {
    const { client, tenantId, agentId } = await company();
    const billing = await createAgent(app.runtime.ctx, tenantId, { name: 'Billing', systemPrompt: 'You are billing.' });
    await updateAgent(app.runtime.ctx, agentId, {
      handoffEnabled: true,
      handoffRoster: [{ roleName: 'billing', agentId: billing.id, greeting: 'Billing here' }],
    });
    const task = 'Pass Ann to billing';
    app.script(
      task,
      { toolCalls: [{ name: 'handoff_to_agent', arguments: { roleName: 'billing' } }] },
      { content: 'Billing here. What is your budget?' },
      { toolCalls: [{ name: 'end_call', arguments: { outcome: 'completed', note: 'Budget known' } }] },
      { content: 'Thank you, goodbye!' },
    );
    const placed = await client.post('/v1/calls', { to: NUMBERS.answer, task, callback_url: CALLBACK_URL });
    expect(placed.status, JSON.stringify(placed.body)).to.equal(201);
    const result = await finalResult(client, placed.body.id);
    expect(result).to.deep.include({ status: 'completed', outcome: 'completed' });
    expect(result.transcript).to.deep.include({ speaker: 'agent', text: 'Billing here. What is your budget?' });
    expect((await client.get(`/v1/calls/${placed.body.id}`)).body.ai).to.deep.equal({ agent_id: agentRef(billing.id) });
    const events = await outboxOf(app, placed.body.id);
    expect(events.map((e) => e.type)).to.deep.equal([
      'call.initiated',
      'call.answered',
      'call.updated',
      'call.ended',
      'ai.summary',
      'call.result',
    ]);
    const agentOf = (type: string) => events.find((e) => e.type === type)!.payload.data.ai?.agent_id;
    expect(agentOf('call.updated')).to.equal(agentRef(agentId));
    expect(agentOf('call.ended')).to.equal(agentRef(billing.id));
    expect(agentOf('ai.summary')).to.equal(agentRef(billing.id));
  });

  describe('transfer_call', () => {
    it('rings the target and, answered, bridges the person to it: ai.transfer answered, the call up with handler transfer until hung up', async () => {
      const { client } = await company();
      const task = 'Transfer to sales when asked';
      app.script(
        task,
        { toolCalls: [{ name: 'transfer_call', arguments: { target: '(202) 555-0116', name: 'Sales' } }] },
        { content: 'Connecting you to sales now.' },
      );
      const placed = await client.post('/v1/calls', { to: NUMBERS.answer, task });
      const bridged = await eventually('the bridge', async () => {
        const record = (await client.get(`/v1/calls/${placed.body.id}`)).body;
        return record.handler === 'transfer' && record;
      });
      expect(bridged).to.include({ status: 'in-progress' });
      expect((await client.post(`/v1/calls/${placed.body.id}/hangup`)).status).to.equal(200);
      const result = await finalResult(client, placed.body.id);
      expect(result).to.deep.include({ status: 'completed', outcome: 'transferred' });
      expect(result.result).to.deep.equal({ outcome: 'transferred', answers: {}, note: `Transferred to Sales (${NUMBERS.stays})` });
      expect(result.transcript.at(-1)).to.deep.equal({ speaker: 'agent', text: 'Connecting you to sales now.' });
      const events = await outboxOf(app, placed.body.id);
      expect(events.map((e) => e.type)).to.deep.equal([
        'call.initiated',
        'call.answered',
        'call.updated',
        'ai.transfer',
        'call.updated',
        'call.ended',
        'ai.summary',
      ]);
      expect(events[3]!.payload.data).to.deep.include({ status: 'in-progress', handler: 'transfer' });
      expect(events[3]!.payload.data.ai).to.deep.include({ transfer: { name: 'Sales', target: NUMBERS.stays, status: 'answered' } });
      expect(events[4]!.payload.data).to.include({ handler: 'transfer' });
    });

    it('not answered: ai.transfer says how it went and the agent, told, stays on the call', async () => {
      const { client } = await company();
      const task = 'Transfer to a busy line';
      app.script(
        task,
        { toolCalls: [{ name: 'transfer_call', arguments: { target: NUMBERS.busy, name: 'Sales' } }] },
        { content: 'One moment.' },
        (request) => ({
          content: JSON.stringify(request.messages).includes(`TRANSFER to ${NUMBERS.busy} did not go through (busy)`)
            ? 'Sales is busy, sorry.'
            : 'Not told.',
        }),
      );
      const placed = await client.post('/v1/calls', { to: NUMBERS.answer, task });
      const result = await finalResult(client, placed.body.id);
      expect(result).to.deep.include({ status: 'completed', outcome: 'completed', result: null });
      expect(result.transcript).to.deep.include({ speaker: 'agent', text: 'Sales is busy, sorry.' });
      expect((await client.get(`/v1/calls/${placed.body.id}`)).body).to.include({ handler: 'ai', hangup_cause: 'callee_hangup' });
      const transfers = (await outboxOf(app, placed.body.id)).filter((e) => e.type === 'ai.transfer');
      expect(transfers.map((e) => e.payload.data.ai.transfer)).to.deep.equal([{ name: 'Sales', target: NUMBERS.busy, status: 'busy' }]);
    });

    it('refuses a target that is not a phone number; the agent is told and nothing is rung', async () => {
      const { client } = await company();
      const task = 'Transfer to nowhere';
      app.script(
        task,
        { toolCalls: [{ name: 'transfer_call', arguments: { target: 'the sales team' } }] },
        { content: 'I cannot transfer you.' },
      );
      const placed = await client.post('/v1/calls', { to: NUMBERS.answer, task });
      await finalResult(client, placed.body.id);
      const told = app.model.requests.find((r) =>
        r.messages.some((m) => m.role === 'tool' && JSON.stringify(m).includes('Refused: target must be a phone number')),
      );
      expect(told, 'the refusal reaching the agent').to.not.equal(undefined);
      expect(await types(placed.body.id)).to.not.include('ai.transfer');
    });
  });

  it("the agent's own outcomes are what end_call takes; a call's outcomes still override them", async () => {
    const { client, agentId } = await company();
    await updateAgent(app.runtime.ctx, agentId, { outcomes: ['booked', 'not_booked'] });
    const task = 'Book a demo';
    app.script(
      task,
      { toolCalls: [{ name: 'end_call', arguments: { outcome: 'completed' } }] },
      { toolCalls: [{ name: 'end_call', arguments: { outcome: 'booked', note: 'Tuesday' } }] },
      { content: 'See you Tuesday!' },
    );
    const placed = await client.post('/v1/calls', { to: NUMBERS.answer, task });
    expect(await finalResult(client, placed.body.id)).to.deep.include({
      outcome: 'booked',
      result: { outcome: 'booked', answers: {}, note: 'Tuesday' },
    });
    const asked = app.model.requests.filter((r) => JSON.stringify(r.messages).includes(task));
    const endCallOf = (r: (typeof asked)[number]) => r.tools!.map((t: any) => t.function).find((f) => f.name === 'end_call');
    expect(endCallOf(asked[0]!).parameters.properties.outcome.enum).to.deep.equal(['booked', 'not_booked']);
    expect(JSON.stringify(asked[0]!.messages)).to.include('one of the outcomes booked, not_booked');
    expect(JSON.stringify(asked[1]!.messages)).to.include('Refused: outcome must be one of booked, not_booked');

    const override = 'Sell the plan';
    app.script(override, { toolCalls: [{ name: 'end_call', arguments: { outcome: 'sold' } }] }, { content: 'Welcome aboard!' });
    const sold = await client.post('/v1/calls', { to: NUMBERS.answer, task: override, outcomes: ['sold', 'not_sold'] });
    expect((await finalResult(client, sold.body.id)).outcome).to.equal('sold');
    const first = app.model.requests.find((r) => JSON.stringify(r.messages).includes(override))!;
    expect(endCallOf(first).parameters.properties.outcome.enum).to.deep.equal(['sold', 'not_sold']);
  });

  it('a message taken by the agent announces ai.message and, after the call, message.created', async () => {
    const { client, agentId } = await company();
    const task = 'Take a message if Bob is away';
    app.script(
      task,
      {
        toolCalls: [
          { name: 'take_message', arguments: { summary: 'Call Ann back about order 42', details: { name: 'Ann', order: '42' } } },
        ],
      },
      { content: 'I will pass it on.' },
    );
    const placed = await client.post('/v1/calls', { to: NUMBERS.answer, task });
    const result = await finalResult(client, placed.body.id);
    expect(result.status).to.equal('completed');
    const events = await outboxOf(app, placed.body.id);
    expect(events.map((e) => e.type)).to.deep.equal([
      'call.initiated',
      'call.answered',
      'call.updated',
      'ai.message',
      'call.ended',
      'ai.summary',
    ]);
    expect(events[3]!.payload.data.ai).to.deep.equal({
      agent_id: agentRef(agentId),
      message: { summary: 'Call Ann back about order 42', details: { name: 'Ann', order: '42' } },
    });
    const [created] = await app.runtime.ctx
      .db('webhook_outbox')
      .where({ type: 'message.created' })
      .andWhereRaw("payload->'data'->'call'->>'id' = ?", [placed.body.id]);
    expect(created).to.include({ target: 'message', url: MESSAGES_URL, max_attempts: 3 });
    expect(created.payload.data.message).to.deep.include({
      kind: 'ai_message',
      caller: NUMBERS.answer,
      summary: 'Call Ann back about order 42',
      details: { name: 'Ann', order: '42' },
      agent_id: agentRef(agentId),
      status: 'new',
    });
    expect(created.payload.data.call).to.deep.include({ id: placed.body.id, from: '+12025550100', to: NUMBERS.answer });
  });

  it('a message taken while the call is hung up is announced after call.ended with the call as ended, never as still live', async () => {
    const { client } = await company();
    const task = 'Take a message while being hung up';
    const held = heldReply({ toolCalls: [{ name: 'take_message', arguments: { summary: 'Call Ann back' } }] });
    app.script(task, held.reply, { content: 'Noted.' });
    const id = (await client.post('/v1/calls', { to: NUMBERS.stays, task })).body.id as string;
    await callStatus(client, id, 'in-progress');
    await eventually('the agent being asked', async () => app.model.requests.some((r) => JSON.stringify(r.messages).includes(task)));

    // The test holds the call's webhook-order lock: the hang-up queues behind it, then the message.
    const holder = new pg.Client({ connectionString: app.runtime.ctx.config.DATABASE_URL });
    await holder.connect();
    const waiting = (n: number) =>
      eventually(`${n} transactions waiting`, async () => {
        const { rows } = await holder.query(
          `select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
        );
        return rows[0].n >= n;
      });
    await holder.query('begin');
    await holder.query('select pg_advisory_xact_lock(hashtext($1))', [`webhook-order:${id}`]);
    const hangup = client.post(`/v1/calls/${id}/hangup`);
    await waiting(1);
    held.release();
    await waiting(2);
    await holder.query('commit');
    await holder.end();

    expect((await hangup).status).to.equal(200);
    await finalResult(client, id);
    const events = await outboxOf(app, id);
    const ended = events.findIndex((e) => e.type === 'call.ended');
    expect(events.slice(ended + 1).map((e) => e.type)).to.include('ai.message');
    for (const e of events.slice(ended + 1)) expect(e.payload.data.status, e.type).to.not.equal('in-progress');
  });

  it('a person who opts out is put on the do-not-call list', async () => {
    const { client } = await company();
    const task = 'Offer the plan; respect opt-outs';
    app.script(
      task,
      { toolCalls: [{ name: 'end_call', arguments: { outcome: 'do_not_call', note: 'Asked not to be called' } }] },
      { content: 'Sorry to bother you.' },
    );
    const placed = await client.post('/v1/calls', { to: '+12025550121', task });
    expect((await finalResult(client, placed.body.id)).outcome).to.equal('do_not_call');
    expect((await client.post('/v1/calls', { to: '+12025550121' })).body.error.code).to.equal('do_not_call');
  });

  it("an agent whose model fails after a tool round ends the call failed, the round's tokens charged to the call", async () => {
    const { client, tenantId } = await company();
    const task = 'Look it up, then fail';
    app.script(
      task,
      { toolCalls: [{ name: 'lookup_order', arguments: { orderId: 'A-17' } }], usage: { promptTokens: 800, completionTokens: 200 } },
      { fail: { status: 400, message: 'model down' } },
    );
    const placed = await client.post('/v1/calls', { to: NUMBERS.answer, task });
    expect(await finalResult(client, placed.body.id)).to.deep.include({ status: 'failed', outcome: 'failed' });
    const charges = await app.runtime.ctx
      .db('credit_ledger')
      .where({ tenant_id: tenantId, reference_type: 'api' })
      .select('amount', 'reference_id');
    expect(charges.map((c) => [Number(c.amount), c.reference_id])).to.deep.equal([[-1, placed.body.id]]);
  });

  it('an agent whose model fails ends the call failed', async () => {
    const { client } = await company();
    const task = 'Fail please';
    app.script(task, { fail: { status: 400, message: 'model down' } });
    const placed = await client.post('/v1/calls', { to: NUMBERS.answer, task });
    const result = await finalResult(client, placed.body.id);
    expect(result).to.deep.include({ status: 'failed', outcome: 'failed' });
    expect((await client.get(`/v1/calls/${placed.body.id}`)).body.hangup_cause).to.equal('agent_error');
  });

  it("stores the caller's words whole or not at all: a line the database refuses is in neither the transcript nor the conversation, and the call fails", async () => {
    const { client } = await company();
    const task = 'Ask Ann about her budget; her answer cannot be stored';
    app.script(task, { content: 'Hi Ann, what is your budget?' }, { content: 'Never said' });
    const { db } = app.runtime.ctx;
    await db.raw(`create function refuse_budget() returns trigger language plpgsql as $$
      begin if new.content = 'My budget is 500 dollars.' then raise exception 'no room' using errcode = 'disk_full'; end if; return new; end $$`);
    await db.raw('create trigger refuse_budget before insert on messages for each row execute function refuse_budget()');
    try {
      const placed = await client.post('/v1/calls', { to: NUMBERS.answer, task });
      const result = await finalResult(client, placed.body.id);
      expect(result).to.deep.include({ status: 'failed', outcome: 'failed' });
      expect(result.transcript).to.deep.equal([
        { speaker: 'caller', text: 'Hello, this is Ann.' },
        { speaker: 'agent', text: 'Hi Ann, what is your budget?' },
      ]);
      expect((await client.get(`/v1/calls/${placed.body.id}`)).body.hangup_cause).to.equal('agent_error');
      const { conversation_id } = await db('calls').where({ id: placed.body.id }).first();
      const said = await db('messages').where({ conversation_id, role: 'user' }).pluck('content');
      expect(said).to.deep.equal(['Hello, this is Ann.']);
    } finally {
      await db.raw('drop trigger refuse_budget on messages');
      await db.raw('drop function refuse_budget()');
    }
  });

  it('GET /v1/calls/{id}/result?wait= holds the request until the result is final', async () => {
    const { client } = await company();
    const placed = await client.post('/v1/calls', { to: NUMBERS.longRing });
    await callStatus(client, placed.body.id, 'ringing');
    const waiting = client.get(`/v1/calls/${placed.body.id}/result?wait=30`);
    await client.post(`/v1/calls/${placed.body.id}/hangup`);
    const res = await waiting;
    expect(res.status).to.equal(200);
    expect(res.body).to.include({ final: true, status: 'canceled' });
  });
});
