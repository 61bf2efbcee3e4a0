// What a call placed through any carrier speaking ConversationRelay does, run against each carrier's
// stand-in (carrier.test.ts for Twilio, carrier-telnyx.test.ts for Telnyx) inside its describe.
import { expect } from 'chai';
import type { Client } from '../../support/app.js';
import { finalResult, outboxOf, type CallsApp } from '../../support/calls.js';
import type { CarrierCall, ForcedAnswer, Scenario } from '../../support/carrier/call.js';

/** `POST /v1/calls` by `client`, which must take it; the call's id. */
export async function placeCall(client: Client, to: string, task: string): Promise<string> {
  const placed = await client.post('/v1/calls', { to, task });
  expect(placed.status, JSON.stringify(placed.body)).to.equal(201);
  return placed.body.id as string;
}

export interface RelayCarrier {
  name: 'twilio' | 'telnyx';
  /** The app, a company's client and the stand-in, as the describe's hooks set them for the running test. */
  now(): {
    app: CallsApp;
    client: Client;
    standIn: { phones: Record<string, Scenario>; calls: CarrierCall[]; failNextPlacement(answer: ForcedAnswer): void };
  };
  /** A number of this carrier's tests from its last four digits, apart from the other carrier's. */
  number(last4: string): string;
  /** An error placement answer with a 4xx in this carrier's terms. */
  rejected: ForcedAnswer;
}

