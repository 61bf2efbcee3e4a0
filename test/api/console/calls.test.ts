import { expect } from 'chai';
import { CHANNELS } from '../../../pkg/db/notify.js';
import { insertVoiceMessage } from '../../../pkg/store/voice-messages.js';
import { encodeWav } from '../../../pkg/voice/wav.js';
import { finalResult, NUMBERS, startCallsApp, type CallsApp } from '../../support/calls.js';
import { signedInUser } from '../../support/console.js';
import { liveCall, openCallsStream } from '../../support/console-calls.js';
import { expectVoiceError } from '../../support/errors.js';
import { eventually } from '../../support/eventually.js';

describe('Console calls routes', function () {
  this.timeout(60_000);
  let app: CallsApp;
  before(async () => {
    app = await startCallsApp({ controllers: true });
  });
  after(async () => app?.close());

  const auditOf = async (tenantId: string) =>
    app.runtime.ctx.db('console_audit').where({ tenant_id: tenantId }).andWhereLike('action', 'call.%').orderBy('id');

  /** A voice company, its API client, and a signed-in user of each role. */
  async function account() {
    const company = await app.voiceCompany();
    const member = await signedInUser(app, company.tenantId, 'member');
    const viewer = await signedInUser(app, company.tenantId, 'viewer');
    return { ...company, member, viewer };
  }

  it("lists the account's calls newest first through GET /v1/calls's filters, with paging; bad filters 422/400", async () => {
    const { client, viewer } = await account();
    const answered = (await client.post('/v1/calls', { to: NUMBERS.answer, task: 'Say hi' })).body;
    const busy = (await client.post('/v1/calls', { to: NUMBERS.busy, task: 'Say hi' })).body;
    await finalResult(client, answered.id);
    await finalResult(client, busy.id);
    const all = await viewer.browser.get('/console/api/calls');
    expect(all.status).to.equal(200);
    expect(all.body.data.map((c: any) => c.id)).to.deep.equal([busy.id, answered.id]);
    expect(all.body.data[0]).to.deep.include({ id: busy.id, status: 'busy', direction: 'outbound', to: NUMBERS.busy });

    expect((await viewer.browser.get('/console/api/calls?status=busy')).body.data.map((c: any) => c.id)).to.deep.equal([busy.id]);
    expect(
      (await viewer.browser.get(`/console/api/calls?to=${encodeURIComponent(NUMBERS.answer)}`)).body.data.map((c: any) => c.id),
    ).to.deep.equal([answered.id]);
    expect((await viewer.browser.get('/console/api/calls?direction=inbound')).body.data).to.deep.equal([]);
    const after = encodeURIComponent(new Date(Date.now() + 60_000).toISOString());
    expect((await viewer.browser.get(`/console/api/calls?created_after=${after}`)).body.data).to.deep.equal([]);

    const first = await viewer.browser.get('/console/api/calls?limit=1');
    expect(first.body.data.map((c: any) => c.id)).to.deep.equal([busy.id]);
    const second = await viewer.browser.get(`/console/api/calls?limit=1&cursor=${first.body.next_cursor}`);
    expect(second.body.data.map((c: any) => c.id)).to.deep.equal([answered.id]);
    expect(second.body.next_cursor).to.equal(null);

    expectVoiceError(await viewer.browser.get('/console/api/calls?status=bogus'), 422, 'invalid_status');
    expectVoiceError(await viewer.browser.get('/console/api/calls?created_after=yesterday'), 422, 'invalid_created_after');
    expectVoiceError(await viewer.browser.get('/console/api/calls?limit=0'), 422, 'invalid_limit');
    expectVoiceError(await viewer.browser.get('/console/api/calls?cursor=nope'), 422, 'invalid_cursor');
    expectVoiceError(await viewer.browser.get('/console/api/calls?agent=x'), 400, 'invalid_json');
  });

  it("a call's page: record, result with transcript and summary, and a timeline of state changes", async () => {
    const { client, viewer } = await app
      .voiceCompany({ eventsUrl: 'https://127.0.0.1:9/events' })
      .then(async (c) => ({ ...c, viewer: await signedInUser(app, c.tenantId, 'viewer') }));
    app.script(
      'Ask about the budget',
      { toolCalls: [{ name: 'end_call', arguments: { outcome: 'completed', answers: { budget: '500' }, note: 'Known' } }] },
      { content: 'Thanks, bye!' },
    );
    const placed = (await client.post('/v1/calls', { to: NUMBERS.answer, task: 'Ask about the budget' })).body;
    await finalResult(client, placed.id);
    const res = await viewer.browser.get(`/console/api/calls/${placed.id}`);
    expect(res.status).to.equal(200);
    expect(res.body.call).to.deep.include({ id: placed.id, status: 'completed', hangup_cause: 'agent_hangup' });
    expect(res.body.result).to.deep.include({ final: true, outcome: 'completed', summary: 'The agent talked to the person.' });
    expect(res.body.result.result).to.deep.equal({ outcome: 'completed', answers: { budget: '500' }, note: 'Known' });
    expect(res.body.result.transcript.at(-1)).to.deep.equal({ speaker: 'agent', text: 'Thanks, bye!' });
    const kinds = res.body.timeline.map((e: any) => e.kind);
    expect(kinds.filter((k: string) => k !== 'webhook')).to.deep.equal(['created', 'ringing', 'answered', 'ended']);
    expect(res.body.timeline.filter((e: any) => e.kind === 'webhook').map((e: any) => e.detail.split(' ')[0])).to.include.members([
      'call.initiated',
      'call.answered',
      'call.ended',
    ]);
    expect(res.body.timeline.find((e: any) => e.kind === 'ended').detail).to.equal('Ended completed (agent_hangup)');
    expect(res.body.messages).to.deep.equal([]);
  });

  it("plays a call's voicemail recording to the session; another call's message or none answers 404", async () => {
    const { client, tenantId, viewer } = await account();
    const placed = (await client.post('/v1/calls', { to: NUMBERS.busy, task: 'Say hi' })).body;
    await finalResult(client, placed.id);
    const other = (await client.post('/v1/calls', { to: NUMBERS.busy, task: 'Say hi' })).body;
    // A voicemail left on the call, as the voicemail step stores one (test/api/voice/inbound.test.ts drives that step).
    const message = await insertVoiceMessage(app.runtime.ctx, {
      tenant_id: tenantId,
      call_id: placed.id,
      kind: 'voicemail',
      caller: NUMBERS.busy,
      summary: 'Call me back',
      details: {},
      agent_id: null,
      duration_sec: 1,
    });
    const wav = encodeWav(new Int16Array(8000), 8000);
    await app.runtime.ctx.recordings.save(tenantId, message.id, wav);
    const page = await viewer.browser.get(`/console/api/calls/${placed.id}`);
    expect(page.body.messages.map((m: any) => [m.id, m.kind, m.summary])).to.deep.equal([[message.id, 'voicemail', 'Call me back']]);
    const res = await fetch(`${app.url}/console/api/calls/${placed.id}/messages/${message.id}/recording`, {
      headers: { cookie: `sb_session=${viewer.browser.cookie}` },
    });
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.equal('audio/wav');
    expect(Buffer.from(await res.arrayBuffer()).equals(wav)).to.equal(true);
    expectVoiceError(await viewer.browser.get(`/console/api/calls/${other.id}/messages/${message.id}/recording`), 404, 'not_found');
    expect((await fetch(`${app.url}/console/api/calls/${placed.id}/messages/${message.id}/recording`)).status).to.equal(401);
  });

  it('members steer a live call (say is spoken) and hang it up, audited; viewers are refused 403; an ended call 409', async () => {
    const { client, tenantId, member, viewer } = await account();
    const call = await liveCall(app, client);
    expectVoiceError(await viewer.browser.post(`/console/api/calls/${call.id}/steer`, { say: 'No' }), 403, 'forbidden');
    expectVoiceError(await viewer.browser.post(`/console/api/calls/${call.id}/hangup`), 403, 'forbidden');
    expectVoiceError(await member.browser.post(`/console/api/calls/${call.id}/steer`, {}), 422, 'invalid_steer');
    expectVoiceError(await member.browser.post(`/console/api/calls/${call.id}/steer`, { shout: 'x' }), 400, 'invalid_json');
    expectVoiceError(await member.browser.post(`/console/api/calls/${call.id}/steer`, { say: 'x'.repeat(1001) }), 422, 'invalid_say');
    expectVoiceError(
      await member.browser.request('POST', `/console/api/calls/${call.id}/hangup`, {}, { 'x-csrf-token': 'wrong' }),
      403,
      'csrf_failed',
    );

    const stream = await openCallsStream(app.url, viewer.browser.cookie);
    await eventually('the stream ready', () => stream.events.some((e) => e.type === 'ready'));
    const steered = await member.browser.post(`/console/api/calls/${call.id}/steer`, { say: 'One moment, please.' });
    expect(steered.status, JSON.stringify(steered.body)).to.equal(202);
    expect(steered.body).to.deep.equal({ call_id: call.id, accepted: true });
    // The spoken words reach the stream as they join the transcript, the call still live.
    const spoken = await eventually('the steered words on the stream', () =>
      stream.events.find((e) => e.type === 'call' && e.result.transcript.some((t: any) => t.text === 'One moment, please.')),
    );
    expect(spoken.call.status).to.equal('in-progress');
    stream.close();
    const hung = await member.browser.post(`/console/api/calls/${call.id}/hangup`);
    expect(hung.status, JSON.stringify(hung.body)).to.equal(200);
    expect(hung.body.call).to.deep.include({ id: call.id, status: 'completed', hangup_cause: 'api_hangup' });
    expectVoiceError(await member.browser.post(`/console/api/calls/${call.id}/hangup`), 409, 'call_ended');
    expectVoiceError(await member.browser.post(`/console/api/calls/${call.id}/steer`, { say: 'Hi' }), 409, 'call_ended');
    const entries = (await auditOf(tenantId)).map((e) => [e.action, e.target, e.user_id, e.details]);
    expect(entries).to.deep.equal([
      ['call.steered', call.id, member.id, { say: 'One moment, please.' }],
      ['call.hung_up', call.id, member.id, {}],
    ]);
    await finalResult(client, call.id);
  });

  it("another account's call answers 404 on every calls route; signed out answers 401", async () => {
    const mine = await account();
    const theirs = await account();
    const call = await liveCall(app, theirs.client);
    const ours = mine.member.browser;
    for (const res of [
      await ours.get(`/console/api/calls/${call.id}`),
      await ours.get(`/console/api/calls/${call.id}/messages/msg_01J00000000000000000000000/recording`),
      await ours.post(`/console/api/calls/${call.id}/steer`, { say: 'Hi' }),
      await ours.post(`/console/api/calls/${call.id}/hangup`),
    ]) {
      expectVoiceError(res, 404, 'not_found');
    }
    expect((await ours.get('/console/api/calls')).body.data).to.deep.equal([]);
    expect((await theirs.client.get(`/v1/calls/${call.id}`)).body.status).to.equal('in-progress');
    const signedOut = await openCallsStream(app.url, undefined);
    expect(signedOut.status).to.equal(401);
    const gone = await signedInUser(app, theirs.tenantId, 'viewer');
    await gone.browser.post('/console/api/sign-out');
    expectVoiceError(await gone.browser.get('/console/api/calls'), 401, 'not_signed_in');
    expectVoiceError(await gone.browser.get(`/console/api/calls/${call.id}`), 401, 'not_signed_in');
    await theirs.client.post(`/v1/calls/${call.id}/hangup`);
  });

  it("the stream sends each change of the account's calls (not another's) and ends when the session ends or the client goes", async () => {
    const { client, viewer } = await account();
    const other = await account();
    const handlers = () =>
      (app.runtime.ctx.notifier as unknown as { handlers: Map<string, Set<unknown>> }).handlers.get(CHANNELS.calls)?.size ?? 0;
    const stream = await openCallsStream(app.url, viewer.browser.cookie);
    expect(stream.status).to.equal(200);
    expect(stream.contentType).to.match(/^text\/event-stream/);
    await eventually('the stream ready', () => stream.events.some((e) => e.type === 'ready'));
    const theirs = (await other.client.post('/v1/calls', { to: NUMBERS.busy, task: 'Say hi' })).body;
    const placed = (await client.post('/v1/calls', { to: NUMBERS.busy, task: 'Say hi' })).body;
    await finalResult(client, placed.id);
    await finalResult(other.client, theirs.id);
    const mine = await eventually('the call final on the stream', () => {
      const seen = stream.events.filter((e) => e.type === 'call' && e.call.id === placed.id);
      return seen.some((e) => e.result.final) && seen;
    });
    expect(mine.map((e) => e.call.status)).to.include.members(['queued', 'busy']);
    expect(stream.events.some((e) => e.type === 'call' && e.call.id === theirs.id)).to.equal(false);

    // The client goes: its subscription goes with it.
    const before = handlers();
    const second = await openCallsStream(app.url, viewer.browser.cookie);
    await eventually('the second stream ready', () => second.events.some((e) => e.type === 'ready'));
    expect(handlers()).to.equal(before + 1);
    second.close();
    await eventually('the subscription dropped', () => handlers() === before);

    // The session ends: the next change ends the stream.
    expect((await viewer.browser.post('/console/api/sign-out')).status).to.equal(204);
    await client.post('/v1/calls', { to: NUMBERS.busy, task: 'Say hi' });
    await stream.ended;
    await eventually('the subscription dropped', () => handlers() === before - 1);
  });
});
