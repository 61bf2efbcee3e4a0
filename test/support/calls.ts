// Call test helpers: an app on a database of its own with the simulated network on a fast test
// table, companies with the voice features, agent replies scripted per call (by the call's task),
// and waiting for a call's status or final result through the API.
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import type { ChatCompletionCreateParams } from 'openai/resources/chat/completions';
import { SUMMARY_INSTRUCTION } from '../../pkg/agent/summary.js';
import { agentRef } from '../../pkg/ids.js';
import { updateTenant, type TenantSettings } from '../../pkg/tenants/settings.js';
import type { ScenarioTable } from '../../pkg/voice/gateways/sim.js';
import { TEST_ENCRYPTION_KEY, type Client, type TestApp } from './app.js';
import { eventually } from './eventually.js';
import type { ScriptedReply } from './model.js';
import { startProcess, type SwitchboardProcess } from './processes.js';
import { startJobsApp } from './triggers.js';

/** The test network: every scenario of the simulator, ringing for milliseconds. */
export const NUMBERS = {
  answer: '+12025550110',
  busy: '+12025550111',
  noAnswer: '+12025550112',
  voicemail: '+12025550113',
  fail: '+12025550114',
  /** Rings for a minute: a call that stays ringing until hung up. */
  longRing: '+12025550115',
  /** Answers and says nothing more after its first line: a call that stays on the line. */
  stays: '+12025550116',
} as const;

export const SCENARIOS: ScenarioTable = {
  default: { scenario: 'answer', ring_ms: 5, reply_ms: 0, lines: ['Hello?', 'Okay.', 'Bye.'] },
  numbers: {
    [NUMBERS.answer]: { scenario: 'answer', ring_ms: 5, reply_ms: 0, lines: ['Hello, this is Ann.', 'My budget is 500 dollars.', 'Bye.'] },
    [NUMBERS.busy]: { scenario: 'busy', ring_ms: 5, reply_ms: 0, lines: [] },
    [NUMBERS.noAnswer]: { scenario: 'no-answer', ring_ms: 20, reply_ms: 0, lines: [] },
    [NUMBERS.voicemail]: { scenario: 'voicemail', ring_ms: 5, reply_ms: 0, lines: [] },
    [NUMBERS.fail]: { scenario: 'fail', ring_ms: 5, reply_ms: 0, lines: [] },
    [NUMBERS.longRing]: { scenario: 'no-answer', ring_ms: 60_000, reply_ms: 0, lines: [] },
    // A callee who answers each thing said after a minute: the line stays open meanwhile.
    [NUMBERS.stays]: { scenario: 'answer', ring_ms: 5, reply_ms: 60_000, lines: ['Hello?', 'Still here.'] },
  },
};

/** The test network as a file, for SWITCHBOARD_SIM_SCENARIOS. */
export function scenarioFile(): string {
  const path = join(tmpdir(), `switchboard-sim-${process.pid}.json`);
  writeFileSync(path, JSON.stringify(SCENARIOS));
  return path;
}

/**
 * `switchboard controllers` replicas as child processes on the app's database and model, on the test
 * network, whose leases run out 2 s after one dies; `killAll` ends those still running.
 */
export function callsReplicas(app: () => TestApp) {
  const started: SwitchboardProcess[] = [];
  return {
    async start(): Promise<SwitchboardProcess> {
      const env = {
        DATABASE_URL: app().runtime.ctx.config.DATABASE_URL!,
        OPENAI_BASE_URL: app().model.url,
        SWITCHBOARD_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
        SWITCHBOARD_OUTBOUND_ALLOW: '127.0.0.1/32',
        SWITCHBOARD_SIM_SCENARIOS: scenarioFile(),
        SWITCHBOARD_LEASE_SEC: '2',
      };
      const replica = await startProcess('controllers', env, 'controllers started');
      started.push(replica);
      return replica;
    },
    async killAll(): Promise<void> {
      for (const replica of started.splice(0)) await replica.kill();
    },
  };
}

