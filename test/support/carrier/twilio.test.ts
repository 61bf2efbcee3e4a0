// The carrier stand-in against a tiny loopback application written here from Twilio's documentation:
// it answers TwiML, checks every signature, and on its relay socket echoes prompts word by word,
// streams a long answer until interrupted, and ends the session with handoffData after DTMF.
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { WebSocketServer, type WebSocket } from 'ws';
import { eventually } from '../eventually.js';
import { readWav } from '../wav.js';
import { TLS_DIR } from '../https.js';
import { RelayCaller, RelayRefused } from './relay-caller.js';
import { formParams, isValidTwilioSignature, type TwilioParams } from './twilio-signature.js';
import { startTwilio, type TwilioStandIn } from './twilio.js';

const ACCOUNT_SID = `AC${'a'.repeat(32)}`;
const AUTH_TOKEN = 'carrier-test-auth-token';
const FROM = '+12025550100';
const HUMAN = '+12025550111';
const MACHINE = '+12025550112';
const BUSY = '+12025550113';
const RINGING = '+12025550114';

interface AppRequest {
  path: string;
  params: TwilioParams;
  signed: boolean;
}

interface Application {
  url: string;
  relayUrl: string;
  requests: AppRequest[];
  /** The relay messages Twilio sent, per socket. */
  sockets: any[][];
  /** Signatures refused on the WebSocket handshake. */
  refusedHandshakes: number;
  twiml: string;
  close(): Promise<void>;
}

