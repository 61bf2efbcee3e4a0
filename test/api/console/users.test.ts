import { expect } from 'chai';
import { startTestApp, type TestApp } from '../../support/app.js';
import { ConsoleBrowser, PASSWORD, signedInUser } from '../../support/console.js';

describe('Console users and roles', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp({ env: { SWITCHBOARD_SIGN_IN_PER_CLIENT_PER_MINUTE: '10000' } });
  });
  after(async () => app.close());

  /** A new account and its first owner, signed in. */
  async function account() {
    const { tenantId } = await app.company();
    return { tenantId, owner: await signedInUser(app, tenantId, 'owner') };
  }

  describe('GET /console/api/users', () => {
    it("lists the account's users to owners and admins", async () => {
      const { tenantId, owner } = await account();
      const admin = await signedInUser(app, tenantId, 'admin');

      for (const reader of [owner, admin]) {
        const res = await reader.browser.get('/console/api/users');
        expect(res.status).to.equal(200);
        expect(res.body.users.map((u: { id: string }) => u.id)).to.deep.equal([owner.id, admin.id]);
        expect(res.body.users[0])
          .to.include({ id: owner.id, email: owner.email, role: 'owner', password_set: true })
          .and.have.property('created_at');
        expect(res.body.users[0]).not.to.have.property('password_hash');
      }
    });

    it('refuses members and viewers with 403 forbidden', async () => {
      const { tenantId } = await account();
      for (const role of ['member', 'viewer'] as const) {
        const { browser } = await signedInUser(app, tenantId, role);
        const res = await browser.get('/console/api/users');
        expect(res.status, role).to.equal(403);
        expect(res.body.error.code).to.equal('forbidden');
      }
    });
  });

  describe('POST /console/api/users', () => {
    it('invites a user: 201 with their one-time link, which signs them in with the role given', async () => {
      const { owner } = await account();

      const res = await owner.browser.post('/console/api/users', { email: 'Invited@Example.com', name: 'Ada', role: 'member' });

      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      expect(res.body.user).to.include({ email: 'invited@example.com', name: 'Ada', role: 'member', password_set: false });
      expect(res.body.sign_in_url).to.match(/^http:\/\/localhost:8080\/console\/sign-in\/[\w-]{40,}$/);
      const invited = new ConsoleBrowser(app.url);
      expect((await invited.openLink(res.body.sign_in_url)).headers.get('location')).to.equal('/?set-password=1');
      expect((await invited.get('/console/api/session')).body.user).to.include({ id: res.body.user.id, role: 'member' });
    });

    it('refuses admins, members and viewers with 403 forbidden, inviting nobody', async () => {
      const { tenantId, owner } = await account();
      for (const role of ['admin', 'member', 'viewer'] as const) {
        const { browser } = await signedInUser(app, tenantId, role);
        const res = await browser.post('/console/api/users', { email: `by-${role}@example.com`, role: 'owner' });
        expect(res.status, role).to.equal(403);
        expect(res.body.error.code).to.equal('forbidden');
      }
      const emails = (await owner.browser.get('/console/api/users')).body.users.map((u: { email: string }) => u.email);
      expect(emails.filter((e: string) => e.startsWith('by-'))).to.deep.equal([]);
    });

    it('answers 409 email_taken for an address that already signs in, and 422 for a bad role or email', async () => {
      const { owner } = await account();
      const other = await account();

      const taken = await owner.browser.post('/console/api/users', { email: other.owner.email, role: 'viewer' });
      const role = await owner.browser.post('/console/api/users', { email: 'x@example.com', role: 'superuser' });
      const email = await owner.browser.post('/console/api/users', { email: 'not-an-address', role: 'viewer' });
      const noRole = await owner.browser.post('/console/api/users', { email: 'y@example.com' });

      expect([taken.status, taken.body.error.code]).to.deep.equal([409, 'email_taken']);
      expect([role.status, role.body.error.code]).to.deep.equal([422, 'invalid_role']);
      expect([email.status, email.body.error.code]).to.deep.equal([422, 'invalid_email']);
      expect([noRole.status, noRole.body.error.code]).to.deep.equal([422, 'invalid_role']);
    });
  });

  describe('PATCH /console/api/users/:id', () => {
    it("changes a user's role, which holds on their next request", async () => {
      const { tenantId, owner } = await account();
      const member = await signedInUser(app, tenantId, 'member');

      const res = await owner.browser.patch(`/console/api/users/${member.id}`, { role: 'admin' });

      expect(res.status).to.equal(200);
      expect(res.body.user).to.include({ id: member.id, role: 'admin' });
      expect((await member.browser.get('/console/api/users')).status).to.equal(200);
    });

    it('refuses to demote the last owner with 409 last_owner; with a second owner it may', async () => {
      const { tenantId, owner } = await account();

      const refused = await owner.browser.patch(`/console/api/users/${owner.id}`, { role: 'admin' });
      expect([refused.status, refused.body.error.code]).to.deep.equal([409, 'last_owner']);
      expect((await owner.browser.get('/console/api/session')).body.user.role).to.equal('owner');

      const second = await signedInUser(app, tenantId, 'owner');
      expect((await owner.browser.patch(`/console/api/users/${owner.id}`, { role: 'admin' })).status).to.equal(200);
      const last = await second.browser.patch(`/console/api/users/${second.id}`, { role: 'viewer' });
      expect([last.status, last.body.error.code]).to.deep.equal([409, 'last_owner']);
    });

    it('leaves one owner when two owners demote each other at once: one is refused (409 last_owner, or 403 once demoted)', async () => {
      for (let round = 0; round < 5; round++) {
        const { tenantId, owner } = await account();
        const second = await signedInUser(app, tenantId, 'owner');

        const answers = await Promise.all([
          owner.browser.patch(`/console/api/users/${second.id}`, { role: 'admin' }),
          second.browser.patch(`/console/api/users/${owner.id}`, { role: 'admin' }),
        ]);

        const statuses = answers.map((a) => a.status).sort();
        expect(statuses[0], JSON.stringify(answers.map((a) => a.body))).to.equal(200);
        expect([403, 409], JSON.stringify(answers.map((a) => a.body))).to.include(statuses[1]);
        const roles = (await owner.browser.get('/console/api/users')).body.users.map((u: { role: string }) => u.role);
        expect(roles.filter((r: string) => r === 'owner')).to.have.length(1);
      }
    });

    it('refuses admins, members and viewers with 403 forbidden', async () => {
      const { tenantId, owner } = await account();
      for (const role of ['admin', 'member', 'viewer'] as const) {
        const { browser, id } = await signedInUser(app, tenantId, role);
        const res = await browser.patch(`/console/api/users/${id}`, { role: 'owner' });
        expect(res.status, role).to.equal(403);
        expect(res.body.error.code).to.equal('forbidden');
      }
      const roles = (await owner.browser.get('/console/api/users')).body.users.map((u: { role: string }) => u.role);
      expect(roles).to.deep.equal(['owner', 'admin', 'member', 'viewer']);
    });
  });

  describe('DELETE /console/api/users/:id', () => {
    it('removes the user and ends their sessions', async () => {
      const { tenantId, owner } = await account();
      const member = await signedInUser(app, tenantId, 'member');

      expect((await owner.browser.delete(`/console/api/users/${member.id}`)).status).to.equal(204);

      expect((await member.browser.get('/console/api/session')).status).to.equal(401);
      expect((await new ConsoleBrowser(app.url).signIn(member.email, PASSWORD)).status).to.equal(401);
      expect((await owner.browser.get('/console/api/users')).body.users).to.have.length(1);
    });

    it('refuses to remove the last owner with 409 last_owner', async () => {
      const { owner } = await account();

      const res = await owner.browser.delete(`/console/api/users/${owner.id}`);

      expect([res.status, res.body.error.code]).to.deep.equal([409, 'last_owner']);
      expect((await owner.browser.get('/console/api/session')).status).to.equal(200);
    });

    it('refuses admins with 403 forbidden', async () => {
      const { tenantId } = await account();
      const admin = await signedInUser(app, tenantId, 'admin');
      const member = await signedInUser(app, tenantId, 'member');

      const res = await admin.browser.delete(`/console/api/users/${member.id}`);

      expect([res.status, res.body.error.code]).to.deep.equal([403, 'forbidden']);
      expect((await member.browser.get('/console/api/session')).status).to.equal(200);
    });
  });

  describe('between accounts', () => {
    it("an owner neither sees nor changes another account's users (404) nor reads its audit log", async () => {
      const a = await account();
      const b = await account();
      const aMember = await signedInUser(app, a.tenantId, 'member');

      const seen = (await b.owner.browser.get('/console/api/users')).body.users.map((u: { id: string }) => u.id);
      const patched = await b.owner.browser.patch(`/console/api/users/${aMember.id}`, { role: 'owner' });
      const deleted = await b.owner.browser.delete(`/console/api/users/${a.owner.id}`);
      const audit = (await b.owner.browser.get('/console/api/audit')).body.entries;

      expect(seen).to.deep.equal([b.owner.id]);
      expect([patched.status, patched.body.error.code]).to.deep.equal([404, 'not_found']);
      expect([deleted.status, deleted.body.error.code]).to.deep.equal([404, 'not_found']);
      expect(audit.map((e: { target: string }) => e.target)).not.to.include.members([aMember.id, a.owner.id]);
      expect(audit.every((e: { user: { id: string } | null }) => e.user === null || e.user.id === b.owner.id)).to.equal(true);
      const aUsers = (await a.owner.browser.get('/console/api/users')).body.users;
      expect(aUsers.map((u: { id: string; role: string }) => [u.id, u.role])).to.deep.equal([
        [a.owner.id, 'owner'],
        [aMember.id, 'member'],
      ]);
    });
  });

  describe('GET /console/api/audit', () => {
    it('has an entry, newest first, for each change a user made: who, what, when and the target', async () => {
      const { owner } = await account();
      const invited = await owner.browser.post('/console/api/users', { email: `audited.${Date.now()}@example.com`, role: 'viewer' });
      const id = invited.body.user.id;
      const viewer = new ConsoleBrowser(app.url);
      await viewer.openLink(invited.body.sign_in_url);
      await viewer.post('/console/api/password', { password: PASSWORD });
      await viewer.post('/console/api/sign-out');
      await owner.browser.patch(`/console/api/users/${id}`, { role: 'member' });
      await owner.browser.delete(`/console/api/users/${id}`);
      await owner.browser.post('/console/api/sign-out-everywhere');
      await owner.browser.signIn(owner.email);

      const res = await owner.browser.get('/console/api/audit');

      expect(res.status).to.equal(200);
      const who = (e: any) => (e.user === null ? 'operator' : e.user.id === owner.id ? 'owner' : 'viewer');
      expect(
        res.body.entries.map((e: any) => [who(e), e.action, e.target === id ? 'viewer' : e.target === owner.id ? 'owner' : e.target]),
      ).to.deep.equal([
        ['owner', 'session.signed_in', 'owner'],
        ['owner', 'session.signed_out_everywhere', 'owner'],
        ['owner', 'user.removed', 'viewer'],
        ['owner', 'user.role_changed', 'viewer'],
        ['viewer', 'session.signed_out', 'viewer'],
        ['viewer', 'user.password_set', 'viewer'],
        ['viewer', 'session.signed_in', 'viewer'],
        ['owner', 'user.invited', 'viewer'],
        ['owner', 'user.password_set', 'owner'],
        ['owner', 'session.signed_in', 'owner'],
        ['operator', 'user.added', 'owner'],
      ]);
      const changed = res.body.entries[3];
      expect(changed.details).to.deep.include({ from: 'viewer', to: 'member' });
      expect(changed.user).to.deep.equal({ id: owner.id, email: owner.email });
      expect(Date.parse(changed.at)).to.be.a('number').and.not.NaN;
      expect(res.body.next_cursor).to.equal(null);
    });

    it('pages with the cursor it gives out', async () => {
      const { owner } = await account();
      for (let i = 0; i < 3; i++)
        await owner.browser.post('/console/api/users', { email: `paged${i}.${Date.now()}@example.com`, role: 'viewer' });
      const all = (await owner.browser.get('/console/api/audit')).body.entries.map((e: { id: string }) => e.id);

      const first = await owner.browser.get('/console/api/audit?limit=2');
      const second = await owner.browser.get(`/console/api/audit?limit=2&cursor=${first.body.next_cursor}`);
      const third = await owner.browser.get(`/console/api/audit?limit=2&cursor=${second.body.next_cursor}`);

      expect([...first.body.entries, ...second.body.entries, ...third.body.entries].map((e: { id: string }) => e.id)).to.deep.equal(all);
      expect(third.body.next_cursor).to.equal(null);
      const bad = await owner.browser.get('/console/api/audit?cursor=abc');
      expect([bad.status, bad.body.error.code]).to.deep.equal([422, 'invalid_cursor']);
      const limit = await owner.browser.get('/console/api/audit?limit=0');
      expect([limit.status, limit.body.error.code]).to.deep.equal([422, 'invalid_limit']);
    });

    it('refuses admins with 403 forbidden', async () => {
      const { tenantId } = await account();
      const admin = await signedInUser(app, tenantId, 'admin');

      expect((await admin.browser.get('/console/api/audit')).status).to.equal(403);
    });
  });
});
