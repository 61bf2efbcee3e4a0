import { expect } from 'chai';
import { startTestApp, type TestApp } from '../support/app.js';
import { switchboard } from '../support/cli.js';
import { ConsoleBrowser, PASSWORD } from '../support/console.js';

describe('switchboard admin user', function () {
  // Every test spawns the CLI, a full node start; on a busy machine that takes seconds.
  this.timeout(120_000);
  let app: TestApp;
  before(async () => {
    app = await startTestApp();
  });
  after(async () => app.close());

  describe('admin user add', () => {
    it("prints a one-time sign-in link on SWITCHBOARD_PUBLIC_URL that signs the company's first owner in", async () => {
      const { tenantId } = await app.company({ name: 'CLI Co' });

      const r = await switchboard(
        ['admin', 'user', 'add', '--tenant', tenantId, '--email', 'first.owner@example.com', '--name', 'First Owner'],
        {
          SWITCHBOARD_PUBLIC_URL: 'https://switchboard.example.com/',
        },
      );

      expect(r.code, r.stderr).to.equal(0);
      const link = /https:\/\/switchboard\.example\.com\/console\/sign-in\/[\w-]{40,}/.exec(r.stdout)?.[0];
      expect(link, r.stdout).to.be.a('string');
      expect(r.stdout).to.include('first.owner@example.com').and.include('owner');
      const browser = new ConsoleBrowser(app.url);
      const opened = await browser.openLink(link!);
      expect(opened.status).to.equal(303);
      const session = await browser.get('/console/api/session');
      expect(session.body.user).to.include({ email: 'first.owner@example.com', name: 'First Owner', role: 'owner' });
      expect(session.body.account).to.deep.equal({ id: tenantId, name: 'CLI Co' });
      expect((await browser.post('/console/api/password', { password: PASSWORD })).status).to.equal(204);
      expect((await new ConsoleBrowser(app.url).openLink(link!)).status, 'used once').to.equal(404);
    });

    it('takes --role, and with --json prints the user and the link as one object; user list shows them', async () => {
      const { tenantId } = await app.company();

      const r = await switchboard([
        'admin',
        'user',
        'add',
        '--tenant',
        tenantId,
        '--email',
        'Viewer@Example.com',
        '--role',
        'viewer',
        '--json',
      ]);

      expect(r.code, r.stderr).to.equal(0);
      expect(r.json).to.include({ tenantId, email: 'viewer@example.com', role: 'viewer', passwordSet: false });
      expect(r.json.signInUrl).to.match(/^http:\/\/localhost:8080\/console\/sign-in\/[\w-]{40,}$/);
      const listed = await switchboard(['admin', 'user', 'list', '--tenant', tenantId, '--json']);
      expect(listed.code, listed.stderr).to.equal(0);
      expect(listed.json.users.map((u: { id: string; role: string }) => [u.id, u.role])).to.deep.equal([[r.json.id, 'viewer']]);
      const text = await switchboard(['admin', 'user', 'list', '--tenant', tenantId]);
      expect(text.stdout).to.include('viewer@example.com  viewer  (no password yet)');
    });

    it('exits 2 for a bad email or role, 1 for an unknown company or an email already in use, with one line on stderr', async () => {
      const { tenantId } = await app.company();
      await switchboard(['admin', 'user', 'add', '--tenant', tenantId, '--email', 'taken@example.com']);

      const cases: [string[], number, RegExp][] = [
        [['--tenant', tenantId, '--email', 'nope'], 2, /email: must be an email address/],
        [['--tenant', tenantId, '--email', 'r@example.com', '--role', 'king'], 2, /role: /],
        [['--tenant', tenantId], 2, /--email is required/],
        [['--tenant', 'tnt_unknown', '--email', 'u@example.com'], 1, /Unknown tenant tnt_unknown/],
        [['--tenant', tenantId, '--email', 'TAKEN@example.com'], 1, /taken@example.com is already a console user/],
      ];
      for (const [flags, code, message] of cases) {
        const r = await switchboard(['admin', 'user', 'add', ...flags]);
        expect(r.code, `${flags.join(' ')}: ${r.stderr}`).to.equal(code);
        expect(r.stdout).to.equal('');
        expect(r.stderr.trimEnd().split('\n')).to.have.length(1);
        expect(r.stderr).to.match(message);
      }
    });
  });
});