/** The application under Twilio: its webhooks and relay endpoint on one loopback HTTPS server. */
async function startApplication(): Promise<Application> {
  const server: Server = createServer({ cert: readFileSync(join(TLS_DIR, 'cert.pem')), key: readFileSync(join(TLS_DIR, 'key.pem')) });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  const app: Application = {
    url: `https://${origin}`,
    relayUrl: `wss://${origin}/relay?call=abc`,
    requests: [],
    sockets: [],
    refusedHandshakes: 0,
    twiml: '',
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  app.twiml = `<?xml version="1.0" encoding="UTF-8"?>
<Response>
  <Connect action="${app.url}/action">
    <ConversationRelay url="${app.relayUrl.replace('&', '&amp;')}" welcomeGreeting="Hello, this is the agent." dtmfDetection="true" partialPrompts="true" interruptible="any">
      <Parameter name="callReference" value="ref-1"/>
    </ConversationRelay>
  </Connect>
</Response>`;
  server.on('request', (req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      const params = formParams(body);
      const signed = isValidTwilioSignature(AUTH_TOKEN, req.headers['x-twilio-signature'] as string, `${app.url}${req.url}`, params);
      app.requests.push({ path: req.url ?? '', params, signed });
      const twiml =
        {
          '/twiml': app.twiml,
          '/action': '<Response><Say>Goodbye.</Say><Hangup/></Response>',
          '/reject': '<Response><Reject reason="busy"/><Say>Never said.</Say></Response>',
          '/dial': `<Response><Dial action="${app.url}/dialled" callerId="${FROM}" timeout="20">${BUSY}</Dial><Say>Never said.</Say></Response>`,
          '/dialled': '<Response><Say>Sorry, the line is busy.</Say><Hangup/></Response>',
          '/gather': `<Response><Gather input="dtmf" numDigits="1" timeout="3" action="${app.url}/gathered"><Say>Press a key.</Say></Gather><Say>No key.</Say></Response>`,
          '/gathered': '<Response><Say>Thanks.</Say></Response>',
          '/record': `<Response><Say>Speak.</Say><Record maxLength="2" action="${app.url}/recorded" recordingStatusCallback="${app.url}/recording"/><Say>Nothing recorded.</Say></Response>`,
          '/recorded': '<Response><Say>Bye.</Say><Hangup/></Response>',
        }[req.url ?? ''] ?? '';
      res.writeHead(signed ? 200 : 403, { 'Content-Type': 'text/xml' }).end(twiml);
    });
  });
  const relays = new WebSocketServer({ noServer: true });
  server.on('upgrade', (req, socket, head) => {
    if (!isValidTwilioSignature(AUTH_TOKEN, req.headers['x-twilio-signature'] as string, `wss://${origin}${req.url}`)) {
      app.refusedHandshakes += 1;
      socket.end('HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    relays.handleUpgrade(req, socket, head, (ws) => converse(ws, (app.sockets[app.sockets.length] = [])));
  });
  return app;
}

/** The application's side of the relay socket. */
function converse(ws: WebSocket, heard: any[]) {
  let streaming: NodeJS.Timeout | undefined;
  let digits = '';
  ws.on('message', (data) => {
    const message = JSON.parse(String(data));
    heard.push(message);
    if (message.type === 'prompt' && message.last && message.voicePrompt === 'say something odd') {
      ws.send(JSON.stringify({ type: 'txt', token: 'typo' }));
    } else if (message.type === 'prompt' && message.last && message.voicePrompt === 'tell me a story') {
      let n = 0;
      streaming = setInterval(() => ws.send(JSON.stringify({ type: 'text', token: `word${n++} `, last: false })), 5);
    } else if (message.type === 'prompt' && message.last && message.voicePrompt === 'auf Deutsch, bitte') {
      ws.send(JSON.stringify({ type: 'language', ttsLanguage: 'de-DE', transcriptionLanguage: 'de-DE' }));
      ws.send(JSON.stringify({ type: 'text', token: 'Gerne.', last: true }));
    } else if (message.type === 'prompt' && message.last && message.voicePrompt === 'speak Klingon') {
      ws.send(JSON.stringify({ type: 'language', ttsLanguage: 'Klingon' }));
    } else if (message.type === 'prompt' && message.last) {
      const words = `You said: ${message.voicePrompt}`.split(' ');
      for (const [i, word] of words.entries())
        ws.send(JSON.stringify({ type: 'text', token: i === 0 ? word : ` ${word}`, last: i === words.length - 1 }));
    } else if (message.type === 'interrupt') {
      clearInterval(streaming);
    } else if (message.type === 'dtmf') {
      digits += message.digit;
      if (digits.length === 2) ws.send(JSON.stringify({ type: 'end', handoffData: JSON.stringify({ reason: 'pressed', digits }) }));
    }
  });
  ws.on('close', () => clearInterval(streaming));
}

async function rest(
  twilio: TwilioStandIn,
  path: string,
  params: Record<string, string | string[]> = {},
  auth = `${ACCOUNT_SID}:${AUTH_TOKEN}`,
) {
  const body = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) for (const v of [value].flat()) body.append(name, v);
  const res = await fetch(`${twilio.url}/2010-04-01/Accounts/${ACCOUNT_SID}${path}`, {
    method: 'POST',
    headers: { Authorization: `Basic ${Buffer.from(auth).toString('base64')}`, 'Content-Type': 'application/x-www-form-urlencoded' },
    body,
  });
  return { status: res.status, body: await res.json() };
}

