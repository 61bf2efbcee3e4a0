import { expect } from 'chai';
import { finalResult, NUMBERS, outboxOf, startCallsApp, type CallsApp } from '../../support/calls.js';
import { auditEntries, signedInUser, type ConsoleBrowser } from '../../support/console.js';
import { expectVoiceError } from '../../support/errors.js';
import { eventually } from '../../support/eventually.js';

const MEMBERS = [
  { id: 'al', name: 'Al', phone: NUMBERS.stays, available: true },
  { id: 'bea', name: 'Bea', phone: '+12025550121', available: true },
];

describe('Console queues routes', function () {
  this.timeout(60_000);
  let app: CallsApp;
  before(async () => {
    app = await startCallsApp({ controllers: true });
  });
  after(async () => app?.close());

  const auditOf = (tenantId: string) => auditEntries(app, tenantId, 'queue.');

  let made = 0;
  /** A voice company whose number routes to a queue of MEMBERS, and a signed-in user of each role. */
  async function account(settings: { eventsUrl?: string } = {}) {
    const company = await app.routedCompany(`+1404556${String(1000 + ++made)}`, null, settings);
    const queue = (await company.client.post('/v1/queues', { name: 'Front desk', members: MEMBERS })).body;
    await company.client.patch(`/v1/numbers/${encodeURIComponent(company.number)}`, { routing: { type: 'queue', queue_id: queue.id } });
    const [member, viewer] = [await signedInUser(app, company.tenantId, 'member'), await signedInUser(app, company.tenantId, 'viewer')];
    return { ...company, queue, member, viewer };
  }

  it("lists the account's queues as GET /v1/queues does, each member with the call they are on, to every role", async () => {
    const { client, tenantId, number, queue, viewer } = await account();
    const call = (await client.post('/v1/sim/calls', { to: number, from: '+12025553001', lines: ['', ''] })).body;
    await eventually(
      "Al on the caller's call",
      async () => (await viewer.browser.get('/console/api/queues')).body.data[0].members[0].busy_call_id === call.id,
    );
    const api = (await client.get('/v1/queues')).body;
    for (const role of ['owner', 'member', 'viewer'] as const) {
      const res = await (await signedInUser(app, tenantId, role)).browser.get('/console/api/queues');
      expect(res.status, role).to.equal(200);
      expect(res.body, role).to.deep.equal({
        data: [
          {
            ...api.data[0],
            members: [
              { ...MEMBERS[0], busy_call_id: call.id },
              { ...MEMBERS[1], busy_call_id: null },
            ],
          },
        ],
      });
    }
    expect(api.data[0].id).to.equal(queue.id);
    expect((await client.post(`/v1/calls/${call.id}/hangup`)).status).to.equal(200);
    await finalResult(client, call.id);
    expect((await viewer.browser.get('/console/api/queues')).body.data[0].members.map((m: any) => m.busy_call_id)).to.deep.equal([
      null,
      null,
    ]);
  });

  it("switches one member's availability for a member, audited; the Voice API reads it", async () => {
    const { client, tenantId, queue, member } = await account();
    const res = await member.browser.patch(`/console/api/queues/${queue.id}/members/bea`, { available: false });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.members).to.deep.equal([MEMBERS[0], { ...MEMBERS[1], available: false }]);
    expect((await client.get(`/v1/queues/${queue.id}`)).body).to.deep.equal(res.body);
    expect(await auditOf(tenantId)).to.deep.equal([
      ['queue.member_availability_changed', queue.id, member.id, { member_id: 'bea', available: false }],
    ]);
  });

  /** Bea made available again, by her own switch or by the whole queue's members (as PATCH /v1/queues/{id} does). */
  const makeBeaAvailable = {
    'her availability': (browser: ConsoleBrowser, queueId: string) =>
      browser.patch(`/console/api/queues/${queueId}/members/bea`, { available: true }),
    "the queue's members": (browser: ConsoleBrowser, queueId: string) =>
      browser.patch(`/console/api/queues/${queueId}`, { members: MEMBERS }),
  };
  for (const [how, makeAvailable] of Object.entries(makeBeaAvailable)) {
    it(`a member made available (${how}) takes a caller who was waiting for a busy one`, async () => {
      // Calls' events are kept only for an account with an events address: queue.exited says who took the caller.
      const { client, number, queue, member } = await account({ eventsUrl: 'https://127.0.0.1:9/events' });
      expect((await member.browser.patch(`/console/api/queues/${queue.id}/members/bea`, { available: false })).status).to.equal(200);
      const quietCaller = async (from: string) => (await client.post('/v1/sim/calls', { to: number, from, lines: ['', ''] })).body;
      const exitOf = async (callId: string) => (await outboxOf(app, callId)).find((e) => e.type === 'queue.exited')?.payload.data.queue;
      const first = await quietCaller('+12025553011');
      expect((await eventually('the first caller put through', () => exitOf(first.id))).answered_by.member_id).to.equal('al');
      const second = await quietCaller('+12025553012');
      await eventually('the second caller waiting', async () => (await client.get(`/v1/calls/${second.id}`)).body.queue ?? undefined, {
        everyMs: 500,
      });

      expect((await makeAvailable(member.browser, queue.id)).status).to.equal(200);
      expect((await eventually('the second caller put through', () => exitOf(second.id))).answered_by.member_id).to.equal('bea');
      for (const call of [first, second]) {
        await client.post(`/v1/calls/${call.id}/hangup`);
        await finalResult(client, call.id);
      }
    });
  }

  it('keeps both of two concurrent availability changes to different members', async () => {
    const { client, queue, member } = await account();
    const { db } = app.runtime.ctx;
    // Both changes are held at the queue's row until both have read it, then run one after the other.
    const holder = await db.transaction();
    await holder('queues').where({ id: queue.id }).forUpdate().first();
    const changes = Promise.all([
      member.browser.patch(`/console/api/queues/${queue.id}/members/al`, { available: false }),
      member.browser.patch(`/console/api/queues/${queue.id}/members/bea`, { available: false }),
    ]);
    const waiting = async () =>
      (await db('pg_stat_activity').whereRaw('datname = current_database()').andWhere({ wait_event_type: 'Lock' }).count({ n: '*' }))[0]!.n;
    await eventually('both changes waiting on the queue', async () => Number(await waiting()) === 2, { everyMs: 100 });
    await holder.commit();
    expect((await changes).map((r) => r.status)).to.deep.equal([200, 200]);
    expect((await client.get(`/v1/queues/${queue.id}`)).body.members.map((m: any) => [m.id, m.available])).to.deep.equal([
      ['al', false],
      ['bea', false],
    ]);
  });

  it('creates, changes and deletes a queue for a member as the Voice API does, phones in E.164, each audited', async () => {
    const { client, tenantId, member } = await account();
    const created = await member.browser.post('/console/api/queues', {
      name: 'Sales',
      members: [{ id: 'cy', name: 'Cy', phone: '(202) 555-0130' }],
      max_wait_sec: 60,
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    expect(created.body).to.deep.include({
      name: 'Sales',
      max_wait_sec: 60,
      hold_message: null,
      members: [{ id: 'cy', name: 'Cy', phone: '+12025550130', available: true }],
    });
    expect((await client.get(`/v1/queues/${created.body.id}`)).body).to.deep.equal(created.body);

    const changed = await member.browser.patch(`/console/api/queues/${created.body.id}`, { hold_message: 'Please hold.', members: [] });
    expect(changed.status, JSON.stringify(changed.body)).to.equal(200);
    expect(changed.body).to.deep.include({ name: 'Sales', hold_message: 'Please hold.', members: [] });
    expect((await client.get(`/v1/queues/${created.body.id}`)).body).to.deep.equal(changed.body);

    const deleted = await member.browser.delete(`/console/api/queues/${created.body.id}`);
    expect([deleted.status, deleted.body.id]).to.deep.equal([200, created.body.id]);
    expect((await client.get(`/v1/queues/${created.body.id}`)).status).to.equal(404);
    expect(await auditOf(tenantId)).to.deep.equal([
      ['queue.created', created.body.id, member.id, { name: 'Sales' }],
      ['queue.updated', created.body.id, member.id, { fields: ['hold_message', 'members'] }],
      ['queue.deleted', created.body.id, member.id, { name: 'Sales' }],
    ]);
  });

  it('refuses a viewer every change with 403, changing nothing', async () => {
    const { client, tenantId, queue, viewer } = await account();
    expectVoiceError(await viewer.browser.patch(`/console/api/queues/${queue.id}/members/al`, { available: false }), 403, 'forbidden');
    expectVoiceError(await viewer.browser.post('/console/api/queues', { name: 'Nope' }), 403, 'forbidden');
    expectVoiceError(await viewer.browser.patch(`/console/api/queues/${queue.id}`, { name: 'Nope' }), 403, 'forbidden');
    expectVoiceError(await viewer.browser.delete(`/console/api/queues/${queue.id}`), 403, 'forbidden');
    expect((await client.get('/v1/queues')).body.data).to.deep.equal([queue]);
    expect(await auditOf(tenantId)).to.deep.equal([]);
  });

  it("answers 404 for another account's queue and a member the queue lacks, changing nothing", async () => {
    const mine = await account();
    const theirs = await account();
    const ours = mine.member.browser;
    expectVoiceError(await ours.patch(`/console/api/queues/${theirs.queue.id}/members/al`, { available: false }), 404, 'not_found');
    expectVoiceError(await ours.patch(`/console/api/queues/${mine.queue.id}/members/cy`, { available: false }), 404, 'not_found');
    expectVoiceError(await ours.patch(`/console/api/queues/${theirs.queue.id}`, { name: 'Taken' }), 404, 'not_found');
    expectVoiceError(await ours.delete(`/console/api/queues/${theirs.queue.id}`), 404, 'not_found');
    expect((await theirs.client.get('/v1/queues')).body.data).to.deep.equal([theirs.queue]);
    expect((await mine.client.get('/v1/queues')).body.data).to.deep.equal([mine.queue]);
    expect((await ours.get('/console/api/queues')).body.data.map((q: any) => q.id)).to.deep.equal([mine.queue.id]);
    expect([...(await auditOf(mine.tenantId)), ...(await auditOf(theirs.tenantId))]).to.deep.equal([]);
  });

  it('answers 400 for an unknown field and 422 for a refused value, changing nothing and auditing nothing', async () => {
    const { client, tenantId, queue, member } = await account();
    const ours = member.browser;
    expectVoiceError(
      await ours.patch(`/console/api/queues/${queue.id}/members/al`, { available: false, colour: 'blue' }),
      400,
      'invalid_json',
    );
    expectVoiceError(await ours.patch(`/console/api/queues/${queue.id}/members/al`, { available: 'no' }), 422, 'invalid_available');
    expectVoiceError(await ours.patch(`/console/api/queues/${queue.id}/members/al`, {}), 422, 'invalid_available');
    expectVoiceError(
      await ours.post('/console/api/queues', { name: 'Bad', members: [{ id: 'm1', name: 'Al', phone: 'nobody' }] }),
      422,
      'invalid_members',
    );
    expectVoiceError(await ours.post('/console/api/queues', { name: '' }), 422, 'invalid_name');
    expectVoiceError(await ours.patch(`/console/api/queues/${queue.id}`, { max_wait_sec: 5 }), 422, 'invalid_max_wait_sec');
    expectVoiceError(await ours.patch(`/console/api/queues/${queue.id}`, { members: [MEMBERS[0], MEMBERS[0]] }), 422, 'invalid_members');
    expect((await client.get('/v1/queues')).body.data).to.deep.equal([queue]);
    expect(await auditOf(tenantId)).to.deep.equal([]);
  });
});
