import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createScratchDatabase, type ScratchDatabase } from '../support/database.js';
import { eventually } from '../support/eventually.js';
import { createDb } from '../../pkg/db/index.js';
import { switchboard } from '../support/cli.js';
import { startProcess, SwitchboardProcess } from '../support/processes.js';

/** Each `curl -s URL -H … -H … -d BODY` the welcome prints, as a request to send. */
function printedCurls(welcome: string): { url: string; headers: Record<string, string>; body: string }[] {
  const curls = [...welcome.matchAll(/curl -s (\S+) -H '([^']+)' \\\n\s+-H '([^']+)' -d '([^']+)'/g)];
  return curls.map(([, url, ...rest]) => {
    const body = rest.pop()!;
    const headers = Object.fromEntries(rest.map((h) => h.split(': ') as [string, string]));
    // The process listens on 127.0.0.1 here; `localhost` may resolve to ::1 first.
    return { url: url!.replace('localhost', '127.0.0.1'), headers, body };
  });
}

describe('switchboard dev (make run) as a newcomer uses it', function () {
  this.timeout(120_000);
  let database: ScratchDatabase;
  let dev: SwitchboardProcess;
  let dataDir: string;
  // No model configured: the built-in offline model answers.
  const devEnv = (url: string) => ({ DATABASE_URL: url, SWITCHBOARD_DATA_DIR: dataDir, OPENAI_BASE_URL: '', OPENAI_API_KEY: '' });
  const startDev = async (url = database.url) => {
    dev = await startProcess('dev', devEnv(url), 'controllers started');
    await eventually('the welcome', () => dev.stdout.includes('Stop: Ctrl-C'));
  };
  const printedKey = () => /API key: (\S+)/.exec(dev.stdout)?.[1];
  before(async () => {
    database = await createScratchDatabase();
    dataDir = mkdtempSync(join(tmpdir(), 'switchboard-dev-'));
    await startDev();
  });
  after(async () => {
    await dev?.kill();
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('prints curls that each work: a conversation, a job, a placed call, and a call ringing in to the demo number its agent answers', async () => {
    const curls = printedCurls(dev.stdout);
    const answers: Record<string, { status: number; body: any }> = {};
    for (const { url, headers, body } of curls) {
      if (url.includes('<conversationId>')) continue;
      const res = await fetch(url, { method: 'POST', headers, body });
      answers[new URL(url).pathname] = { status: res.status, body: await res.json() };
    }
    expect(Object.keys(answers)).to.have.members(['/api/v1/conversations', '/api/v1/triggers', '/v1/calls', '/v1/sim/calls']);
    expect(answers['/api/v1/conversations']!.status).to.equal(201);
    expect(answers['/api/v1/triggers']!.status).to.equal(202);
    expect(answers['/v1/calls']!.status).to.equal(201);
    const ringing = answers['/v1/sim/calls']!;
    expect(ringing.status, JSON.stringify(ringing.body)).to.equal(201);
    expect(ringing.body).to.include({ direction: 'inbound', to: '+12025550100' });

    const { headers } = curls.find((c) => c.url.endsWith('/v1/sim/calls'))!;
    const base = new URL(curls[0]!.url).origin;
    const result = await eventually('the call ringing in to end', async () => {
      const r = await (await fetch(`${base}/v1/calls/${ringing.body.id}/result`, { headers })).json();
      return r.final && r;
    });
    expect(result.status).to.equal('completed');
    expect(result.transcript.map((t: { speaker: string }) => t.speaker)).to.include.members(['caller', 'agent']);
    const numbers = await (await fetch(`${base}/v1/numbers`, { headers })).json();
    expect(numbers.data).to.have.length(1);
    expect(numbers.data[0]).to.deep.include({ number: '+12025550100', name: 'Demo line', default: true });
  });

  it('prints the docs, the API reference, and the console at the root: each a page it serves', async () => {
    const printed = (label: string) => new RegExp(`${label}: (\\S+)`).exec(dev.stdout)?.[1]?.replace('localhost', '127.0.0.1');
    const docsUrl = printed('Docs');
    const referenceUrl = printed('API reference');
    expect(new URL(docsUrl!).pathname).to.equal('/docs/');
    expect(new URL(referenceUrl!).pathname).to.equal('/docs/api/');
    for (const [url, title] of [
      [new URL('/', docsUrl).href, 'Switchboard console'],
      [docsUrl!, 'Switchboard'],
      [referenceUrl!, 'Switchboard API reference'],
    ]) {
      const res = await fetch(url!, { headers: { accept: 'text/html' } });
      expect(res.status, url).to.equal(200);
      expect(await res.text(), url).to.include(`<title>${title}</title>`);
    }
  });

  /** The user the welcome's console link signs in. */
  async function consoleLinkUser(): Promise<any> {
    const link = /Console: (\S+)/.exec(dev.stdout)?.[1]?.replace('localhost', '127.0.0.1');
    expect(link, dev.stdout).to.match(/\/console\/sign-in\/[\w-]{40,}$/);
    const opened = await fetch(link!, { redirect: 'manual' });
    expect(opened.status).to.equal(303);
    const cookie = opened.headers.getSetCookie()[0]!.split(';')[0]!;
    return (await fetch(new URL('/console/api/session', link), { headers: { cookie } })).json();
  }

  it("prints a one-time console sign-in link that signs the demo company's owner in, and a new one for them on the next start", async () => {
    const first = await consoleLinkUser();
    expect(first.user.role).to.equal('owner');
    expect(first.account.name).to.equal('Demo Company');

    await dev.kill();
    await startDev();

    const again = await consoleLinkUser();
    expect(again.user).to.deep.equal(first.user);
  });
  it('keeps a demo per database in one data folder: another database gets its own, and the first its own again', async () => {
    const first = printedKey();
    await dev.kill();
    const other = await createScratchDatabase();
    try {
      await startDev(other.url);
      expect(printedKey()).to.be.a('string').and.not.equal(first);
      await dev.kill();
    } finally {
      await other.drop();
    }
    await startDev();
    expect(printedKey()).to.equal(first);
  });

  it('makes the demo whole or not at all: with its number taken by another company, no half-made demo is left', async () => {
    const taken = await createScratchDatabase();
    const db = createDb(taken.url, 1);
    try {
      const owner = await switchboard(['admin', 'bootstrap', '--name', 'Owner', '--json'], { DATABASE_URL: taken.url });
      const added = await switchboard(['admin', 'number', 'add', '--tenant', owner.json.tenantId, '--number', '+12025550100', '--json'], {
        DATABASE_URL: taken.url,
      });
      expect(added.code, added.stderr).to.equal(0);
      const refused = new SwitchboardProcess('dev', devEnv(taken.url));
      expect((await refused.waitForExit(60_000)).code).to.not.equal(0);
      expect(await db('tenants').where({ name: 'Demo Company' })).to.deep.equal([]);
    } finally {
      await db.destroy();
      await taken.drop();
    }
  });
});
