// A call's voice and language reach the carrier: the deployment's voice catalogue (SWITCHBOARD_VOICES),
// the voice a placed call, an `ai` routing step or an agent names, in every <ConversationRelay> Twilio
// and Telnyx get (each stand-in refusing a noun its carrier does not document), and the agent's switch
// of language sent as the relay's `language` message.
import { expect } from 'chai';
import { ConfigError, loadConfig } from '../../../pkg/config.js';
import type { Client } from '../../support/app.js';
import { finalResult, startCallsApp, type CallsApp } from '../../support/calls.js';
import type { CarrierCall, Scenario } from '../../support/carrier/call.js';
import type { InboundCall } from '../../support/carrier/twilio.js';
import { carrierSettings, startTwilio } from '../../support/carrier/twilio.js';
import { startTelnyx, telnyxSettings } from '../../support/carrier/telnyx.js';
import { adminOn } from '../../support/cli.js';
import { offeredTools } from '../../support/model.js';
import { startTlsFront, type TlsFront } from '../../support/tls-front.js';

/** The deployment's catalogue: Twilio's voice names, and Telnyx's where they differ (an Amazon voice's is derived). */
const CATALOGUE = [
  {
    id: 'journey',
    name: 'Journey',
    language: 'en-US',
    gender: 'female',
    provider: 'Google',
    voice: 'en-US-Journey-O',
    telnyx_voice: 'Telnyx.NaturalHD.astra',
  },
  {
    id: 'rachel',
    name: 'Rachel',
    language: 'en-US',
    gender: 'female',
    provider: 'ElevenLabs',
    voice: 'UgBBYS2sOqTuMpoF3BR0',
    telnyx_voice: 'ElevenLabs.eleven_multilingual_v2.UgBBYS2sOqTuMpoF3BR0',
  },
  { id: 'daniel', name: 'Daniel', language: 'de-DE', gender: 'male', provider: 'Amazon', voice: 'Daniel-Neural' },
  {
    id: 'celine',
    name: 'Céline',
    language: 'fr-FR',
    gender: 'female',
    provider: 'Google',
    voice: 'fr-FR-Neural2-A',
    telnyx_voice: 'Telnyx.NaturalHD.juliette',
  },
] as const;
type CatalogueVoice = (typeof CATALOGUE)[number];
const VOICES = {
  SWITCHBOARD_VOICES: JSON.stringify(CATALOGUE),
  SWITCHBOARD_DEFAULT_VOICE: 'journey',
  SWITCHBOARD_TRANSCRIPTION_PROVIDER: 'Deepgram',
};
const voice = (id: CatalogueVoice['id']) => CATALOGUE.find((v) => v.id === id)!;

interface StandIn {
  phones: Record<string, Scenario>;
  calls: CarrierCall[];
  ringIn(call: Omit<InboundCall, 'accountSid'>): CarrierCall;
  close(): Promise<void>;
}

interface Carrier {
  name: 'twilio' | 'telnyx';
  start(): Promise<{ standIn: StandIn; settings: (publicUrl: string) => Record<string, string> }>;
  /** The attributes of <ConversationRelay> and <Language> that name `v` and the transcription provider, as this carrier documents them. */
  speech(v: CatalogueVoice): Record<string, string>;
  /** The voice the stand-in's caller hears speaking `v`. */
  heard(v: CatalogueVoice): string;
  number(last4: string): string;
}

const telnyxVoice = (v: CatalogueVoice) => ('telnyx_voice' in v ? v.telnyx_voice : `AWS.Polly.${v.voice}`);

const CARRIERS: Carrier[] = [
  {
    name: 'twilio',
    async start() {
      const standIn = await startTwilio({
        accountSid: `AC${'b2'.repeat(16)}`,
        authToken: 'twilio-voices-token',
        numbers: ['+12025550100'],
      });
      return { standIn, settings: (url) => carrierSettings(standIn, url) };
    },
    speech: (v) => ({ ttsProvider: v.provider, voice: v.voice, transcriptionProvider: 'Deepgram' }),
    heard: (v) => `${v.provider} ${v.voice}`,
    number: (last4) => `+1202555${last4}`,
  },
  {
    name: 'telnyx',
    async start() {
      const standIn = await startTelnyx({
        accountSid: '0c7f3b8e-5d21-4a6b-9e0f-1a2b3c4d5e6f',
        connectionId: '2045187736599',
        apiKey: 'KEY_voices_telnyx_standin',
      });
      return { standIn, settings: (url) => telnyxSettings(standIn, url) };
    },
    // Telnyx's noun takes no ttsProvider: the provider is in the voice's name.
    speech: (v) => ({ voice: telnyxVoice(v), transcriptionProvider: 'deepgram' }),
    heard: telnyxVoice,
    number: (last4) => `+1312555${last4}`,
  },
];