export interface CallsApp extends TestApp {
  /** Replies of the agent on the call whose task is `task` (an inbound call: whose caller is `task`), one per model request, in order. */
  script(task: string, ...replies: ScriptedReply[]): void;
  /** A company with the voice_api feature (and any other settings), owning `numbers` (the first its default). */
  voiceCompany(settings?: TenantSettings & { numbers?: string[] }): ReturnType<TestApp['company']>;
  /** A voice company owning `number` routed with `routing` (a function of its agent's agt_ id; null: no routing). */
  routedCompany(
    number: string,
    routing: ((agent: string) => object) | null,
    settings?: TenantSettings,
  ): Promise<Awaited<ReturnType<TestApp['company']>> & { number: string; agent: string }>;
}

/** The call's task, or for an inbound call its caller's number: what its script is kept under. */
const taskOf = (request: ChatCompletionCreateParams): string | null => {
  for (const m of request.messages) {
    if (m.role !== 'system' || typeof m.content !== 'string' || !m.content.startsWith('PHONE CALL')) continue;
    const found = /^Task: (.*)$/m.exec(m.content) ?? /^PHONE CALL \S+: (\+\d+) called the company/.exec(m.content);
    if (found) return found[1]!;
  }
  return null;
};

export const SUMMARY = 'The agent talked to the person.';

export async function startCallsApp(opts: Parameters<typeof startJobsApp>[0] = {}): Promise<CallsApp> {
  const app = await startJobsApp({ ...opts, env: { SWITCHBOARD_SIM_SCENARIOS: scenarioFile(), ...opts.env } });
  const scripts = new Map<string, ScriptedReply[]>();
  app.model.setDefault((request) => {
    const first = request.messages[0];
    if (first?.role === 'system' && first.content === SUMMARY_INSTRUCTION) return { content: SUMMARY };
    const task = taskOf(request);
    const next = (task !== null ? scripts.get(task)?.shift() : undefined) ?? { content: 'Goodbye.' };
    return typeof next === 'function' ? next(request) : next;
  });
  const voiceCompany: CallsApp['voiceCompany'] = async ({ numbers, ...settings } = {}) => {
    const company = await app.company({ numbers });
    await updateTenant(app.runtime.ctx, company.tenantId, { features: ['voice_api'], ...settings });
    return company;
  };
  return {
    ...app,
    script(task, ...replies) {
      scripts.set(task, replies);
    },
    voiceCompany,
    async routedCompany(number, routing, settings = {}) {
      const company = await voiceCompany({ numbers: [number], ...settings });
      const agent = agentRef(company.agentId);
      if (routing) {
        const res = await company.client.patch(`/v1/numbers/${encodeURIComponent(number)}`, { routing: routing(agent) });
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
      }
      return { ...company, number, agent };
    },
  };
}

/** Long-poll the result until it is final (bounded). */
export async function finalResult(client: Client, callId: string, polls = 30): Promise<any> {
  let res = await client.get(`/v1/calls/${callId}/result`);
  for (let i = 0; i < polls && res.status === 200 && !res.body.final; i++) res = await client.get(`/v1/calls/${callId}/result?wait=2`);
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  expect(res.body.final, `call ${callId} never became final: ${JSON.stringify(res.body)}`).to.equal(true);
  return res.body;
}

/** The call record once its status is `status`. */
export async function callStatus(client: Client, callId: string, status: string): Promise<any> {
  let record: any;
  await eventually(`call ${callId} reaching ${status}`, async () => {
    record = (await client.get(`/v1/calls/${callId}`)).body;
    return record.status === status;
  });
  return record;
}

/** The outbox rows of a call (events and call.result), in the order written. */
export async function outboxOf(
  app: TestApp,
  callId: string,
): Promise<{ seq: string; type: string; target: string; url: string; max_attempts: number; payload: any }[]> {
  return app.runtime.ctx.db('webhook_outbox').where({ ordering_key: callId }).orderBy('seq');
}
