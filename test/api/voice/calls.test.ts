import { expect } from 'chai';
import { agentRef } from '../../../pkg/ids.js';
import { createAgent } from '../../../pkg/agent/settings.js';
import { updateTenant } from '../../../pkg/tenants/settings.js';
import type { Client } from '../../support/app.js';
import { NUMBERS, startCallsApp, type CallsApp } from '../../support/calls.js';
import { adminOn } from '../../support/cli.js';
import { expectVoiceError } from '../../support/errors.js';

// No controllers here: placed calls stay queued, so every rule of the endpoints can be seen alone.
describe('Calls API', () => {
  let app: CallsApp;
  before(async () => {
    app = await startCallsApp();
  });
  after(async () => {
    await app?.close();
  });

  const admin = (...args: string[]) => adminOn(app)(...args);

  describe('POST /v1/calls', () => {
    it('refuses context or metadata nested more than 32 levels deep as 422 invalid_<field>, placing nothing', async () => {
      const { client } = await app.voiceCompany();
      const nested = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;
      for (const [field, levels] of [
        ['context', 5000],
        ['metadata', 32],
      ] as const) {
        const res = await client.request('POST', '/v1/calls', `{"to":"${NUMBERS.answer}","${field}":${nested(levels)}}`);
        expectVoiceError(res, 422, `invalid_${field}`);
      }
      expect((await client.get('/v1/calls')).body.data).to.deep.equal([]);
      // 31 objects in a field of the body (itself level 1) are the most it holds.
      expect((await client.request('POST', '/v1/calls', `{"to":"${NUMBERS.answer}","metadata":${nested(31)}}`)).status).to.equal(201);
    });

    it('answers 201 with the call record, stored before the answer', async () => {
      const { client, tenantId, agentId } = await app.voiceCompany();
      const res = await client.post('/v1/calls', { to: NUMBERS.answer, task: 'Say hello', metadata: { order: 42 } });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      expect(res.body.id).to.match(/^cal_[0-9A-HJKMNP-TV-Z]{26}$/);
      expect(res.body).to.deep.include({
        tenant_id: tenantId,
        direction: 'outbound',
        from: '+12025550100',
        to: NUMBERS.answer,
        status: 'queued',
        duration_sec: 0,
        answered_at: null,
        ended_at: null,
        hangup_cause: null,
        handler: null,
        ai: { agent_id: agentRef(agentId) },
        max_duration_sec: 600,
        metadata: { order: 42 },
      });
      const read = await client.get(`/v1/calls/${res.body.id}`);
      expect(read.status).to.equal(200);
      expect(read.body).to.deep.equal(res.body);
    });

    it("reads a national number in the account's country and stores E.164", async () => {
      const { client } = await app.voiceCompany();
      const us = await client.post('/v1/calls', { to: '(202) 555-0110' });
      expect(us.status).to.equal(201);
      expect(us.body.to).to.equal('+12025550110');
      const german = await app.voiceCompany({ country: 'DE', numbers: ['+493087654321'] });
      const de = await german.client.post('/v1/calls', { to: '030 12345678', from: '+49 30 87654321' });
      expect(de.status, JSON.stringify(de.body)).to.equal(201);
      expect(de.body).to.include({ to: '+493012345678', from: '+493087654321' });
    });

    it('answers 422 invalid_to for a missing or unreadable number', async () => {
      const { client } = await app.voiceCompany();
      expectVoiceError(await client.post('/v1/calls', {}), 422, 'invalid_to');
      expectVoiceError(await client.post('/v1/calls', { to: 'call me maybe' }), 422, 'invalid_to');
      expectVoiceError(await client.post('/v1/calls', { to: '+1555' }), 422, 'invalid_to');
      expectVoiceError(await client.post('/v1/calls', { to: 12025550110 }), 422, 'invalid_to');
    });

    it('answers 422 invalid_task for an empty task or one over 8,000 characters', async () => {
      const { client } = await app.voiceCompany();
      expectVoiceError(await client.post('/v1/calls', { to: NUMBERS.answer, task: '' }), 422, 'invalid_task');
      expectVoiceError(await client.post('/v1/calls', { to: NUMBERS.answer, task: 'x'.repeat(8001) }), 422, 'invalid_task');
      expect((await client.post('/v1/calls', { to: NUMBERS.answer, task: 'x'.repeat(8000) })).status).to.equal(201);
    });

    it('answers 422 naming each other refused value', async () => {
      const { client } = await app.voiceCompany();
      const base = { to: NUMBERS.answer };
      const cases: [Record<string, unknown>, string][] = [
        [{ from: 'nobody' }, 'invalid_from'],
        [{ agent_id: 'agt_nothing' }, 'invalid_agent_id'],
        [{ context: { blob: 'x'.repeat(8 * 1024) } }, 'invalid_context'],
        [{ questions: Array.from({ length: 21 }, (_, i) => ({ key: `q${i}`, question: 'Why?' })) }, 'invalid_questions'],
        [
          {
            questions: [
              { key: 'a', question: 'One?' },
              { key: 'a', question: 'Two?' },
            ],
          },
          'invalid_questions',
        ],
        [{ outcomes: Array.from({ length: 21 }, (_, i) => `o${i}`) }, 'invalid_outcomes'],
        [{ voice: 'robot-9000' }, 'invalid_voice'],
        [{ max_duration_sec: 29 }, 'invalid_max_duration_sec'],
        [{ max_duration_sec: 3601 }, 'invalid_max_duration_sec'],
        [{ callback_url: 'http://example.com/hook' }, 'invalid_callback_url'],
        [{ callback_url: 'https://10.0.0.1/hook' }, 'invalid_callback_url'],
        [{ callback_url: 'https://localhost/hook' }, 'invalid_callback_url'],
        [{ metadata: { blob: 'x'.repeat(16 * 1024) } }, 'invalid_metadata'],
      ];
      for (const [extra, code] of cases) expectVoiceError(await client.post('/v1/calls', { ...base, ...extra }), 422, code);
      const ok = await client.post('/v1/calls', {
        ...base,
        voice: 'joanna',
        max_duration_sec: 30,
        outcomes: ['sold'],
        context: { name: 'Ann' },
      });
      expect(ok.status, JSON.stringify(ok.body)).to.equal(201);
    });

    it('answers 400 invalid_json for an unknown field or a body that is not a JSON object', async () => {
      const { client } = await app.voiceCompany();
      expectVoiceError(await client.post('/v1/calls', { to: NUMBERS.answer, priority: 'high' }), 400, 'invalid_json');
      expectVoiceError(
        await client.post('/v1/calls', { to: NUMBERS.answer, questions: [{ key: 'a', question: 'b', hint: 'c' }] }),
        400,
        'invalid_json',
      );
      expectVoiceError(await client.post('/v1/calls', '{"to": '), 400, 'invalid_json');
      expectVoiceError(await client.post('/v1/calls', '[1, 2]'), 400, 'invalid_json');
    });

    it('answers 403 module_off for a task or callback_url without the voice_api feature, and places a plain call', async () => {
      const { client } = await app.company();
      const task = await client.post('/v1/calls', { to: NUMBERS.answer, task: 'Sell' });
      expectVoiceError(task, 403, 'module_off');
      expect(task.body.error.message).to.include('voice_api');
      expectVoiceError(await client.post('/v1/calls', { to: NUMBERS.answer, callback_url: 'https://example.com/r' }), 403, 'module_off');
      expect((await client.post('/v1/calls', { to: NUMBERS.answer })).status).to.equal(201);
    });

    it('uses the named agent, else the default agent, else the first agent of the account', async () => {
      const { client, tenantId, agentId } = await app.voiceCompany();
      const other = await createAgent(app.runtime.ctx, tenantId, { name: 'Second' });
      const named = await client.post('/v1/calls', { to: NUMBERS.answer, agent_id: agentRef(other.id) });
      expect(named.body.ai).to.deep.equal({ agent_id: agentRef(other.id) });
      expect((await client.post('/v1/calls', { to: NUMBERS.answer })).body.ai).to.deep.equal({ agent_id: agentRef(agentId) });
      await updateTenant(app.runtime.ctx, tenantId, { defaultAgentId: other.id });
      expect((await client.post('/v1/calls', { to: NUMBERS.answer })).body.ai).to.deep.equal({ agent_id: agentRef(other.id) });
      const stranger = await app.voiceCompany();
      expectVoiceError(
        await stranger.client.post('/v1/calls', { to: NUMBERS.answer, agent_id: agentRef(other.id) }),
        422,
        'invalid_agent_id',
      );
    });

    describe('Idempotency-Key', () => {
      const post = (client: Client, key: string, body: unknown) => client.request('POST', '/v1/calls', body, { 'idempotency-key': key });

      it('answers 200 with the original call for the same key and body, and places nothing more', async () => {
        const { client, tenantId } = await app.voiceCompany();
        const body = { to: NUMBERS.answer, task: 'Once', metadata: { a: 1, b: 2 } };
        const first = await post(client, 'order-1', body);
        expect(first.status).to.equal(201);
        const again = await post(client, 'order-1', { metadata: { b: 2, a: 1 }, task: 'Once', to: NUMBERS.answer });
        expect(again.status).to.equal(200);
        expect(again.body).to.deep.equal(first.body);
        expect(await app.runtime.ctx.db('calls').where({ tenant_id: tenantId }).count({ n: '*' }).first()).to.deep.equal({ n: 1 });
      });

      it('answers 422 idempotency_mismatch for the same key with a different body', async () => {
        const { client } = await app.voiceCompany();
        expect((await post(client, 'k', { to: NUMBERS.answer })).status).to.equal(201);
        expectVoiceError(await post(client, 'k', { to: NUMBERS.busy }), 422, 'idempotency_mismatch');
      });

      it('keys are per account', async () => {
        const a = await app.voiceCompany();
        const b = await app.voiceCompany();
        const first = await post(a.client, 'shared', { to: NUMBERS.answer });
        const second = await post(b.client, 'shared', { to: NUMBERS.answer });
        expect([first.status, second.status]).to.deep.equal([201, 201]);
        expect(first.body.id).to.not.equal(second.body.id);
      });

      it('places one call for 20 concurrent requests with the same key', async () => {
        const { client, tenantId } = await app.voiceCompany();
        const body = { to: NUMBERS.answer, task: 'Race' };
        const all = await Promise.all(Array.from({ length: 20 }, () => post(client, 'race', body)));
        expect(all.map((r) => r.status).sort()).to.deep.equal([...Array(19).fill(200), 201]);
        expect(new Set(all.map((r) => r.body.id)).size).to.equal(1);
        expect(await app.runtime.ctx.db('calls').where({ tenant_id: tenantId }).count({ n: '*' }).first()).to.deep.equal({ n: 1 });
      });

      it('answers 422 invalid_idempotency_key for a key over 255 characters', async () => {
        const { client } = await app.voiceCompany();
        expectVoiceError(await post(client, 'k'.repeat(256), { to: NUMBERS.answer }), 422, 'invalid_idempotency_key');
        expect((await post(client, 'k'.repeat(255), { to: NUMBERS.answer })).status).to.equal(201);
      });
    });

    describe('do-not-call', function () {
      this.timeout(120_000);

      it('answers 422 do_not_call for a number on the list (admin dnc add|list|remove)', async () => {
        const { client, tenantId } = await app.voiceCompany();
        const added = await admin('dnc', 'add', '--tenant', tenantId, '--number', '(202) 555-0111', '--reason', 'asked twice');
        expect(added.code, added.stderr).to.equal(0);
        expect(added.json).to.include({ tenantId, number: NUMBERS.busy, reason: 'asked twice' });
        expectVoiceError(await client.post('/v1/calls', { to: NUMBERS.busy }), 422, 'do_not_call');
        expect((await client.post('/v1/calls', { to: NUMBERS.answer })).status).to.equal(201);
        const other = await app.voiceCompany();
        expect((await other.client.post('/v1/calls', { to: NUMBERS.busy })).status).to.equal(201);
        const listed = await admin('dnc', 'list', '--tenant', tenantId);
        expect(listed.json.numbers.map((n: any) => n.number)).to.deep.equal([NUMBERS.busy]);
        const removed = await admin('dnc', 'remove', '--tenant', tenantId, '--number', NUMBERS.busy);
        expect(removed.json).to.include({ number: NUMBERS.busy, removed: true });
        expect((await client.post('/v1/calls', { to: NUMBERS.busy })).status).to.equal(201);
      });
    });

    describe('limits', () => {
      it('answers 429 rate_limited over the calls_per_minute an operator set (admin tenant update --calls-per-minute)', async function () {
        this.timeout(120_000);
        const { client, tenantId } = await app.voiceCompany({ maxConcurrentCalls: 100 });
        expect((await admin('tenant', 'update', '--tenant', tenantId, '--calls-per-minute', '2')).code).to.equal(0);
        for (let i = 0; i < 2; i++) expect((await client.post('/v1/calls', { to: NUMBERS.answer })).status).to.equal(201);
        expectVoiceError(await client.post('/v1/calls', { to: NUMBERS.answer }), 429, 'rate_limited');

        expect((await admin('tenant', 'update', '--tenant', tenantId, '--calls-per-minute', '40')).code).to.equal(0);

        expect((await client.post('/v1/calls', { to: NUMBERS.answer })).status, 'raised within the minute').to.equal(201);
      });

      it("answers 422 country_not_allowed for a number outside the account's allowed countries (its own by default), until the operator allows it", async function () {
        this.timeout(120_000);
        const { client, tenantId } = await app.voiceCompany();
        const london = '+442079460958';
        const refused = await client.post('/v1/calls', { to: london });
        expectVoiceError(refused, 422, 'country_not_allowed');
        expect(refused.body.error.message).to.include('US');
        expect(await app.runtime.ctx.db('calls').where({ tenant_id: tenantId }).count({ n: '*' }).first()).to.deep.equal({ n: 0 });

        expect((await admin('tenant', 'update', '--tenant', tenantId, '--allowed-countries', 'US,GB')).code).to.equal(0);

        expect((await client.post('/v1/calls', { to: london })).status).to.equal(201);
        expect((await client.post('/v1/calls', { to: NUMBERS.answer })).status).to.equal(201);
      });

      it('answers 429 tenant_busy over the simultaneous-call cap, and places again once a call has ended', async () => {
        const { client } = await app.voiceCompany({ maxConcurrentCalls: 2 });
        const a = await client.post('/v1/calls', { to: NUMBERS.longRing });
        const b = await client.post('/v1/calls', { to: NUMBERS.longRing });
        expect([a.status, b.status]).to.deep.equal([201, 201]);
        const busy = await client.post('/v1/calls', { to: NUMBERS.longRing });
        expectVoiceError(busy, 429, 'tenant_busy');
        expect((await client.post(`/v1/calls/${a.body.id}/hangup`)).status).to.equal(200);
        expect((await client.post('/v1/calls', { to: NUMBERS.longRing })).status).to.equal(201);
      });

      it('answers 429 rate_limited with Retry-After over 30 calls a minute per account', async () => {
        const { client } = await app.voiceCompany({ maxConcurrentCalls: 100 });
        for (let i = 0; i < 30; i++) expect((await client.post('/v1/calls', { to: NUMBERS.answer })).status).to.equal(201);
        const limited = await client.post('/v1/calls', { to: NUMBERS.answer });
        expectVoiceError(limited, 429, 'rate_limited');
        expect(Number(limited.headers.get('retry-after'))).to.be.within(1, 60);
        const other = await app.voiceCompany();
        expect((await other.client.post('/v1/calls', { to: NUMBERS.answer })).status).to.equal(201);
      });

      it('does not count calls refused as tenant_busy against the 30 a minute: they were not placed', async () => {
        const { client } = await app.voiceCompany({ maxConcurrentCalls: 1 });
        const ringing = await client.post('/v1/calls', { to: NUMBERS.longRing });
        expect(ringing.status).to.equal(201);
        for (let i = 0; i < 30; i++) expectVoiceError(await client.post('/v1/calls', { to: NUMBERS.answer }), 429, 'tenant_busy');
        expect((await client.post(`/v1/calls/${ringing.body.id}/hangup`)).status).to.equal(200);
        expect((await client.post('/v1/calls', { to: NUMBERS.longRing })).status).to.equal(201);
      });
    });
  });

  describe('GET /v1/calls/{id}', () => {
    it("answers 404 not_found for another account's call and for an unknown id", async () => {
      const a = await app.voiceCompany();
      const b = await app.voiceCompany();
      const placed = await a.client.post('/v1/calls', { to: NUMBERS.answer });
      expectVoiceError(await b.client.get(`/v1/calls/${placed.body.id}`), 404, 'not_found');
      expectVoiceError(await a.client.get('/v1/calls/cal_01J00000000000000000000000'), 404, 'not_found');
    });

    it('answers 401 unauthorized without a key', async () => {
      expectVoiceError(await app.client().get('/v1/calls/cal_01J00000000000000000000000'), 401, 'unauthorized');
    });
  });

  describe('GET /v1/calls/{id}/result', () => {
    it('answers the result as it stands, final false before the call ends', async () => {
      const { client } = await app.voiceCompany();
      const placed = await client.post('/v1/calls', { to: NUMBERS.answer, metadata: { ref: 'x' } });
      const res = await client.get(`/v1/calls/${placed.body.id}/result`);
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal({
        call_id: placed.body.id,
        status: 'queued',
        final: false,
        from: '+12025550100',
        to: NUMBERS.answer,
        duration_sec: 0,
        outcome: 'queued',
        result: null,
        summary: '',
        transcript: [],
        metadata: { ref: 'x' },
      });
    });

    it('answers 403 module_off without the voice_api feature, and 404 for another account', async () => {
      const plain = await app.company();
      const placed = await plain.client.post('/v1/calls', { to: NUMBERS.answer });
      expectVoiceError(await plain.client.get(`/v1/calls/${placed.body.id}/result`), 403, 'module_off');
      const other = await app.voiceCompany();
      expectVoiceError(await other.client.get(`/v1/calls/${placed.body.id}/result`), 404, 'not_found');
    });

    it('answers 422 invalid_wait for a wait outside 1-60 seconds, and 400 invalid_json for a parameter it does not take', async () => {
      const { client } = await app.voiceCompany();
      const placed = await client.post('/v1/calls', { to: NUMBERS.answer });
      for (const wait of ['0', '61', 'soon'])
        expectVoiceError(await client.get(`/v1/calls/${placed.body.id}/result?wait=${wait}`), 422, 'invalid_wait');
      expectVoiceError(await client.get(`/v1/calls/${placed.body.id}/result?timeout=5`), 400, 'invalid_json');
    });
  });

  describe('POST /v1/calls/{id}/steer', () => {
    it('answers 409 not_live before the call is answered and 409 call_ended after it ended', async () => {
      const { client } = await app.voiceCompany();
      const placed = await client.post('/v1/calls', { to: NUMBERS.answer });
      expectVoiceError(await client.post(`/v1/calls/${placed.body.id}/steer`, { instruction: 'Be brief' }), 409, 'not_live');
      await client.post(`/v1/calls/${placed.body.id}/hangup`);
      expectVoiceError(await client.post(`/v1/calls/${placed.body.id}/steer`, { say: 'Hello?' }), 409, 'call_ended');
    });

    it('refuses a body without instruction or say (422), values over their limits (422) and unknown fields (400)', async () => {
      const { client } = await app.voiceCompany();
      const placed = await client.post('/v1/calls', { to: NUMBERS.answer });
      const steer = (body: unknown) => client.post(`/v1/calls/${placed.body.id}/steer`, body);
      expectVoiceError(await steer({}), 422, 'invalid_steer');
      expectVoiceError(await steer({ instruction: 'x'.repeat(2001) }), 422, 'invalid_instruction');
      expectVoiceError(await steer({ say: 'x'.repeat(1001) }), 422, 'invalid_say');
      expectVoiceError(await steer({ shout: 'hey' }), 400, 'invalid_json');
    });

    it('answers 403 module_off without the voice_api feature, and 404 for another account', async () => {
      const plain = await app.company();
      const placed = await plain.client.post('/v1/calls', { to: NUMBERS.answer });
      expectVoiceError(await plain.client.post(`/v1/calls/${placed.body.id}/steer`, { say: 'Hi' }), 403, 'module_off');
      const other = await app.voiceCompany();
      expectVoiceError(await other.client.post(`/v1/calls/${placed.body.id}/steer`, { say: 'Hi' }), 404, 'not_found');
    });
  });

  describe('POST /v1/calls/{id}/hangup', () => {
    it('ends a call before answer as canceled, with any key, then answers 409 call_ended', async () => {
      const { client } = await app.company();
      const placed = await client.post('/v1/calls', { to: NUMBERS.answer });
      const res = await client.post(`/v1/calls/${placed.body.id}/hangup`);
      expect(res.status).to.equal(200);
      expect(res.body).to.include({ id: placed.body.id, status: 'canceled', hangup_cause: 'api_hangup', duration_sec: 0 });
      expect(res.body.ended_at).to.be.a('string');
      expectVoiceError(await client.post(`/v1/calls/${placed.body.id}/hangup`), 409, 'call_ended');
    });

    it("answers 404 for another account's call", async () => {
      const a = await app.company();
      const b = await app.company();
      const placed = await a.client.post('/v1/calls', { to: NUMBERS.answer });
      expectVoiceError(await b.client.post(`/v1/calls/${placed.body.id}/hangup`), 404, 'not_found');
    });
  });

  describe('GET /v1/calls', () => {
    it("lists the account's calls newest first, page by page with next_cursor", async () => {
      const { client } = await app.company();
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) ids.push((await client.post('/v1/calls', { to: NUMBERS.answer })).body.id);
      const other = await app.company();
      await other.client.post('/v1/calls', { to: NUMBERS.answer });
      const first = await client.get('/v1/calls?limit=2');
      expect(first.status).to.equal(200);
      expect(first.body.data.map((c: any) => c.id)).to.deep.equal([ids[4], ids[3]]);
      const second = await client.get(`/v1/calls?limit=2&cursor=${first.body.next_cursor}`);
      expect(second.body.data.map((c: any) => c.id)).to.deep.equal([ids[2], ids[1]]);
      const last = await client.get(`/v1/calls?limit=2&cursor=${second.body.next_cursor}`);
      expect(last.body).to.deep.equal({ data: [last.body.data[0]], next_cursor: null });
      expect(last.body.data[0].id).to.equal(ids[0]);
      expect((await client.get('/v1/calls')).body.data).to.have.length(5);
    });

    it('filters by status, direction, to, from and creation time', async () => {
      const { client } = await app.company({ numbers: ['+12025550100', '+12025550199'] });
      const a = (await client.post('/v1/calls', { to: NUMBERS.answer })).body;
      const b = (await client.post('/v1/calls', { to: NUMBERS.busy, from: '+12025550199' })).body;
      await client.post(`/v1/calls/${a.id}/hangup`);
      const ids = async (query: string) => (await client.get(`/v1/calls?${query}`)).body.data.map((c: any) => c.id);
      expect(await ids('status=canceled')).to.deep.equal([a.id]);
      expect(await ids('status=queued')).to.deep.equal([b.id]);
      expect(await ids('direction=outbound')).to.deep.equal([b.id, a.id]);
      expect(await ids('direction=inbound')).to.deep.equal([]);
      expect(await ids(`to=${encodeURIComponent(NUMBERS.busy)}`)).to.deep.equal([b.id]);
      expect(await ids('to=(202)%20555-0110')).to.deep.equal([a.id]);
      expect(await ids(`from=${encodeURIComponent('+12025550199')}`)).to.deep.equal([b.id]);
      expect(await ids(`created_before=${encodeURIComponent(a.created_at)}`)).to.deep.equal([]);
      expect(await ids(`created_after=${encodeURIComponent('2000-01-01T00:00:00Z')}`)).to.deep.equal([b.id, a.id]);
    });

    it('answers 422 invalid_<parameter> for a limit outside 1-100, an unknown status, a bad time or a cursor it did not give', async () => {
      const { client } = await app.company();
      for (const [query, code] of [
        ['limit=0', 'invalid_limit'],
        ['limit=101', 'invalid_limit'],
        ['status=ringing-ish', 'invalid_status'],
        ['cursor=bm9wZQ', 'invalid_cursor'],
        [`cursor=${'x'.repeat(65)}`, 'invalid_cursor'],
        ['created_after=yesterday', 'invalid_created_after'],
      ]) {
        expectVoiceError(await client.get(`/v1/calls?${query}`), 422, code!);
      }
    });

    it('answers 400 invalid_json for a parameter it does not take', async () => {
      const { client } = await app.company();
      expectVoiceError(await client.get('/v1/calls?colour=red'), 400, 'invalid_json');
    });
  });

  describe('GET /v1/voices', () => {
    it('lists the voice catalogue with any key', async () => {
      const { client } = await app.company();
      const res = await client.get('/v1/voices');
      expect(res.status).to.equal(200);
      expect(res.body.data).to.be.an('array').that.is.not.empty;
      for (const voice of res.body.data) expect(voice).to.have.all.keys('id', 'name', 'language', 'gender', 'provider');
    });
  });

  describe('GET /v1/messages/{id}/recording', () => {
    it('answers 404 for an unknown message', async () => {
      const { client } = await app.company();
      expectVoiceError(await client.get('/v1/messages/msg_01J00000000000000000000000/recording'), 404, 'not_found');
    });
  });
});
