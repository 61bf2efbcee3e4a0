// The Python SDK (sdk/python): its generated code matches openapi/*.json, and its own suite (mypy
// --strict, then pytest) passes against a running Switchboard with the SDK installed from its wheel.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import type { ChatCompletionCreateParams } from 'openai/resources/chat/completions';
import { SUMMARY_INSTRUCTION } from '../../pkg/agent/summary.js';
import { webhookSecret } from '../../pkg/webhooks/secret.js';
import { NUMBERS, SCENARIOS, startCallsApp, SUMMARY, type CallsApp } from '../support/calls.js';
import { TLS_DIR } from '../support/https.js';
import { callIn, jobIn } from '../support/model.js';
import { GENERATED_DIR, generatePythonSdk, testPythonSdk, treeOf, typeCheckPythonSdk } from '../support/sdk-python.js';

/** The stand-in model's answers the suite checks: a chat turn echoes, a job says its task done. */
function reply(request: ChatCompletionCreateParams): { content: string } {
  const first = request.messages[0];
  if (first?.role === 'system' && first.content === SUMMARY_INSTRUCTION) return { content: SUMMARY };
  if (callIn(request)) return { content: 'Goodbye.' };
  const job = jobIn(request);
  if (job) return { content: `Done: ${job.task}` };
  const said = request.messages.filter((m) => m.role === 'user').at(-1)?.content;
  return { content: `You said: ${typeof said === 'string' ? said : ''}` };
}

describe('Python SDK', function () {
  // The first run makes the venv (pip install from PyPI); the 429 test waits out a real minute's limit.
  this.timeout(600_000);

  it('its checked-in generated code is what the generator makes from openapi/*.json', async () => {
    const out = mkdtempSync(join(tmpdir(), 'switchboard-sdk-py-check-'));
    try {
      await generatePythonSdk(join(out, '_generated'));
      const made = treeOf(join(out, '_generated'));
      const checkedIn = treeOf(GENERATED_DIR);
      const differ = [...new Set([...made.keys(), ...checkedIn.keys()])].filter((f) => made.get(f) !== checkedIn.get(f)).sort();
      expect(differ, 'sdk/python/switchboard/_generated is out of date: run `make sdk-python`').to.deep.equal([]);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });

  describe('against a running Switchboard', () => {
    let app: CallsApp;
    let env: Record<string, string>;
    before(async () => {
      app = await startCallsApp({ controllers: true });
      app.model.setDefault(reply);
      const company = await app.voiceCompany();
      const limited = await app.voiceCompany({ requestsPerMinute: 2 });
      env = {
        SWITCHBOARD_URL: app.url,
        SWITCHBOARD_API_KEY: company.apiKey,
        AGENT_ID: company.agentId,
        SWITCHBOARD_ACCOUNT_ID: company.tenantId,
        SWITCHBOARD_WEBHOOK_SECRET: await webhookSecret(app.runtime.ctx, company.tenantId),
        SWITCHBOARD_LIMITED_API_KEY: limited.apiKey,
        SWITCHBOARD_SIM_NUMBER: NUMBERS.answer,
        SWITCHBOARD_SIM_FIRST_LINE: SCENARIOS.numbers[NUMBERS.answer]!.lines[0]!,
        SWITCHBOARD_SIM_LIVE_NUMBER: NUMBERS.stays,
        SWITCHBOARD_TLS_CERT: join(TLS_DIR, 'cert.pem'),
        SWITCHBOARD_TLS_KEY: join(TLS_DIR, 'key.pem'),
      };
    });
    after(async () => app?.close());

    it('type-checks with mypy --strict (the hand-written package and the tests)', async () => {
      const { code, stdout, stderr } = await typeCheckPythonSdk();
      expect(code, `${stdout}${stderr}`).to.equal(0);
    });

    it('passes its pytest suite with the SDK installed from its wheel', async () => {
      const { code, stdout, stderr } = await testPythonSdk(env);
      expect(code, `${stdout}${stderr}`).to.equal(0);
    });
  });
});
