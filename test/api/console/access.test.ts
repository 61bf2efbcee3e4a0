import { expect } from 'chai';
import { clientFor, startTestApp, type TestApp } from '../../support/app.js';
import { signedInUser, type ConsoleBrowser } from '../../support/console.js';
import { startReceiver, type Receiver } from '../../support/webhooks.js';

describe('Console access routes: API keys, webhooks, carrier, do-not-call', () => {
  let app: TestApp;
  let receiver: Receiver;
  before(async () => {
    app = await startTestApp({ env: { SWITCHBOARD_SIGN_IN_PER_CLIENT_PER_MINUTE: '10000' } });
    receiver = await startReceiver('');
  });
  after(async () => {
    await receiver?.close();
    await app?.close();
  });

  /** A new account, its first owner signed in, and its bootstrap API key. */
  async function account() {
    const company = await app.company();
    return { ...company, owner: await signedInUser(app, company.tenantId, 'owner') };
  }

  async function auditActions(owner: ConsoleBrowser): Promise<string[]> {
    return (await owner.get('/console/api/audit')).body.entries.map((e: { action: string; target: string }) => `${e.action} ${e.target}`);
  }

  /** The Agent API's answer to the key: 404 for a conversation it does not have, 401 for a dead key. */
  const agentApiStatus = async (key: string) => (await clientFor(app.url, key).get('/api/v1/conversations/cnv_missing')).status;

  describe('API keys', () => {
    it('creates a key for an admin: the secret once, working with Bearer, listed without it; revoking answers 401 next', async () => {
      const { tenantId, owner, keyId } = await account();
      const admin = await signedInUser(app, tenantId, 'admin');

      const made = await admin.browser.post('/console/api/keys', { name: 'CRM sync' });
      expect(made.status, JSON.stringify(made.body)).to.equal(201);
      expect(made.body.key).to.include({ name: 'CRM sync', revoked: false, last_used_at: null });
      expect(made.body.secret.startsWith(made.body.key.prefix)).to.equal(true);
      expect(await agentApiStatus(made.body.secret)).to.equal(404);

      const viewer = await signedInUser(app, tenantId, 'viewer');
      const listed = await viewer.browser.get('/console/api/keys');
      expect(listed.status).to.equal(200);
      expect(listed.body.keys.map((k: { id: string }) => k.id)).to.deep.equal([keyId, made.body.key.id]);
      expect(JSON.stringify(listed.body)).not.to.include(made.body.secret);
      expect(listed.body.keys[1].last_used_at).to.be.a('string');

      const revoked = await admin.browser.delete(`/console/api/keys/${made.body.key.id}`);
      expect(revoked.status).to.equal(200);
      expect(revoked.body.key).to.include({ id: made.body.key.id, revoked: true });
      expect(await agentApiStatus(made.body.secret)).to.equal(401);
      expect(await auditActions(owner.browser)).to.include.members([`key.created ${made.body.key.id}`, `key.revoked ${made.body.key.id}`]);
    });

    it('refuses members and viewers creating or revoking (403), changing nothing', async () => {
      const { tenantId, keyId, apiKey } = await account();
      for (const role of ['member', 'viewer'] as const) {
        const { browser } = await signedInUser(app, tenantId, role);
        const made = await browser.post('/console/api/keys', { name: 'sneaky' });
        const revoked = await browser.delete(`/console/api/keys/${keyId}`);
        expect([made.status, made.body.error.code, revoked.status], role).to.deep.equal([403, 'forbidden', 403]);
      }
      const owner = await signedInUser(app, tenantId, 'owner');
      expect((await owner.browser.get('/console/api/keys')).body.keys.map((k: { id: string }) => k.id)).to.deep.equal([keyId]);
      expect(await agentApiStatus(apiKey)).to.equal(404);
    });

    it('answers 422 for a missing or blank name, 400 for an unknown field', async () => {
      const { owner } = await account();
      const blank = await owner.browser.post('/console/api/keys', { name: '  ' });
      const missing = await owner.browser.post('/console/api/keys', {});
      const extra = await owner.browser.post('/console/api/keys', { name: 'x', tenant_id: 'tnt_other' });
      expect([blank.status, blank.body.error.code]).to.deep.equal([422, 'invalid_name']);
      expect(missing.status).to.equal(422);
      expect([extra.status, extra.body.error.code]).to.deep.equal([400, 'invalid_json']);
    });
  });

  describe('webhooks', () => {
    it('shows the addresses to a viewer; an admin sets them and sends message.test, seeing the answer', async () => {
      const { tenantId, owner } = await account();
      const admin = await signedInUser(app, tenantId, 'admin');
      const viewer = await signedInUser(app, tenantId, 'viewer');
      expect((await viewer.browser.get('/console/api/webhooks')).body).to.deep.equal({ events_url: null, message_webhook_url: null });

      const noHook = await admin.browser.post('/console/api/webhooks/test-message');
      expect([noHook.status, noHook.body.error.code]).to.deep.equal([409, 'conflict']);

      const set = await admin.browser.patch('/console/api/webhooks', { message_webhook_url: receiver.url });
      expect(set.status, JSON.stringify(set.body)).to.equal(200);
      expect(set.body).to.deep.equal({ events_url: null, message_webhook_url: receiver.url });
      receiver.secret = (await admin.browser.get('/console/api/webhooks/secret')).body.secret;

      const sent = await admin.browser.post('/console/api/webhooks/test-message');
      expect(sent.status).to.equal(200);
      expect(sent.body).to.include({ url: receiver.url, delivered: true, status: 200, error: null });
      expect(sent.body.duration_ms).to.be.a('number');
      expect(receiver.events.find((e) => e.id === sent.body.event_id)).to.include({ type: 'message.test', tenant_id: tenantId });
      expect(await auditActions(owner.browser)).to.include.members([
        `webhooks.changed ${tenantId}`,
        `webhooks.tested ${tenantId}`,
        `webhook_secret.revealed ${tenantId}`,
      ]);
    });

    it('refuses a member or viewer changing addresses or testing (403), and a bad address (422), changing nothing', async () => {
      const { tenantId, owner } = await account();
      for (const role of ['member', 'viewer'] as const) {
        const { browser } = await signedInUser(app, tenantId, role);
        expect((await browser.patch('/console/api/webhooks', { events_url: receiver.url })).status, role).to.equal(403);
        expect((await browser.post('/console/api/webhooks/test-message')).status, role).to.equal(403);
      }
      const bad = await owner.browser.patch('/console/api/webhooks', { events_url: 'not a url' });
      expect(bad.status).to.equal(422);
      expect(bad.body.error).to.have.property('code');
      expect((await owner.browser.get('/console/api/webhooks')).body.events_url).to.equal(null);
    });

    it('reveals and rotates the secret for owners and admins: the next webhook is signed with the new one', async () => {
      const { tenantId, owner } = await account();
      await owner.browser.patch('/console/api/webhooks', { message_webhook_url: receiver.url });
      const before = (await owner.browser.get('/console/api/webhooks/secret')).body.secret;
      expect(before).to.match(/^whsec_/);

      const rotated = await owner.browser.post('/console/api/webhooks/secret/rotate');
      expect(rotated.status).to.equal(200);
      expect(rotated.body.secret)
        .to.match(/^whsec_/)
        .and.not.equal(before);
      expect((await owner.browser.get('/console/api/webhooks/secret')).body.secret).to.equal(rotated.body.secret);

      receiver.secret = before;
      const old = await owner.browser.post('/console/api/webhooks/test-message');
      expect(old.body).to.include({ delivered: false, status: 401 });
      receiver.secret = rotated.body.secret;
      expect((await owner.browser.post('/console/api/webhooks/test-message')).body).to.include({ delivered: true, status: 200 });

      const admin = await signedInUser(app, tenantId, 'admin');
      expect((await admin.browser.post('/console/api/webhooks/secret/rotate')).status).to.equal(200);
      expect(await auditActions(owner.browser)).to.include(`webhook_secret.rotated ${tenantId}`);
    });

    it('refuses members and viewers the secret (403), rotating nothing', async () => {
      const { tenantId, owner } = await account();
      const secret = (await owner.browser.get('/console/api/webhooks/secret')).body.secret;
      for (const role of ['member', 'viewer'] as const) {
        const { browser } = await signedInUser(app, tenantId, role);
        const shown = await browser.get('/console/api/webhooks/secret');
        const rotated = await browser.post('/console/api/webhooks/secret/rotate');
        expect([shown.status, shown.body.error.code, rotated.status, rotated.body.error.code], role).to.deep.equal([
          403,
          'forbidden',
          403,
          'forbidden',
        ]);
        expect(JSON.stringify(shown.body)).not.to.include(secret);
      }
      expect((await owner.browser.get('/console/api/webhooks/secret')).body.secret).to.equal(secret);
    });
  });

  describe('carrier', () => {
    it("shows the account's carrier to admins and owners, never a token; 403 below", async () => {
      const { tenantId, owner } = await account();
      const res = await owner.browser.get('/console/api/carrier');
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal({
        carrier: app.runtime.ctx.config.SWITCHBOARD_CARRIER,
        source: 'deployment',
        account_sid: null,
        connection_id: null,
        auth_token_set: false,
      });
      expect((await (await signedInUser(app, tenantId, 'admin')).browser.get('/console/api/carrier')).status).to.equal(200);
      expect((await (await signedInUser(app, tenantId, 'member')).browser.get('/console/api/carrier')).status).to.equal(403);
    });
  });

  describe('do-not-call list', () => {
    it('a member adds (normalised to E.164), a viewer reads, an admin removes; each change audited', async () => {
      const { tenantId, owner } = await account();
      const member = await signedInUser(app, tenantId, 'member');
      const added = await member.browser.post('/console/api/do-not-call', { number: '(202) 555-0143', reason: 'asked on a call' });
      expect(added.status, JSON.stringify(added.body)).to.equal(201);
      expect(added.body).to.include({ number: '+12025550143', reason: 'asked on a call' });

      const viewer = await signedInUser(app, tenantId, 'viewer');
      expect((await viewer.browser.get('/console/api/do-not-call')).body.numbers.map((n: { number: string }) => n.number)).to.deep.equal([
        '+12025550143',
      ]);
      expect((await viewer.browser.post('/console/api/do-not-call', { number: '+12025550144' })).status).to.equal(403);
      expect((await member.browser.delete('/console/api/do-not-call/%2B12025550143')).status).to.equal(403);

      const admin = await signedInUser(app, tenantId, 'admin');
      expect((await admin.browser.delete('/console/api/do-not-call/%2B12025550143')).status).to.equal(204);
      expect((await admin.browser.delete('/console/api/do-not-call/%2B12025550143')).status).to.equal(404);
      expect((await viewer.browser.get('/console/api/do-not-call')).body.numbers).to.deep.equal([]);
      expect(await auditActions(owner.browser)).to.include.members(['do_not_call.added +12025550143', 'do_not_call.removed +12025550143']);
    });

    it('answers 422 for a number that is not one, adding nothing', async () => {
      const { owner } = await account();
      const res = await owner.browser.post('/console/api/do-not-call', { number: 'call me maybe' });
      expect([res.status, res.body.error.code]).to.deep.equal([422, 'invalid_number']);
      expect(res.body.error.message).to.match(/not a valid phone number/);
      expect((await owner.browser.get('/console/api/do-not-call')).body.numbers).to.deep.equal([]);
    });
  });

  describe("another account's data", () => {
    it("never reaches account A's rows from account B: lists show B's only, A's ids answer 404", async () => {
      const a = await account();
      const b = await account();
      const aKey = (await a.owner.browser.post('/console/api/keys', { name: 'A only' })).body;
      await a.owner.browser.post('/console/api/do-not-call', { number: '+12025550150' });
      await a.owner.browser.patch('/console/api/webhooks', { events_url: receiver.url, message_webhook_url: receiver.url });
      const aSecret = (await a.owner.browser.get('/console/api/webhooks/secret')).body.secret;

      const keys = (await b.owner.browser.get('/console/api/keys')).body.keys.map((k: { id: string }) => k.id);
      expect(keys).to.deep.equal([b.keyId]);
      expect((await b.owner.browser.get('/console/api/do-not-call')).body.numbers).to.deep.equal([]);
      expect((await b.owner.browser.get('/console/api/webhooks')).body).to.deep.equal({ events_url: null, message_webhook_url: null });
      expect((await b.owner.browser.get('/console/api/webhooks/secret')).body.secret).not.to.equal(aSecret);
      expect((await b.owner.browser.get('/console/api/users')).body.users.map((u: { id: string }) => u.id)).to.deep.equal([b.owner.id]);
      expect(JSON.stringify((await b.owner.browser.get('/console/api/audit')).body)).not.to.include(aKey.key.id);

      const revoke = await b.owner.browser.delete(`/console/api/keys/${aKey.key.id}`);
      const dnc = await b.owner.browser.delete('/console/api/do-not-call/%2B12025550150');
      const role = await b.owner.browser.patch(`/console/api/users/${a.owner.id}`, { role: 'viewer' });
      const removed = await b.owner.browser.delete(`/console/api/users/${a.owner.id}`);
      expect([revoke.status, dnc.status, role.status, removed.status]).to.deep.equal([404, 404, 404, 404]);
      expect(await agentApiStatus(aKey.secret)).to.equal(404);
      expect((await a.owner.browser.get('/console/api/do-not-call')).body.numbers).to.have.length(1);
      expect((await a.owner.browser.get('/console/api/users')).body.users[0].role).to.equal('owner');
    });
  });

  describe('CSRF', () => {
    it('refuses a change without the token or from another origin, changing nothing', async () => {
      const { owner } = await account();
      const secret = (await owner.browser.get('/console/api/webhooks/secret')).body.secret;
      const noToken = await owner.browser.request('POST', '/console/api/webhooks/secret/rotate', {}, { 'x-csrf-token': '' });
      const otherOrigin = await owner.browser.request('POST', '/console/api/keys', { name: 'evil' }, { origin: 'https://evil.example' });
      const crossSite = await owner.browser.request(
        'POST',
        '/console/api/do-not-call',
        { number: '+12025550160' },
        { 'sec-fetch-site': 'cross-site' },
      );
      for (const r of [noToken, otherOrigin, crossSite]) expect([r.status, r.body.error.code]).to.deep.equal([403, 'csrf_failed']);
      expect((await owner.browser.get('/console/api/webhooks/secret')).body.secret).to.equal(secret);
      expect((await owner.browser.get('/console/api/keys')).body.keys).to.have.length(1);
      expect((await owner.browser.get('/console/api/do-not-call')).body.numbers).to.deep.equal([]);
    });
  });
});