for (const carrier of CARRIERS) {
  describe(`A call's voice and language reach ${carrier.name}'s ConversationRelay`, function () {
    this.timeout(90_000);
    let standIn: StandIn;
    let front: TlsFront;
    let app: CallsApp;
    let client: Client;
    before(async () => {
      const started = await carrier.start();
      standIn = started.standIn;
      front = await startTlsFront();
      app = await startCallsApp({ controllers: true, env: { ...started.settings(front.url), ...VOICES, SWITCHBOARD_LEASE_SEC: '3' } });
      front.forwardTo(app.url);
    });
    beforeEach(async () => {
      ({ client } = await app.voiceCompany());
    });
    after(async () => {
      await app?.close();
      await front?.close();
      await standIn?.close();
    });

    /** The <ConversationRelay> a session of the call was connected with: its attributes besides url, and its <Language>s. */
    const relayOf = (call: CarrierCall, session = 0) => {
      const { url: _url, ...attributes } = call.conversationRelays[session]!.attributes;
      return { attributes, languages: call.conversationRelays[session]!.languages };
    };
    /** What a session speaking `v` in its own language declares: that voice, and every other language of the catalogue with its voice. */
    const declared = (v: CatalogueVoice, language: string = v.language) => ({
      attributes: {
        language,
        ...carrier.speech(language === v.language ? v : CATALOGUE.find((o) => o.language === language)!),
        dtmfDetection: 'true',
        interruptible: 'any',
      },
      languages: [...new Set(CATALOGUE.map((o) => o.language))]
        .filter((l) => l !== language)
        .map((code) => ({ code, ...carrier.speech(code === v.language ? v : CATALOGUE.find((o) => o.language === code)!) })),
    });
    /** A person who says one line, hears the reply (the voice speaking it kept), and hangs up. */
    const answers = (line: string, spoken: unknown[]): Scenario => ({
      answer: 'human',
      caller: async (c) => {
        c.say(line);
        spoken.push((await c.reply()).tokens[0]!.spoken);
        await c.hangUp();
      },
    });
    const place = async (body: Record<string, unknown>) => {
      const placed = await client.post('/v1/calls', body);
      expect(placed.status, JSON.stringify(placed.body)).to.equal(201);
      return placed.body.id as string;
    };
    const carriedTo = (to: string) => standIn.calls.find((c) => c.params.To === to)!;

    it('lists the configured catalogue in GET /v1/voices', async () => {
      const res = await client.get('/v1/voices');
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal({
        data: CATALOGUE.map(({ id, name, language, gender, provider }) => ({ id, name, language, gender, provider })),
      });
    });

    it('connects a call placed with a voice to the relay with that voice, its language and the transcription provider, and a <Language> for each other language', async () => {
      const spoken: unknown[] = [];
      const to = carrier.number('0301');
      standIn.phones[to] = answers('Hello?', spoken);
      const task = `Greet in Rachel's voice (${carrier.name})`;
      app.script(task, { content: 'Hi, this is Rachel from Acme.' });
      const id = await place({ to, task, voice: 'rachel' });
      await finalResult(client, id);
      const call = carriedTo(to);
      await call.done;
      expect(call.errors).to.deep.equal([]);
      expect(relayOf(call)).to.deep.equal(declared(voice('rachel')));
      expect(spoken).to.deep.equal([{ language: 'en-US', voice: carrier.heard(voice('rachel')) }]);
    });

    it("speaks a call that names no voice with its agent's voice (admin agent update --voice), else the deployment's default", async () => {
      const { client: own, agentId, tenantId } = await app.voiceCompany();
      client = own;
      const first = carrier.number('0302');
      standIn.phones[first] = answers('Hello?', []);
      await finalResult(client, await place({ to: first, task: `No voice named (${carrier.name})` }));
      await carriedTo(first).done;
      expect(relayOf(carriedTo(first))).to.deep.equal(declared(voice('journey')));

      const admin = adminOn(app, VOICES);
      const refused = await admin('agent', 'update', '--agent', agentId, '--voice', 'sim-ava');
      expect(refused.code).to.not.equal(0);
      expect(refused.stderr).to.include('voice: sim-ava is not in the voice catalogue');
      const set = await admin('agent', 'update', '--agent', agentId, '--voice', 'daniel');
      expect(set.code, set.stderr).to.equal(0);
      expect(set.json).to.include({ voice: 'daniel' });
      expect((await admin('agent', 'list', '--tenant', tenantId)).json.agents[0]).to.include({ voice: 'daniel' });

      const spoken: unknown[] = [];
      const second = carrier.number('0303');
      standIn.phones[second] = answers('Hallo?', spoken);
      const task = `Agent's own voice (${carrier.name})`;
      app.script(task, { content: 'Guten Tag.' });
      await finalResult(client, await place({ to: second, task }));
      await carriedTo(second).done;
      expect(carriedTo(second).errors).to.deep.equal([]);
      expect(relayOf(carriedTo(second))).to.deep.equal(declared(voice('daniel')));
      expect(spoken).to.deep.equal([{ language: 'de-DE', voice: carrier.heard(voice('daniel')) }]);
    });

    it("speaks a call ringing in with the voice its ai step names; a voice not in the catalogue is refused with the step's path", async () => {
      const number = carrier.number('0304');
      const { client: own, agent } = await app.routedCompany(number, null);
      const refused = await own.patch(`/v1/numbers/${encodeURIComponent(number)}`, {
        routing: { type: 'ai', agent_id: agent, voice: 'robot-9000' },
      });
      expect(refused.status).to.equal(422);
      expect(refused.body.error).to.include({ code: 'invalid_routing' });
      expect(refused.body.error.message).to.include('routing.voice: robot-9000 is not in the voice catalogue');
      const routed = await own.patch(`/v1/numbers/${encodeURIComponent(number)}`, {
        routing: { type: 'ai', agent_id: agent, greeting: 'Bonjour, ici Acme.', voice: 'celine' },
      });
      expect(routed.status, JSON.stringify(routed.body)).to.equal(200);
      expect(routed.body.routing).to.deep.equal({ type: 'ai', agent_id: agent, greeting: 'Bonjour, ici Acme.', voice: 'celine' });

      const spoken: unknown[] = [];
      const call = standIn.ringIn({
        to: number,
        from: carrier.number('0404'),
        voiceUrl: `${front.url}/v1/carrier/${carrier.name}/voice`,
        statusCallback: `${front.url}/v1/carrier/${carrier.name}/status`,
        caller: async (c) => {
          spoken.push((await c.reply()).tokens[0]!.spoken);
          await c.hangUp();
        },
      });
      await call.done;
      expect(call.errors).to.deep.equal([]);
      expect(relayOf(call)).to.deep.equal(declared(voice('celine')));
      expect(spoken).to.deep.equal([{ language: 'fr-FR', voice: carrier.heard(voice('celine')) }]);
    });

    it("switches language when the agent calls switch_language: the relay's language message first, then its words in the declared voice of that language; a new session of the call starts in it", async () => {
      const spoken: unknown[] = [];
      const target = carrier.number('0306');
      standIn.phones[target] = { answer: 'no-answer' };
      const to = carrier.number('0305');
      standIn.phones[to] = {
        answer: 'human',
        caller: async (c) => {
          // Each relay session of the call plays this: the caller asks for German and for sales, then hears the agent again.
          if (spoken.length === 0) {
            c.say('Guten Tag, sprechen Sie Deutsch?');
            spoken.push((await c.reply()).tokens[0]!.spoken);
            c.say('Verbinden Sie mich mit dem Vertrieb.');
            await c.reply();
            return void (await c.nextOf('end'));
          }
          spoken.push((await c.reply()).tokens[0]!.spoken);
          await c.hangUp();
        },
      };
      const task = `Speak the caller's language (${carrier.name})`;
      app.script(
        task,
        { toolCalls: [{ name: 'switch_language', arguments: { language: 'de-DE' } }] },
        { content: 'Ja, natürlich.' },
        { toolCalls: [{ name: 'transfer_call', arguments: { target, name: 'Vertrieb' } }] },
        { content: 'Ich verbinde Sie.' },
        { content: 'Der Vertrieb ist nicht erreichbar.' },
      );
      const id = await place({ to, task });
      await finalResult(client, id);
      const call = carriedTo(to);
      await call.done;
      expect(call.errors).to.deep.equal([]);
      const [first, second] = call.relays;
      // Sent before the words it is for, and checked as the carrier checks its messages.
      const types = first!.received.map((r) => r.message.type);
      expect(first!.sent('language')).to.deep.equal([{ type: 'language', ttsLanguage: 'de-DE', transcriptionLanguage: 'de-DE' }]);
      expect(types.indexOf('language')).to.be.below(types.indexOf('text'));
      expect(first!.errorsSent).to.deep.equal([]);
      expect(spoken).to.deep.equal([
        { language: 'de-DE', voice: carrier.heard(voice('daniel')) },
        { language: 'de-DE', voice: carrier.heard(voice('daniel')) },
      ]);
      // The caller is heard in German after the switch too.
      expect(first!.speech).to.include({ ttsLanguage: 'de-DE', transcriptionLanguage: 'de-DE' });
      expect(second!.speech).to.include({ ttsLanguage: 'de-DE', transcriptionLanguage: 'de-DE' });
      expect(relayOf(call, 0)).to.deep.equal(declared(voice('journey')));
      expect(relayOf(call, 1)).to.deep.equal(declared(voice('journey'), 'de-DE'));
      // The agent was told which languages it may switch to.
      const asked = app.model.requests.find((r) => JSON.stringify(r.messages).includes(`Task: ${task}`))!;
      expect(offeredTools(asked)).to.include('switch_language');
      expect(JSON.stringify(asked.messages)).to.include(
        'You speak en-US. When the person speaks or asks for de-DE, fr-FR, call switch_language',
      );
    });
  });
}