export function relayCallTests(carrier: RelayCarrier): void {
  const place = (to: string, task: string) => placeCall(carrier.now().client, to, task);
  /** The stand-in's phone at `last4` behaves as `scenario`; returns the number. */
  const phone = (last4: string, scenario: Scenario) => {
    const to = carrier.number(last4);
    carrier.now().standIn.phones[to] = scenario;
    return to;
  };

  it('places the call and converses over the relay: transcript, result and events as with the simulator', async () => {
    const { app, client } = carrier.now();
    const heard: string[] = [];
    const to = phone('0111', {
      answer: 'human',
      caller: async (c) => {
        c.say('Hello, this is Ann.');
        heard.push((await c.reply()).text);
        c.say('Yes, Tuesday works.');
        heard.push((await c.reply()).text);
        await c.hangUp();
      },
    });
    const task = `Confirm the Tuesday appointment (${carrier.name})`;
    app.script(task, { content: 'Hi Ann, can you make Tuesday at ten?' }, { content: 'Great, see you then. Goodbye!' });
    const id = await place(to, task);

    const result = await finalResult(client, id);
    expect(result).to.include({ status: 'completed' });
    expect(heard).to.deep.equal(['Hi Ann, can you make Tuesday at ten?', 'Great, see you then. Goodbye!']);
    expect(result.transcript).to.deep.equal([
      { speaker: 'caller', text: 'Hello, this is Ann.' },
      { speaker: 'agent', text: 'Hi Ann, can you make Tuesday at ten?' },
      { speaker: 'caller', text: 'Yes, Tuesday works.' },
      { speaker: 'agent', text: 'Great, see you then. Goodbye!' },
    ]);
    expect((await client.get(`/v1/calls/${id}`)).body).to.include({ status: 'completed', hangup_cause: 'callee_hangup' });
    expect((await outboxOf(app, id)).map((e) => e.type)).to.deep.equal([
      'call.initiated',
      'call.answered',
      'call.updated',
      'call.ended',
      'ai.summary',
    ]);
  });

  it('streams the reply as tokens while the model writes it, and an interruption stops the model and keeps what was heard', async () => {
    const { app, client } = carrier.now();
    let cutAt = '';
    const to = phone('0112', {
      answer: 'human',
      caller: async (c) => {
        c.say('Hi.');
        cutAt = (await c.interruptAfter(1)).text;
        c.say('Sorry, what day?');
        await c.reply();
        await c.hangUp();
      },
    });
    const task = `Tell them about the sale (${carrier.name})`;
    // The model writes its first words, then is slow with the rest: the caller cuts in meanwhile.
    let release!: () => void;
    const rest = new Promise<void>((resolve) => (release = resolve));
    app.script(
      task,
      { chunks: ['Our big ', 'sale starts Monday and runs all week.'], holdAfterFirst: rest },
      { content: 'It starts on Monday.' },
    );
    const id = await place(to, task);

    const result = await finalResult(client, id).finally(release);
    expect(cutAt).to.equal('Our big ');
    expect(result.transcript).to.deep.equal([
      { speaker: 'caller', text: 'Hi.' },
      { speaker: 'agent', text: 'Our big ' },
      { speaker: 'caller', text: 'Sorry, what day?' },
      { speaker: 'agent', text: 'It starts on Monday.' },
    ]);
    // The model was stopped: the agent's next request knows what the caller heard.
    const second = app.model.requests.filter((r) => JSON.stringify(r.messages).includes(task)).at(-1)!;
    expect(JSON.stringify(second.messages)).to.include('they heard only: \\"Our big \\"');
  });

  it('gives the agent the keys the caller presses, digits in quick succession as one entry', async () => {
    const { app, client } = carrier.now();
    let answer = '';
    const to = phone('0123', {
      answer: 'human',
      caller: async (c) => {
        c.say('I have my order number.');
        await c.reply();
        c.press('42');
        answer = (await c.reply()).text;
        await c.hangUp();
      },
    });
    const task = `Take the order number (${carrier.name})`;
    app.script(task, { content: 'Please key it in.' }, { content: 'Order 42, thank you.' });
    const result = await finalResult(client, await place(to, task));
    expect(answer).to.equal('Order 42, thank you.');
    expect(result.transcript.map((t: { text: string }) => t.text)).to.include('[pressed 42]');
  });

  it('ends a call the carrier reports busy or unanswered, with its cause', async () => {
    const { app, client } = carrier.now();
    const busy = await place(phone('0113', { answer: 'busy' }), 'Busy line');
    const unanswered = await place(phone('0114', { answer: 'no-answer' }), 'Nobody home');
    expect((await finalResult(client, busy)).status).to.equal('busy');
    expect((await finalResult(client, unanswered)).status).to.equal('no-answer');
    expect((await outboxOf(app, busy)).map((e) => e.type)).to.deep.equal(['call.initiated', 'call.ended']);
    expect((await client.get(`/v1/calls/${busy}`)).body.hangup_cause).to.equal('busy');
  });

  for (const [what, forced, cause] of [
    ['answers 4xx', carrier.rejected, 'carrier_rejected'],
    ['answers 5xx', { status: 503 }, 'carrier_error'],
    ['never answers', 'hang', 'carrier_timeout'],
  ] as const) {
    it(`fails the call with a clear hangup_cause when the carrier ${what} on placement, its slot given back`, async () => {
      const { app } = carrier.now();
      // One call at a time: the next placement is taken only if the failed one gave its slot back.
      const { client } = await app.voiceCompany({ eventsUrl: 'https://127.0.0.1:9/events', maxConcurrentCalls: 1 });
      carrier.now().standIn.failNextPlacement(forced);
      const placed = await client.post('/v1/calls', { to: carrier.number('0115'), task: `Placement that ${what}` });
      const result = await finalResult(client, placed.body.id);
      expect(result.status).to.equal('failed');
      expect((await client.get(`/v1/calls/${placed.body.id}`)).body.hangup_cause).to.equal(cause);
      const after = await client.post('/v1/calls', { to: phone('0160', { answer: 'busy' }), task: `After a placement that ${what}` });
      expect(after.status, JSON.stringify(after.body)).to.equal(201);
      expect((await finalResult(client, after.body.id)).status).to.equal('busy');
    });
  }

  it('a socket the carrier drops mid-reply ends the call as the carrier reports it, keeping what was said', async () => {
    const { app, client } = carrier.now();
    const to = phone('0120', {
      answer: 'human',
      caller: async (c) => {
        c.say('Hello?');
        await c.interruptAfter(1).catch(() => null);
        await c.disconnect();
      },
    });
    const task = `A long story (${carrier.name})`;
    let release!: () => void;
    const rest = new Promise<void>((resolve) => (release = resolve));
    app.script(task, { chunks: ['Once upon ', 'a time there was a very long story.'], holdAfterFirst: rest });
    const result = await finalResult(client, await place(to, task)).finally(release);
    expect(result.status).to.equal('completed');
    expect(result.transcript[0]).to.deep.equal({ speaker: 'caller', text: 'Hello?' });
  });

  it('counts and logs the errors the carrier reports on the relay, by carrier', async () => {
    const { app, client } = carrier.now();
    const to = phone('0119', {
      answer: 'human',
      caller: async (c) => {
        c.reportError('Invalid message received: {"type":"txt"}');
        await c.hangUp();
      },
    });
    await finalResult(client, await place(to, 'Carrier error'));
    const metrics = await (await fetch(`${app.metricsUrl}/metrics`)).text();
    expect(metrics).to.match(new RegExp(`switchboard_carrier_errors_total\\{carrier="${carrier.name}"\\} [1-9]`));
    expect(app.logs.join('')).to.include('the carrier reported a relay error');
  });

  it("ends the relay session with the agent's transfer in handoffData, and <Dial>s the target: ai.transfer answered, the call ended with the bridge", async () => {
    const { app, client, standIn } = carrier.now();
    const target = phone('0132', { answer: 'human' });
    let end: any;
    const to = phone('0121', {
      answer: 'human',
      caller: async (c) => {
        c.say('Can I talk to sales?');
        await c.reply();
        end = await c.nextOf('end');
      },
    });
    const task = `Transfer to sales (${carrier.name})`;
    app.script(
      task,
      { toolCalls: [{ name: 'transfer_call', arguments: { target, name: 'Sales' } }] },
      { content: 'Connecting you to sales now.' },
    );
    const id = await place(to, task);
    const result = await finalResult(client, id);
    const carried = standIn.calls.find((c) => c.params.To === to)!;
    await carried.done;
    expect(carried.errors).to.deep.equal([]);
    expect(JSON.parse(end.handoffData)).to.deep.equal({ reason: 'transfer', target, name: 'Sales' });
    expect(carried.dialled).to.deep.equal([{ to: target, callerId: carried.params.From, timeout: '30', status: 'completed' }]);
    expect(result.transcript.at(-1)).to.deep.equal({ speaker: 'agent', text: 'Connecting you to sales now.' });
    const transfers = (await outboxOf(app, id)).filter((e) => e.type === 'ai.transfer');
    expect(transfers.map((e) => e.payload.data.ai.transfer)).to.deep.equal([{ name: 'Sales', target, status: 'answered' }]);
    expect(result).to.deep.include({
      status: 'completed',
      result: { outcome: 'transferred', answers: {}, note: `Transferred to Sales (${target})` },
    });
    // The target hung up first: the call ended with the bridge, as on the simulator.
    expect((await client.get(`/v1/calls/${id}`)).body).to.include({ handler: 'transfer', hangup_cause: 'transfer_ended' });
  });

  it('hands a call an answering machine took to the voicemail path: the message is spoken, the outcome voicemail', async () => {
    const { app, client, standIn } = carrier.now();
    let spoken: string[] = [];
    const to = phone('0163', {
      answer: 'machine',
      answeredBy: 'machine_end_beep',
      caller: async (c) => {
        await c.nextOf('end');
        spoken = c.sent('text').map((t) => t.token);
      },
    });
    const task = `Leave a voicemail about the renewal (${carrier.name})`;
    app.script(
      task,
      { toolCalls: [{ name: 'leave_voicemail', arguments: { message: 'Hi, please call us back about your renewal.' } }] },
      { content: '' },
    );
    const id = await place(to, task);
    const result = await finalResult(client, id);
    const carried = standIn.calls.find((c) => c.params.To === to)!;
    await carried.done;
    expect(carried.errors).to.deep.equal([]);
    expect(result.outcome).to.equal('voicemail');
    expect(spoken.join('')).to.include('please call us back about your renewal');
  });
}
