// `make bench`, campaigns: one run of a 1,000-person campaign against a loopback HTTPS customer
// system, the simulator answering every call (it rings, the person speaks two lines, the agent
// answers through the model stand-in, the person hangs up). Measured on the real clock:
// - time to the first dial: the run started over the API, its list requested, pulled, validated
//   and stored, and its first call written;
// - dials started per second from the first dial to the last, and the most calls of the run on
//   the line at once, which the caps (the campaign's concurrency, the account's simultaneous-call
//   cap) must bound.
// Writes test/bench/results/campaigns.{json,md} and prints the table.
import { writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { updateTenant } from '../../pkg/tenants/settings.js';
import type { ScenarioTable } from '../../pkg/voice/gateways/sim.js';
import { webhookSecret } from '../../pkg/webhooks/secret.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { campaignOn, noonZone, startCustomerSystem } from '../support/campaigns.js';
import { createScratchDatabase } from '../support/database.js';
import { machineInfo } from './machine.js';
import { writeResults } from './results.js';
import { peakOverlap } from './stats.js';

const PEOPLE = 1000;
const CAMPAIGN_CONCURRENCY = 100;
/** The account's simultaneous-call cap, below the campaign's concurrency: the cap that binds. */
const ACCOUNT_CAP = 50;
const RUN_TIMEOUT_SECONDS = 600;
/** Every number answers after half a second and says two lines, each a fifth of a second after the agent. */
const NETWORK: ScenarioTable = {
  default: { scenario: 'answer', ring_ms: 500, reply_ms: 200, lines: ['Hello?', 'No thanks, bye.'] },
  numbers: {},
};
const AREA_CODES = ['206', '212', '213', '305', '312', '415', '617', '646', '718', '917'];

/** 1,000 distinct numbers of the fictional 555-01XX range, none the caller id (+1 202 555 0100). */
const people = () =>
  Array.from({ length: PEOPLE }, (_, i) => ({
    contact_id: `p${i}`,
    name: `Person ${i}`,
    phone: `+1${AREA_CODES[Math.floor(i / 100)]}55501${String(i % 100).padStart(2, '0')}`,
    context: { plan: i % 2 ? 'silver' : 'gold' },
  }));

async function measure(app: TestApp) {
  const { client, tenantId } = await app.company({ credits: 1e9 });
  await updateTenant(app.runtime.ctx, tenantId, { features: ['voice_api', 'campaigns', 'ai_agents'], maxConcurrentCalls: ACCOUNT_CAP });
  const system = await startCustomerSystem(await webhookSecret(app.runtime.ctx, tenantId));
  try {
    const campaign = await campaignOn(client, system, { timezone: noonZone(), concurrency: CAMPAIGN_CONCURRENCY, max_attempts: 1 });
    system.lists.push({ status: 200, body: { contacts: people() } });
    const started = Date.now();
    const created = await client.post(`/v1/campaigns/${campaign.id}/runs`, {});
    if (created.status !== 202) throw new Error(`POST runs answered ${created.status}: ${JSON.stringify(created.body)}`);
    const runId = created.body.id as string;
    const { db } = app.runtime.ctx;
    const deadline = started + RUN_TIMEOUT_SECONDS * 1000;
    for (;;) {
      const run = (await client.get(`/v1/campaign-runs/${runId}`)).body;
      if (run.status !== 'running') break;
      if (Date.now() > deadline)
        throw new Error(`the run was still running after ${RUN_TIMEOUT_SECONDS} s: ${JSON.stringify(run.contacts)}`);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    const run = (await client.get(`/v1/campaign-runs/${runId}`)).body;
    const row = await db('campaign_runs').where({ id: runId }).first();
    const calls: { created_at: Date; ended_at: Date }[] = await db('calls')
      .whereRaw(`campaign->>'run_id' = ?`, [runId])
      .orderBy('created_at')
      .select('created_at', 'ended_at');
    const first = calls[0]!.created_at.getTime();
    const last = calls.at(-1)!.created_at.getTime();
    const ms = (a: Date, b: Date | number) => (typeof b === 'number' ? b : b.getTime()) - a.getTime();
    return {
      people: PEOPLE,
      status: run.status,
      contacts: run.contacts,
      calls: calls.length,
      firstDial: {
        ms: first - started,
        listRequestMs: ms(new Date(started), row.list_requested_at),
        listPulledAndStoredMs: ms(row.list_requested_at, row.listed_at),
        scheduledToFirstDialMs: ms(row.listed_at, first),
      },
      dials: {
        seconds: Math.round((last - first) / 10) / 100,
        perSecond: Math.round(((calls.length - 1) / ((last - first) / 1000)) * 10) / 10,
        peakOnTheLine: peakOverlap(calls.map((c) => ({ start: c.created_at.getTime(), end: c.ended_at.getTime() }))),
      },
      runSeconds: Math.round(ms(new Date(started), row.ended_at) / 10) / 100,
      caps: { campaignConcurrency: CAMPAIGN_CONCURRENCY, accountCap: ACCOUNT_CAP },
    };
  } finally {
    await system.close();
  }
}

function markdown(r: Awaited<ReturnType<typeof benchmark>>): string {
  const { campaign: c } = r;
  return `# Campaigns benchmark

${r.date} · ${r.machine.cpus} × ${r.machine.cpuModel} · ${r.machine.os} · Node ${r.machine.node} · Postgres: ${r.database}
· load average ${r.machine.loadAverage1m.before.toFixed(2)} before, ${r.machine.loadAverage1m.after.toFixed(2)} after

One run of a ${c.people}-person campaign (one attempt each) on the real clock: the list pulled from a loopback HTTPS
customer system, every number answered by the simulator after ${NETWORK.default.ring_ms} ms, two lines spoken, the agent
answering through the model stand-in. Campaign concurrency ${c.caps.campaignConcurrency}, the account's simultaneous-call cap ${c.caps.accountCap}.

| | |
|---|---|
| Run started → first dial | **${c.firstDial.ms} ms** |
| · started → list requested | ${c.firstDial.listRequestMs} ms |
| · list pulled, validated and stored | ${c.firstDial.listPulledAndStoredMs} ms |
| · stored → first call written | ${c.firstDial.scheduledToFirstDialMs} ms |
| Dials started per second (first to last dial, ${c.calls} calls in ${c.dials.seconds} s) | **${c.dials.perSecond}** |
| Most calls of the run on the line at once | **${c.dials.peakOnTheLine}** (caps: ${Math.min(c.caps.campaignConcurrency, c.caps.accountCap)}) |
| Run ${c.status} after | ${c.runSeconds} s (done ${c.contacts.done}, no answer ${c.contacts.no_answer}, skipped ${c.contacts.skipped}) |

Within the caps: **${r.target.result}** (every person dialled once, never more than ${r.target.cap} on the line).
`;
}

async function benchmark() {
  const loadBefore = loadavg()[0]!;
  const database = await createScratchDatabase();
  const scenarios = join(tmpdir(), `switchboard-bench-campaigns-${process.pid}.json`);
  writeFileSync(scenarios, JSON.stringify(NETWORK));
  let app: TestApp | undefined;
  try {
    app = await startTestApp({
      databaseUrl: database.url,
      controllers: true,
      env: { SWITCHBOARD_SIM_SCENARIOS: scenarios, SWITCHBOARD_DB_POOL_MAX: '20' },
    });
    const campaign = await measure(app);
    const cap = Math.min(CAMPAIGN_CONCURRENCY, ACCOUNT_CAP);
    const pass = campaign.calls === PEOPLE && campaign.dials.peakOnTheLine <= cap && campaign.status === 'done';
    return {
      date: new Date().toISOString(),
      machine: machineInfo(loadBefore),
      database: database.server,
      campaign,
      target: { cap, result: pass ? 'PASS' : 'FAIL' },
    };
  } finally {
    await app?.close();
    await database.drop();
  }
}

const result = await benchmark();
writeResults('campaigns', result, markdown(result));