describe('The voice catalogue', function () {
  this.timeout(60_000);
  let app: CallsApp;
  before(async () => {
    app = await startCallsApp();
  });
  after(async () => {
    await app?.close();
  });

  it('is the built-in one, in the names both carriers speak, when none is configured; a call naming another voice is refused 422 invalid_voice', async () => {
    const { client } = await app.voiceCompany();
    const res = await client.get('/v1/voices');
    expect(res.status).to.equal(200);
    expect(res.body.data.map((v: { id: string }) => v.id)).to.deep.equal(['joanna', 'matthew', 'amy', 'vicki', 'daniel', 'lea', 'lucia']);
    for (const v of res.body.data)
      expect(v).to.have.all.keys('id', 'name', 'language', 'gender', 'provider').and.include({ provider: 'Amazon' });
    const placed = await client.post('/v1/calls', { to: '+12025550111', voice: 'vicki', max_duration_sec: 30 });
    expect(placed.status, JSON.stringify(placed.body)).to.equal(201);
    const refused = await client.post('/v1/calls', { to: '+12025550111', voice: 'journey' });
    expect(refused.status).to.equal(422);
    expect(refused.body.error).to.include({
      code: 'invalid_voice',
      message: 'voice: journey is not in the voice catalogue (GET /v1/voices)',
    });
    expect((await client.post(`/v1/calls/${placed.body.id}/hangup`)).status).to.equal(200);
  });

  it('is refused at start when SWITCHBOARD_VOICES or SWITCHBOARD_DEFAULT_VOICE is not one, naming the setting', () => {
    const start = (env: Record<string, string>) => () => loadConfig({ DATABASE_URL: 'postgres://db/switchboard', ...env });
    expect(start({ SWITCHBOARD_VOICES: 'journey' })).to.throw(ConfigError, 'SWITCHBOARD_VOICES: must be JSON');
    expect(start({ SWITCHBOARD_VOICES: '[]' })).to.throw(ConfigError, 'SWITCHBOARD_VOICES');
    expect(start({ SWITCHBOARD_VOICES: JSON.stringify([{ ...CATALOGUE[0], provider: 'Polly' }]) })).to.throw(
      ConfigError,
      'SWITCHBOARD_VOICES.0.provider',
    );
    expect(start({ SWITCHBOARD_VOICES: JSON.stringify([CATALOGUE[0], CATALOGUE[0]]) })).to.throw(ConfigError, 'voice ids must be unique');
    expect(start({ SWITCHBOARD_DEFAULT_VOICE: 'journey' })).to.throw(
      ConfigError,
      'SWITCHBOARD_DEFAULT_VOICE: journey is not in the voice catalogue',
    );
    expect(start({ SWITCHBOARD_TRANSCRIPTION_PROVIDER: 'Whisper' })).to.throw(ConfigError, 'SWITCHBOARD_TRANSCRIPTION_PROVIDER');
    expect(start({ ...VOICES, SWITCHBOARD_DEFAULT_VOICE: 'daniel' })().SWITCHBOARD_VOICES).to.have.length(4);
  });
});
