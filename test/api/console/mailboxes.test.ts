import { expect } from 'chai';
import { keepVoicemail } from '../../../pkg/messages/voicemail.js';
import { encodeWav } from '../../../pkg/voice/wav.js';
import { startCallsApp, type CallsApp } from '../../support/calls.js';
import { auditEntries, signedInUser } from '../../support/console.js';
import { expectVoiceError } from '../../support/errors.js';
import { eventually } from '../../support/eventually.js';

describe('Console mailboxes routes', function () {
  this.timeout(60_000);
  let app: CallsApp;
  before(async () => {
    app = await startCallsApp({ controllers: true });
  });
  after(async () => app?.close());

  const auditOf = (tenantId: string) => auditEntries(app, tenantId, 'mailbox.', 'message.');

  let made = 0;
  /** A voice company whose number routes to a new mailbox, and a signed-in user of each role. */
  async function account() {
    const company = await app.routedCompany(`+1404557${String(1000 + ++made)}`, null);
    const mailbox = (await company.client.post('/v1/mailboxes', { name: 'After hours', greeting: 'Leave a message.' })).body;
    await company.client.patch(`/v1/numbers/${encodeURIComponent(company.number)}`, {
      routing: { type: 'voicemail', mailbox_id: mailbox.id },
    });
    const [member, viewer] = [await signedInUser(app, company.tenantId, 'member'), await signedInUser(app, company.tenantId, 'viewer')];
    return { ...company, mailbox, member, viewer };
  }

  const WAV = encodeWav(new Int16Array(8000), 8000);
  /** A voicemail kept in `mailboxId` as the voicemail step keeps one (the first test has a caller leave one). */
  const voicemail = (tenantId: string, mailboxId: string, summary: string) =>
    keepVoicemail(app.runtime.ctx, { tenant_id: tenantId, call_id: null, caller: '+12025553002', summary, mailbox_id: mailboxId }, WAV);

  const recording = (cookie: string | undefined, path: string) =>
    fetch(`${app.url}${path}`, { headers: cookie ? { cookie: `sb_session=${cookie}` } : {} });

  it("lists the account's mailboxes as GET /v1/mailboxes does, each with its count of new messages, to every role", async () => {
    const { client, tenantId, mailbox } = await account();
    const sales = (await client.post('/v1/mailboxes', { name: 'Sales', greeting: 'Hi.' })).body;
    await voicemail(tenantId, mailbox.id, 'First');
    const read = await voicemail(tenantId, mailbox.id, 'Second');
    await client.patch(`/v1/messages/${read.id}`, { status: 'read' });
    expect((await client.get('/v1/mailboxes')).body.data).to.deep.equal([mailbox, sales]);
    for (const role of ['owner', 'member', 'viewer'] as const) {
      const { browser } = await signedInUser(app, tenantId, role);
      const list = await browser.get('/console/api/mailboxes');
      expect([list.status, list.body], role).to.deep.equal([
        200,
        {
          data: [
            { ...mailbox, new_messages: 1 },
            { ...sales, new_messages: 0 },
          ],
        },
      ]);
      const one = await browser.get(`/console/api/mailboxes/${mailbox.id}`);
      expect([one.status, one.body], role).to.deep.equal([200, mailbox]);
    }
  });

  it("lists a mailbox's messages as GET /v1/messages?mailbox_id= does, with the voicemail a simulated caller left", async () => {
    const { client, number, mailbox, viewer } = await account();
    const call = (await client.post('/v1/sim/calls', { to: number, from: '+12025553001', lines: ['Hi, this is Eve, call me back.'] })).body;
    const listed = await eventually(
      'the voicemail listed',
      async () => {
        const res = await viewer.browser.get(`/console/api/mailboxes/${mailbox.id}/messages`);
        return res.body.data?.length ? res : undefined;
      },
      { everyMs: 500 },
    );
    expect(listed.status).to.equal(200);
    expect(listed.body).to.deep.equal((await client.get(`/v1/messages?mailbox_id=${mailbox.id}`)).body);
    expect(listed.body.data[0]).to.deep.include({
      kind: 'voicemail',
      caller: '+12025553001',
      summary: 'Hi, this is Eve, call me back.',
      status: 'new',
      mailbox_id: mailbox.id,
    });
    expect(listed.body.data[0].duration_sec).to.be.a('number');
    const wav = await recording(viewer.browser.cookie, `/console/api/mailboxes/${mailbox.id}/messages/${listed.body.data[0].id}/recording`);
    expect([wav.status, wav.headers.get('content-type')]).to.deep.equal([200, 'audio/wav']);
    expect((await client.get(`/v1/calls/${call.id}`)).body.status).to.equal('completed');
  });

  it("pages a mailbox's messages newest first and filters them by status, leaving out other mailboxes' messages", async () => {
    const { client, tenantId, mailbox, viewer } = await account();
    const other = (await client.post('/v1/mailboxes', { name: 'Sales', greeting: 'Hi.' })).body;
    const first = await voicemail(tenantId, mailbox.id, 'First');
    // Ids sort by their millisecond: the second is made in a later one.
    await new Promise((resolve) => setTimeout(resolve, 5));
    const second = await voicemail(tenantId, mailbox.id, 'Second');
    await voicemail(tenantId, other.id, 'Elsewhere');
    await client.patch(`/v1/messages/${first.id}`, { status: 'read' });
    const path = `/console/api/mailboxes/${mailbox.id}/messages`;
    const page = await viewer.browser.get(`${path}?limit=1`);
    expect([page.body.data.map((m: any) => m.id), page.body.next_cursor]).to.deep.equal([[second.id], second.id]);
    const next = await viewer.browser.get(`${path}?limit=1&cursor=${page.body.next_cursor}`);
    expect([next.body.data.map((m: any) => m.id), next.body.next_cursor]).to.deep.equal([[first.id], null]);
    expect((await viewer.browser.get(`${path}?status=read`)).body.data.map((m: any) => m.id)).to.deep.equal([first.id]);
  });

  it("plays a message's recording as audio/wav; another mailbox's message 404, signed out 401", async () => {
    const { client, tenantId, mailbox, viewer } = await account();
    const other = (await client.post('/v1/mailboxes', { name: 'Sales', greeting: 'Hi.' })).body;
    const message = await voicemail(tenantId, mailbox.id, 'Call me');
    const path = `/console/api/mailboxes/${mailbox.id}/messages/${message.id}/recording`;
    const res = await recording(viewer.browser.cookie, path);
    expect([res.status, res.headers.get('content-type')]).to.deep.equal([200, 'audio/wav']);
    expect(Buffer.from(await res.arrayBuffer()).equals(WAV)).to.equal(true);
    expectVoiceError(await viewer.browser.get(`/console/api/mailboxes/${other.id}/messages/${message.id}/recording`), 404, 'not_found');
    expect((await recording(undefined, path)).status).to.equal(401);
  });

  it('a member marks a message read, then archives it, each audited; the Voice API reads it; a move back is 422', async () => {
    const { client, tenantId, mailbox, member } = await account();
    const message = await voicemail(tenantId, mailbox.id, 'Call me');
    const path = `/console/api/mailboxes/${mailbox.id}/messages/${message.id}`;
    const read = await member.browser.patch(path, { status: 'read' });
    expect([read.status, read.body.status]).to.deep.equal([200, 'read']);
    expect((await client.get(`/v1/messages/${message.id}`)).body).to.deep.equal(read.body);
    expect((await member.browser.patch(path, { status: 'archived' })).body.status).to.equal('archived');
    expectVoiceError(await member.browser.patch(path, { status: 'new' }), 422, 'invalid_status');
    expect((await client.get(`/v1/messages/${message.id}`)).body.status).to.equal('archived');
    expect(await auditOf(tenantId)).to.deep.equal([
      ['message.status_changed', message.id, member.id, { from: 'new', to: 'read' }],
      ['message.status_changed', message.id, member.id, { from: 'read', to: 'archived' }],
    ]);
  });

  it('creates a mailbox for a member, audited, as POST /v1/mailboxes does', async () => {
    const { client, tenantId, member } = await account();
    const res = await member.browser.post('/console/api/mailboxes', { name: 'Sales', greeting: 'Sales is away.' });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    expect(res.body).to.deep.include({ name: 'Sales', greeting: 'Sales is away.' });
    expect((await client.get(`/v1/mailboxes/${res.body.id}`)).body).to.deep.equal(res.body);
    expect(await auditOf(tenantId)).to.deep.equal([['mailbox.created', res.body.id, member.id, { name: 'Sales' }]]);
  });

  it('refuses a viewer every change with 403, changing nothing', async () => {
    const { client, tenantId, mailbox, viewer } = await account();
    const message = await voicemail(tenantId, mailbox.id, 'Call me');
    expectVoiceError(await viewer.browser.post('/console/api/mailboxes', { name: 'Nope', greeting: 'No.' }), 403, 'forbidden');
    expectVoiceError(
      await viewer.browser.patch(`/console/api/mailboxes/${mailbox.id}/messages/${message.id}`, { status: 'read' }),
      403,
      'forbidden',
    );
    expect((await client.get('/v1/mailboxes')).body.data).to.deep.equal([mailbox]);
    expect((await client.get(`/v1/messages/${message.id}`)).body.status).to.equal('new');
    expect(await auditOf(tenantId)).to.deep.equal([]);
  });

  it("answers 404 for another account's mailbox and message on every route, changing nothing", async () => {
    const mine = await account();
    const theirs = await account();
    const message = await voicemail(theirs.tenantId, theirs.mailbox.id, 'Theirs');
    const ours = mine.member.browser;
    for (const res of [
      await ours.get(`/console/api/mailboxes/${theirs.mailbox.id}`),
      await ours.get(`/console/api/mailboxes/${theirs.mailbox.id}/messages`),
      await ours.patch(`/console/api/mailboxes/${theirs.mailbox.id}/messages/${message.id}`, { status: 'read' }),
      await ours.patch(`/console/api/mailboxes/${mine.mailbox.id}/messages/${message.id}`, { status: 'read' }),
      await ours.get(`/console/api/mailboxes/${theirs.mailbox.id}/messages/${message.id}/recording`),
      await ours.get(`/console/api/mailboxes/${mine.mailbox.id}/messages/${message.id}/recording`),
    ]) {
      expectVoiceError(res, 404, 'not_found');
    }
    expect((await ours.get('/console/api/mailboxes')).body.data).to.deep.equal([{ ...mine.mailbox, new_messages: 0 }]);
    expect((await theirs.client.get(`/v1/messages/${message.id}`)).body.status).to.equal('new');
    expect(await auditOf(mine.tenantId)).to.deep.equal([]);
  });

  it('answers 400 for an unknown field and 422 for a refused value, changing nothing and auditing nothing', async () => {
    const { client, tenantId, mailbox, member } = await account();
    const message = await voicemail(tenantId, mailbox.id, 'Call me');
    const ours = member.browser;
    expectVoiceError(await ours.post('/console/api/mailboxes', { name: 'X', greeting: 'Y', colour: 'blue' }), 400, 'invalid_json');
    expectVoiceError(await ours.post('/console/api/mailboxes', { name: 'No greeting' }), 422, 'invalid_greeting');
    expectVoiceError(
      await ours.patch(`/console/api/mailboxes/${mailbox.id}/messages/${message.id}`, { status: 'gone' }),
      422,
      'invalid_status',
    );
    expectVoiceError(
      await ours.patch(`/console/api/mailboxes/${mailbox.id}/messages/${message.id}`, { status: 'read', pin: true }),
      400,
      'invalid_json',
    );
    expectVoiceError(await ours.get(`/console/api/mailboxes/${mailbox.id}/messages?status=lost`), 422, 'invalid_status');
    expectVoiceError(await ours.get(`/console/api/mailboxes/${mailbox.id}/messages?cursor=nope`), 422, 'invalid_cursor');
    expectVoiceError(await ours.get(`/console/api/mailboxes/${mailbox.id}/messages?mailbox_id=${mailbox.id}`), 400, 'invalid_json');
    expect((await client.get('/v1/mailboxes')).body.data).to.deep.equal([mailbox]);
    expect((await client.get(`/v1/messages/${message.id}`)).body.status).to.equal('new');
    expect(await auditOf(tenantId)).to.deep.equal([]);
  });
});
