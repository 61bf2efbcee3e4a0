// Every code sample of docs/**/*.md, run against a running Switchboard (the rule is also in
// docs/contributing.md, for the pages' writers):
// - A sample is a fenced block (``` or ~~~, any indent); its language is the info string's first word.
// - `<!-- not run: <why> -->` on the line before the fence exempts it (helm, kubectl, make, a
//   response shown as JSON, a file's contents).
// - sh, bash, shell with a `curl` in it: run by bash with -euo pipefail.
// - ts, typescript: type-checked and run in a project with @switchboard/sdk installed from its package.
// - python, py: run in a virtualenv with switchboard-sdk installed from its wheel.
// - Any other block without the comment, or a shell block without curl, fails: nothing goes unchecked.
// A sample fails when it exits non-zero, writes to stderr, or prints an error body (`"error":`).
// Each gets SWITCHBOARD_URL, SWITCHBOARD_API_KEY, AGENT_ID and SWITCHBOARD_WEBHOOK_SECRET, of an
// account with the voice features and the number +12025550100, its calls on the simulated network.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { expect } from 'chai';
import { webhookSecret } from '../../pkg/webhooks/secret.js';
import { startCallsApp, type CallsApp } from '../support/calls.js';
import { runCommand } from '../support/commands.js';
import { ROOT } from '../support/root.js';
import { pythonWithSdk } from '../support/sdk-python.js';
import { typescriptSdkProject } from '../support/sdk-typescript.js';

const DOCS = join(ROOT, 'docs');
const NOT_RUN = /^<!--\s*not run:\s*\S.*-->$/;
const RUNNERS = {
  sh: 'bash',
  bash: 'bash',
  shell: 'bash',
  ts: 'typescript',
  typescript: 'typescript',
  python: 'python',
  py: 'python',
} as const;

interface Sample {
  /** docs/<file>:<line of the opening fence> */
  name: string;
  language: string;
  code: string;
  exempt: boolean;
}

function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.md') && !file.split('/').some((part) => part.startsWith('.')))
    .sort()
    .map((file) => join(dir, file));
}

/** The fenced blocks of a Markdown file: a fence closes on the same character, at least as long. */
function samplesOf(file: string): Sample[] {
  const lines = readFileSync(file, 'utf8').split('\n');
  const samples: Sample[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)(`{3,}|~{3,})\s*([^\s`{[]*)/.exec(lines[i]!);
    if (!open) continue;
    const [, indent, fence, language] = open as unknown as [string, string, string, string];
    const close = new RegExp(`^\\s*${fence[0]}{${fence.length},}\\s*$`);
    let end = i + 1;
    while (end < lines.length && !close.test(lines[end]!)) end++;
    const before = lines
      .slice(0, i)
      .reverse()
      .find((line) => line.trim() !== '');
    samples.push({
      name: `${relative(ROOT, file)}:${i + 1}`,
      language: language.toLowerCase(),
      code: `${lines
        .slice(i + 1, end)
        .map((line) => (line.startsWith(indent) ? line.slice(indent.length) : line))
        .join('\n')}\n`,
      exempt: NOT_RUN.test(before?.trim() ?? ''),
    });
    i = end;
  }
  return samples;
}

const samples = markdownFiles(DOCS).flatMap(samplesOf);

describe('the code samples of docs/ (run against the server)', function () {
  // A call's result is waited for up to 30 s; the SDKs are packed and installed once, on first need.
  this.timeout(180_000);
  let app: CallsApp;
  let env: Record<string, string>;
  let scratch: string;
  before(async () => {
    app = await startCallsApp({ controllers: true });
    const company = await app.voiceCompany({ numbers: ['+12025550100'] });
    env = {
      SWITCHBOARD_URL: app.url,
      SWITCHBOARD_API_KEY: company.apiKey,
      AGENT_ID: company.agentId,
      SWITCHBOARD_WEBHOOK_SECRET: await webhookSecret(app.runtime.ctx, company.tenantId),
    };
    scratch = mkdtempSync(join(tmpdir(), 'switchboard-doc-samples-'));
  });
  after(async () => {
    await app?.close();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  it('finds samples of each kind to run', () => {
    const run = samples.filter((s) => !s.exempt).map((s) => RUNNERS[s.language as keyof typeof RUNNERS]);
    expect(new Set(run)).to.include.all.keys('bash', 'typescript', 'python');
  });

  for (const sample of samples.filter((s) => !s.exempt)) {
    it(sample.name, async () => {
      const runner = RUNNERS[sample.language as keyof typeof RUNNERS];
      expect(runner, `${sample.name}: a \`${sample.language || 'plain'}\` block is not run: mark it <!-- not run: why -->`).to.not.equal(
        undefined,
      );
      const file = join(scratch, `${sample.name.replace(/[^\w]+/g, '_')}.${{ bash: 'sh', typescript: 'ts', python: 'py' }[runner]}`);
      writeFileSync(file, sample.code);
      let result: { code: number; stdout: string; stderr: string };
      if (runner === 'bash') {
        expect(
          /\bcurl\b/.test(sample.code),
          `${sample.name}: a shell block without curl is not run: mark it <!-- not run: why -->`,
        ).to.equal(true);
        result = await runCommand('bash', ['-euo', 'pipefail', file], {
          env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
        });
      } else if (runner === 'typescript') {
        result = await (await typescriptSdkProject()).run(file, env);
      } else {
        result = await (await pythonWithSdk()).run(file, env);
      }
      const output = `exit ${result.code}\n--- stdout\n${result.stdout}\n--- stderr\n${result.stderr}`;
      expect(result.code, output).to.equal(0);
      expect(result.stderr, output).to.equal('');
      expect(result.stdout, output).not.to.match(/"error"\s*:/);
    });
  }
});