describe('Twilio stand-in (carrier REST API and ConversationRelay caller)', () => {
  let app: Application;
  let twilio: TwilioStandIn;

  beforeEach(async () => {
    app = await startApplication();
    twilio = await startTwilio({
      accountSid: ACCOUNT_SID,
      authToken: AUTH_TOKEN,
      numbers: [FROM],
      phones: {
        [HUMAN]: {
          answer: 'human',
          caller: async (caller) => {
            await caller.say('hello there', { partials: ['hello'] });
            await caller.reply();
            await caller.say('tell me a story');
            await caller.interruptAfter(2);
            caller.press('42');
          },
        },
        [MACHINE]: { answer: 'machine', caller: (caller) => caller.hangUp().then(() => undefined) },
        [BUSY]: { answer: 'busy' },
        [RINGING]: { answer: 'ring' },
      },
    });
  });

  afterEach(async () => {
    await twilio.close();
    await app.close();
  });

  it('plays a placed call: signed callbacks in order, the relay conversation, the action request', async () => {
    const placed = await rest(twilio, '/Calls.json', {
      To: HUMAN,
      From: FROM,
      Url: `${app.url}/twiml`,
      StatusCallback: `${app.url}/status`,
      StatusCallbackEvent: ['initiated', 'ringing', 'answered', 'completed'],
    });
    expect(placed.status).to.equal(201);
    expect(placed.body).to.include({ account_sid: ACCOUNT_SID, to: HUMAN, from: FROM, status: 'queued', direction: 'outbound-api' });
    expect(placed.body.sid).to.match(/^CA[0-9a-f]{32}$/);
    const call = twilio.call(placed.body.sid);
    await call.done;

    expect(call.errors).to.deep.equal([]);
    expect(app.requests.every((r) => r.signed)).to.equal(true);
    expect(app.requests.map((r) => r.path)).to.deep.equal(['/status', '/status', '/status', '/twiml', '/action', '/status']);
    const callbacks = app.requests.filter((r) => r.path === '/status').map((r) => r.params);
    expect(callbacks.map((c) => [c.CallStatus, c.SequenceNumber])).to.deep.equal([
      ['initiated', '0'],
      ['ringing', '1'],
      ['in-progress', '2'],
      ['completed', '3'],
    ]);
    expect(callbacks[3]).to.include({
      CallSid: call.sid,
      AccountSid: ACCOUNT_SID,
      From: FROM,
      To: HUMAN,
      Direction: 'outbound-api',
      CallbackSource: 'call-progress-events',
    });
    expect(callbacks[3].CallDuration).to.match(/^\d+$/);

    const [heard] = app.sockets;
    expect(heard[0]).to.include({
      type: 'setup',
      callSid: call.sid,
      accountSid: ACCOUNT_SID,
      from: FROM,
      to: HUMAN,
      direction: 'outbound-api',
    });
    expect(heard[0].sessionId).to.match(/^VX[0-9a-f]{32}$/);
    expect(heard[0].customParameters).to.deep.equal({ callReference: 'ref-1' });
    expect(heard.slice(1).map((m) => [m.type, m.voicePrompt ?? m.utteranceUntilInterrupt ?? m.digit, m.last])).to.deep.equal([
      ['prompt', 'hello', false],
      ['prompt', 'hello there', true],
      ['prompt', 'tell me a story', true],
      ['interrupt', 'word0 word1 ', undefined],
      ['dtmf', '4', undefined],
      ['dtmf', '2', undefined],
    ]);
    expect(
      call
        .relay!.sent('text')
        .slice(0, 4)
        .map((t) => t.token),
    ).to.deep.equal(['You', ' said:', ' hello', ' there']);
    expect(await call.relay!.ended).to.deep.equal({ by: 'application-end', handoffData: '{"reason":"pressed","digits":"42"}' });

    const action = app.requests.find((r) => r.path === '/action')!.params;
    expect(action).to.include({
      SessionId: heard[0].sessionId,
      SessionStatus: 'ended',
      HandoffData: '{"reason":"pressed","digits":"42"}',
      CallStatus: 'in-progress',
    });
    expect(call.said).to.deep.equal(['Hello, this is the agent.', 'Goodbye.']);
    expect(call.toResource().status).to.equal('completed');
  });

  it('runs inline TwiML and reports answering-machine detection with the callbacks', async () => {
    const placed = await rest(twilio, '/Calls.json', {
      To: MACHINE,
      From: FROM,
      Twiml: app.twiml,
      MachineDetection: 'Enable',
      StatusCallback: `${app.url}/status`,
      StatusCallbackEvent: 'answered completed',
    });
    const call = twilio.call(placed.body.sid);
    await call.done;
    const callbacks = call.statusCallbacks;
    expect(callbacks.map((c) => [c.CallStatus, c.AnsweredBy, c.SequenceNumber])).to.deep.equal([
      ['in-progress', 'machine_start', '0'],
      ['completed', 'machine_start', '1'],
    ]);
    expect(await call.relay!.ended).to.deep.equal({ by: 'caller-hang-up' });
    expect(app.requests.find((r) => r.path === '/action')!.params).to.include({ SessionStatus: 'completed', CallStatus: 'completed' });
    expect(call.said).to.deep.equal(['Hello, this is the agent.']);
  });

  it('reports a busy number with the completed callback only, by default', async () => {
    const placed = await rest(twilio, '/Calls.json', { To: BUSY, From: FROM, Twiml: app.twiml, StatusCallback: `${app.url}/status` });
    await twilio.call(placed.body.sid).done;
    expect(app.requests.map((r) => [r.path, r.params.CallStatus, r.params.CallDuration])).to.deep.equal([['/status', 'busy', '0']]);
  });

  it('hangs up a live relay call through the REST API, closing the socket', async () => {
    twilio.phones[HUMAN] = { answer: 'human', caller: async (caller) => caller.say('hello there') };
    const placed = await rest(twilio, '/Calls.json', { To: HUMAN, From: FROM, Twiml: app.twiml, StatusCallback: `${app.url}/status` });
    const call = twilio.call(placed.body.sid);
    await eventually('the agent to answer the prompt', () => call.relay?.sent('text').some((t) => t.last));
    const hungUp = await rest(twilio, `/Calls/${call.sid}.json`, { Status: 'completed' });
    expect(hungUp.status).to.equal(200);
    await call.done;
    expect(await call.relay!.ended).to.deep.equal({ by: 'carrier' });
    expect(call.statusCallbacks.map((c) => c.CallStatus)).to.deep.equal(['completed']);
    expect(call.said).to.deep.equal(['Hello, this is the agent.']);
  });

  it('plays new TwiML given through the REST API in place of the relay session', async () => {
    twilio.phones[HUMAN] = { answer: 'human', caller: async (caller) => caller.say('hello there') };
    const placed = await rest(twilio, '/Calls.json', { To: HUMAN, From: FROM, Twiml: app.twiml });
    const call = twilio.call(placed.body.sid);
    await eventually('the agent to answer the prompt', () => call.relay?.sent('text').some((t) => t.last));
    expect((await rest(twilio, `/Calls/${call.sid}.json`, { Twiml: '<Response><Say>Transferring you.</Say></Response>' })).status).to.equal(
      200,
    );
    await call.done;
    expect(await call.relay!.ended).to.deep.equal({ by: 'carrier' });
    expect(call.said).to.deep.equal(['Hello, this is the agent.', 'Transferring you.']);
    expect(app.requests.map((r) => r.path)).to.deep.equal([]);
    const late = await rest(twilio, `/Calls/${call.sid}.json`, { Twiml: '<Response/>' });
    expect(late.body).to.include({ code: 21220, status: 400 });
  });

  it('plays nothing after the relay once the caller hung up', async () => {
    twilio.phones[HUMAN] = { answer: 'human', caller: (caller) => caller.hangUp().then(() => undefined) };
    const twiml = `<Response><Connect><ConversationRelay url="${app.relayUrl.replace('&', '&amp;')}"/></Connect><Say>Still there?</Say></Response>`;
    const placed = await rest(twilio, '/Calls.json', { To: HUMAN, From: FROM, Twiml: twiml });
    const call = twilio.call(placed.body.sid);
    await call.done;
    expect(call.said).to.deep.equal([]);
    expect(call.toResource().status).to.equal('completed');
  });

  it('sends no partial prompts or DTMF unless the TwiML turned them on', async () => {
    twilio.phones[HUMAN] = {
      answer: 'human',
      caller: async (caller) => {
        caller.say('hello there', { partials: ['hello'] });
        await caller.reply();
        caller.press('1');
        await caller.hangUp();
      },
    };
    const twiml = app.twiml.replace(' dtmfDetection="true" partialPrompts="true"', '');
    const placed = await rest(twilio, '/Calls.json', { To: HUMAN, From: FROM, Twiml: twiml });
    await twilio.call(placed.body.sid).done;
    expect(app.sockets[0].map((m) => [m.type, m.last])).to.deep.equal([
      ['setup', undefined],
      ['prompt', true],
    ]);
  });

  /** <Connect><ConversationRelay> to the application with these attributes and children. */
  const relayTwiml = (attributes: string, children = '') =>
    `<Response><Connect><ConversationRelay url="${app.relayUrl.replace('&', '&amp;')}" ${attributes}>${children}</ConversationRelay></Connect></Response>`;

  it('speaks each language in the voice <ConversationRelay> or its <Language> declares, switching with the language message', async () => {
    const spoken: (object | undefined)[] = [];
    const langs: string[] = [];
    twilio.phones[HUMAN] = {
      answer: 'human',
      caller: async (caller) => {
        caller.say('hello there');
        spoken.push((await caller.reply()).tokens[0]!.spoken);
        caller.say('auf Deutsch, bitte');
        spoken.push((await caller.reply()).tokens[0]!.spoken);
        caller.say('Danke');
        await caller.reply();
        caller.say('speak Klingon');
        await caller.roundTrip();
        await caller.hangUp();
      },
    };
    const twiml = relayTwiml(
      'language="en-US" ttsProvider="Google" voice="en-US-Journey-O" transcriptionProvider="Deepgram"',
      '<Language code="de-DE" ttsProvider="Amazon" voice="Daniel-Neural" transcriptionProvider="Deepgram"/>',
    );
    const placed = await rest(twilio, '/Calls.json', { To: HUMAN, From: FROM, Twiml: twiml });
    const call = twilio.call(placed.body.sid);
    await call.done;
    for (const m of app.sockets[0]!) if (m.type === 'prompt') langs.push(m.lang);
    expect(call.errors).to.deep.equal([]);
    expect(call.conversationRelays[0]!.languages).to.deep.equal([
      { code: 'de-DE', ttsProvider: 'Amazon', voice: 'Daniel-Neural', transcriptionProvider: 'Deepgram' },
    ]);
    expect(spoken).to.deep.equal([
      { language: 'en-US', voice: 'Google en-US-Journey-O' },
      { language: 'de-DE', voice: 'Amazon Daniel-Neural' },
    ]);
    // The caller is heard in the language switched to.
    expect(langs).to.deep.equal(['en-US', 'en-US', 'de-DE', 'de-DE']);
    expect(call.relay!.errorsSent).to.deep.equal([
      'Invalid message received: ttsLanguage and transcriptionLanguage are language tags (en-US)',
    ]);
  });

  it('refuses a <ConversationRelay> Twilio does not document: an unknown attribute or element, a voice its ttsProvider does not name, a bad language', async () => {
    for (const [twiml, problem] of [
      [relayTwiml('voiceName="Joanna"'), '<ConversationRelay> has no attribute voiceName on Twilio'],
      [relayTwiml('ttsProvider="Polly" voice="Joanna"'), '<ConversationRelay> ttsProvider="Polly" is none of Google, Amazon, ElevenLabs'],
      [relayTwiml('voice="Joanna-Neural"'), '<ConversationRelay> voice="Joanna-Neural" is not a voice name of ElevenLabs'],
      [
        relayTwiml('language="de-DE" ttsProvider="Google" voice="en-US-Journey-O"'),
        '<ConversationRelay> voice="en-US-Journey-O" does not speak de-DE',
      ],
      [relayTwiml('language="German"'), '<ConversationRelay> language="German" is not a language tag'],
      [relayTwiml('transcriptionProvider="deepgram"'), '<ConversationRelay> transcriptionProvider="deepgram" is none of Google, Deepgram'],
      [relayTwiml('', '<Language code="fr-FR" locale="fr"/>'), '<Language> has no attribute locale on Twilio'],
      [relayTwiml('', '<Voice name="x"/>'), '<ConversationRelay> has no element <Voice>'],
    ]) {
      const placed = await rest(twilio, '/Calls.json', { To: HUMAN, From: FROM, Twiml: twiml! });
      const call = twilio.call(placed.body.sid);
      await call.done;
      expect(call.errors, twiml).to.deep.equal([`64101 invalid <ConversationRelay>: ${problem}`]);
      expect(call.relays, twiml).to.have.length(0);
    }
  });

  it('cancels a ringing call through the REST API', async () => {
    const placed = await rest(twilio, '/Calls.json', {
      To: RINGING,
      From: FROM,
      Twiml: app.twiml,
      StatusCallback: `${app.url}/status`,
      StatusCallbackEvent: ['ringing', 'completed'],
    });
    const call = twilio.call(placed.body.sid);
    await eventually('the call to ring', () => call.status === 'ringing');
    await rest(twilio, `/Calls/${call.sid}.json`, { Status: 'canceled' });
    await call.done;
    expect(call.statusCallbacks.map((c) => c.CallStatus)).to.deep.equal(['ringing', 'canceled']);
    expect(call.relays).to.have.length(0);
  });

  it('answers a forced 5xx, then places calls again; a forced hang is never answered', async () => {
    twilio.failNextPlacement({ status: 503 });
    const failed = await rest(twilio, '/Calls.json', { To: BUSY, From: FROM, Twiml: app.twiml });
    expect(failed).to.deep.equal({
      status: 503,
      body: { code: 20500, message: 'Internal Server Error', more_info: 'https://www.twilio.com/docs/errors/20500', status: 503 },
    });
    expect(twilio.calls).to.have.length(0);
    expect((await rest(twilio, '/Calls.json', { To: BUSY, From: FROM, Twiml: app.twiml })).status).to.equal(201);

    twilio.failNextPlacement('hang');
    const hung = fetch(`${twilio.url}/2010-04-01/Accounts/${ACCOUNT_SID}/Calls.json`, {
      method: 'POST',
      headers: { Authorization: `Basic ${Buffer.from(`${ACCOUNT_SID}:${AUTH_TOKEN}`).toString('base64')}` },
      body: new URLSearchParams({ To: BUSY, From: FROM, Twiml: app.twiml }),
      signal: AbortSignal.timeout(300),
    });
    const error = await hung.catch((e) => e);
    expect(error.name).to.equal('TimeoutError');
  });

  it('refuses bad credentials and a bad To as Twilio does, placing nothing', async () => {
    const unauthorized = await rest(twilio, '/Calls.json', { To: HUMAN, From: FROM, Twiml: app.twiml }, `${ACCOUNT_SID}:wrong`);
    expect(unauthorized).to.deep.equal({
      status: 401,
      body: { code: 20003, message: 'Authenticate', more_info: 'https://www.twilio.com/docs/errors/20003', status: 401 },
    });
    const badTo = await rest(twilio, '/Calls.json', { To: '12345', From: FROM, Twiml: app.twiml });
    expect(badTo.status).to.equal(400);
    expect(badTo.body).to.include({ code: 21211, status: 400 });
    const notOurs = await rest(twilio, '/Calls.json', { To: HUMAN, From: '+12025550199', Twiml: app.twiml });
    expect(notOurs.body).to.include({ code: 21210, status: 400 });
    expect(twilio.calls).to.have.length(0);
  });

  it('rings in: the signed voice webhook, then its TwiML played', async () => {
    const call = twilio.ringIn({
      to: FROM,
      from: HUMAN,
      voiceUrl: `${app.url}/twiml`,
      caller: (caller) => caller.hangUp().then(() => undefined),
    });
    await call.done;
    const voice = app.requests[0];
    expect(voice.signed).to.equal(true);
    expect(voice.params).to.include({
      CallSid: call.sid,
      AccountSid: ACCOUNT_SID,
      From: HUMAN,
      To: FROM,
      Direction: 'inbound',
      CallStatus: 'ringing',
    });
    expect(app.sockets[0][0]).to.include({ type: 'setup', direction: 'inbound', from: HUMAN, to: FROM });
  });

  it('opens the relay on its own, and is refused with a bad or missing signature', async () => {
    const setup = { callSid: `CA${'0'.repeat(32)}`, accountSid: ACCOUNT_SID, from: HUMAN, to: FROM, direction: 'inbound' };
    const caller = await RelayCaller.connect({ url: app.relayUrl, authToken: AUTH_TOKEN, setup });
    caller.say('hi');
    expect((await caller.reply()).text).to.equal('You said: hi');
    caller.say('say something odd');
    const error = await eventually('the error message', () => app.sockets[0].find((m) => m.type === 'error'));
    expect(error.description).to.match(/^Invalid message received: unknown type "txt"/);
    expect(caller.sent('txt')).to.deep.equal([]);
    await caller.hangUp();
    for (const signature of ['bm90IGEgc2lnbmF0dXJl', null]) {
      const refused = await RelayCaller.connect({ url: app.relayUrl, authToken: AUTH_TOKEN, setup, signature }).catch((e) => e);
      expect(refused).to.be.instanceOf(RelayRefused);
      expect(refused.status).to.equal(403);
    }
    expect(app.refusedHandshakes).to.equal(2);
  });

  it('rings in and is refused by a first <Reject>: never answered, ended busy for reason="busy"', async () => {
    const call = twilio.ringIn({ to: FROM, from: HUMAN, voiceUrl: `${app.url}/reject`, statusCallback: `${app.url}/status` });
    await call.done;
    expect(call.statusCallbacks.map((c) => c.CallStatus)).to.deep.equal(['busy']);
    expect(call.said).to.deep.equal([]);
    expect(call.toResource().start_time).to.equal(null);
  });

  it('<Dial>s a number as its scenario says, then posts DialCallStatus to the action and plays its answer', async () => {
    const call = twilio.ringIn({ to: FROM, from: HUMAN, voiceUrl: `${app.url}/dial` });
    await call.done;
    expect(call.dialled).to.deep.equal([{ to: BUSY, callerId: FROM, timeout: '20', status: 'busy' }]);
    const action = app.requests.find((r) => r.path === '/dialled')!;
    expect(action.signed).to.equal(true);
    expect(action.params).to.include({ CallSid: call.sid, DialCallStatus: 'busy', DialCallDuration: '0' });
    expect(call.said).to.deep.equal(['Sorry, the line is busy.']);
  });

  it('<Gather>s: says its <Say>s, posts the digits (numDigits of them) to the action and plays its answer; with none, goes on past it', async () => {
    const pressed = twilio.ringIn({ to: FROM, from: HUMAN, voiceUrl: `${app.url}/gather`, gathers: [{ digits: '42' }] });
    await pressed.done;
    expect(pressed.said).to.deep.equal(['Press a key.', 'Thanks.']);
    const gathered = app.requests.find((r) => r.path === '/gathered')!;
    expect(gathered.signed).to.equal(true);
    expect(gathered.params).to.include({ CallSid: pressed.sid, Digits: '4' });
    const silent = twilio.ringIn({ to: FROM, from: HUMAN, voiceUrl: `${app.url}/gather`, gathers: ['silence'] });
    await silent.done;
    expect(silent.said).to.deep.equal(['Press a key.', 'No key.']);
    expect(app.requests.filter((r) => r.path === '/gathered')).to.have.length(1);
  });

  it('<Record>s up to maxLength: the action with the recording, then recordingStatusCallback; the Recording resource serves it with Basic auth only', async () => {
    const call = twilio.ringIn({ to: FROM, from: HUMAN, voiceUrl: `${app.url}/record`, message: { seconds: 5, then: 'silence' } });
    await call.done;
    expect(call.said).to.deep.equal(['Speak.', 'Bye.']);
    const recorded = app.requests.find((r) => r.path === '/recorded')!;
    const reported = app.requests.find((r) => r.path === '/recording')!;
    expect(recorded.signed && reported.signed).to.equal(true);
    expect(recorded.params).to.include({ CallSid: call.sid, RecordingDuration: '2' });
    expect(reported.params).to.include({
      CallSid: call.sid,
      RecordingStatus: 'completed',
      RecordingDuration: '2',
      RecordingUrl: recorded.params.RecordingUrl,
      RecordingSource: 'RecordVerb',
    });
    const url = String(recorded.params.RecordingUrl);
    expect(url.startsWith(`${twilio.url}/2010-04-01/Accounts/${ACCOUNT_SID}/Recordings/RE`)).to.equal(true);
    const basic = `Basic ${Buffer.from(`${ACCOUNT_SID}:${AUTH_TOKEN}`).toString('base64')}`;
    const wav = await fetch(`${url}.wav`, { headers: { authorization: basic } });
    expect(wav.status).to.equal(200);
    expect(wav.headers.get('content-type')).to.equal('audio/x-wav');
    expect(readWav(Buffer.from(await wav.arrayBuffer()))).to.deep.include({ channels: 1, sampleRate: 8000, seconds: 2 });
    expect((await (await fetch(`${url}.json`, { headers: { authorization: basic } })).json()).duration).to.equal('2');
    expect((await fetch(`${url}.wav`)).status).to.equal(401);
  });
});
