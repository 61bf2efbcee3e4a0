// The TypeScript SDK's own suite (sdk/typescript/test), type-checked against the packed and
// installed package and run with `node --test` against a running Switchboard: controllers, the
// simulated network, and a model that answers every message the same way.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { SUMMARY_INSTRUCTION } from '../../pkg/agent/summary.js';
import { webhookSecret } from '../../pkg/webhooks/secret.js';
import { type CallsApp, SUMMARY, startCallsApp } from '../support/calls.js';
import { TLS_DIR } from '../support/https.js';
import { typescriptSdkProject } from '../support/sdk-typescript.js';

const SDK = join(process.cwd(), 'sdk', 'typescript');
const SUITE = join(SDK, 'test');
/** The account's own number, its calls' caller id. */
const NUMBER = '+12025550100';
/** What the model answers; the suite checks it arrives whole, streamed and as a job's result. */
const REPLY = 'Hello from Switchboard.';

describe('TypeScript SDK, packed and installed, its suite against the server', function () {
  // Packing and installing, then a 429 waited out (up to a minute) within the suite.
  this.timeout(300_000);
  let app: CallsApp;
  /** Model answers held after their first word (a message saying "[hold]"), released at the end. */
  const held: (() => void)[] = [];
  /** The environment the suite and the examples get (surface.md's names, and the suite's own). */
  let env: Record<string, string>;
  before(async () => {
    app = await startCallsApp({ controllers: true });
    app.model.setDefault((request) => {
      const first = request.messages[0];
      if (first?.role === 'system' && first.content === SUMMARY_INSTRUCTION) return { content: SUMMARY };
      const hold = request.messages.some((m) => m.role === 'user' && typeof m.content === 'string' && m.content.includes('[hold]'));
      return hold ? { content: REPLY, holdAfterFirst: new Promise<void>((release) => held.push(release)) } : { content: REPLY };
    });
    const [company, limited] = await Promise.all([app.voiceCompany({ numbers: [NUMBER] }), app.voiceCompany({ requestsPerMinute: 1 })]);
    env = {
      SWITCHBOARD_URL: app.url,
      SWITCHBOARD_API_KEY: company.apiKey,
      AGENT_ID: company.agentId,
      SWITCHBOARD_WEBHOOK_SECRET: await webhookSecret(app.runtime.ctx, company.tenantId),
      SWITCHBOARD_ACCOUNT_ID: company.tenantId,
      SWITCHBOARD_LIMITED_API_KEY: limited.apiKey,
      SWITCHBOARD_TLS_DIR: TLS_DIR,
    };
  });
  after(async () => {
    for (const release of held) release();
    await app?.close();
  });

  it('passes: turns whole and streamed, a job, a call, a webhook, each error shape, retries', async () => {
    const project = await typescriptSdkProject();
    const files = readdirSync(SUITE)
      .filter((f) => f.endsWith('.test.ts'))
      .map((f) => join(SUITE, f));
    const result = await project.test(files, env);
    const output = `${result.stdout}${result.stderr}`;
    expect(result.code, output).to.equal(0);
    // TAP's closing counts: every test ran and passed.
    const count = (name: string) => Number(new RegExp(`^# ${name} (\\d+)$`, 'm').exec(result.stdout)?.[1]);
    expect(count('pass'), output).to.be.greaterThan(10);
    expect(count('pass'), output).to.equal(count('tests'));
  });

  it('runs every example of its README, type-checked against the installed package', async () => {
    const project = await typescriptSdkProject();
    const readme = readFileSync(join(SDK, 'README.md'), 'utf8');
    const examples = [...readme.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);
    expect(examples).to.have.length.greaterThan(4);
    const dir = join(project.dir, 'readme');
    mkdirSync(dir, { recursive: true });
    const outputs = await Promise.all(
      examples.map(async (code, i) => {
        const file = join(dir, `example-${i + 1}.ts`);
        writeFileSync(file, code);
        const result = await project.run(file, env);
        expect(result.code, `README example ${i + 1}:\n${code}\n${result.stdout}${result.stderr}`).to.equal(0);
        return result.stdout;
      }),
    );
    const printed = outputs.join('');
    expect(printed).to.include(`${REPLY}\n`);
    expect(printed).to.include(`succeeded ${REPLY}\n`);
    expect(printed).to.include(`completed ${SUMMARY}`);
    expect(printed).to.include('404 not_found');
    expect(printed, printed).to.include(`[ '${NUMBER}' ]`);
  });
});
