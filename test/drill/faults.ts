// `make drill`'s fault drills: each scenario on its own database of a Postgres of the drill's own,
// two API and two controller replicas as processes of the built app, under steady load, faults
// injected, and what was lost, run twice or stuck counted in Postgres; one section each in
// test/drill/results.md. Fails when a count that must be 0 is not.
import { existsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { writeSection } from './results.js';
import { limitFallbacks, liveLeases } from '../support/private-servers.js';
import { startReceiver, type Receiver } from '../support/webhooks.js';
import { startHttpsServer } from '../support/https.js';
import { noonZone, SIGN_IN, startCustomerSystem } from '../support/campaigns.js';
import { stats } from '../bench/stats.js';
import type { ScenarioTable } from '../../pkg/voice/gateways/sim.js';
import type { TenantSettings } from '../../pkg/tenants/settings.js';
import type { ModelReply } from '../../pkg/agent/openai-server.js';
import { callIn, jobIn } from '../support/model.js';
import { agentRef } from '../../pkg/ids.js';
import {
  makeCompany,
  startPrivatePostgres,
  startPrivateRedis,
  startWorld,
  type PrivatePostgres,
  type PrivateRedis,
  type Replica,
  type World,
} from './cluster.js';
import { ask, countJobs, HANG_MS, openJobs, sleep, steady, tally, until, type Answer, type JobCount } from './load.js';
import { missingLines, placementsByCall, talker, type RelayTalk } from './relay-calls.js';
import { consoleUser, type ConsoleRead, type ConsoleSession } from './console-sessions.js';
import { carrierSettings, startTwilio, type TwilioStandIn } from '../support/carrier/twilio.js';
import { startTlsFront } from '../support/tls-front.js';

const RESULTS = fileURLToPath(new URL('../../../test/drill/results.md', import.meta.url));
// Every job must be final this long after the load stopped (leases are 2 s).
const SETTLE_MS = 60_000;

const failures: string[] = [];
const must = (what: string, n: number) => {
  if (n !== 0) failures.push(`${what}: ${n}`);
  return n;
};

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const range = (ms: number[]) => (ms.length ? `${seconds(Math.min(...ms))} – ${seconds(Math.max(...ms))}` : 'n/a');

/** Counts model requests per job: a job's first run and any run after it. */
function countRuns(world: World, replyMs: number): Map<string, number> {
  const runs = new Map<string, number>();
  world.model.setDefault((request) => {
    const job = jobIn(request);
    if (job) runs.set(job.id, (runs.get(job.id) ?? 0) + 1);
    return { content: 'Done.', delayMs: replyMs };
  });
  return runs;
}

/** Creates a job through one of the API replicas (round robin), retrying the same idempotency key until it is acknowledged. */
function jobMaker(world: World, answers: Answer[], acknowledged: string[]) {
  let next = 0;
  return async (i: number) => {
    const key = `drill-${i}`;
    const until = Date.now() + 45_000;
    while (Date.now() < until) {
      const api = world.deployment.api[next++ % world.deployment.api.length]!;
      const a = await ask(api.url!, world.company.apiKey, 'POST', '/api/v1/triggers', {
        agentId: world.company.agentId,
        task: `Job ${i}`,
        idempotencyKey: key,
      });
      answers.push(a);
      if (a.status === 202 || a.status === 200) return void acknowledged.push(a.body.triggerId);
      await sleep(a.status === 503 ? Number(a.retryAfter ?? 1) * 500 : 500);
    }
  };
}

/** `failedWhy`: why a failed run is allowed in this drill (else every failure but an interruption counts against it). */
function jobRows(c: JobCount, label: string, failedWhy?: string): string[] {
  return [
    `| ${label}: jobs acknowledged | ${c.acknowledged} |`,
    `| Jobs lost (acknowledged, no row) | ${must('jobs lost', c.lost)} |`,
    `| Jobs stuck (not final ${SETTLE_MS / 1000} s after the load) | ${must('jobs stuck', c.stuck)} |`,
    `| Jobs run twice (attempts > 1 or the model asked twice) | ${must('jobs run twice', c.runTwice)} |`,
    `| Duplicate jobs from retried writes (rows of one idempotency key beyond the first) | ${must('duplicate idempotency keys', c.duplicateKeys)} |`,
    `| Jobs succeeded | ${c.succeeded} |`,
    `| Jobs failed as interrupted (their replica died mid-run: failed once, never run again, per the state table) | ${c.interrupted} |`,
    `| Jobs failed otherwise${failedWhy ? ` (${failedWhy})` : ''} | ${failedWhy ? c.failedOther : must('jobs failed otherwise', c.failedOther)}${c.otherErrors.length ? ` (${c.otherErrors.map((e) => `"${e}"`).join(', ')})` : ''} |`,
  ];
}

async function dbQuery<T extends pg.QueryResultRow>(url: string, sql: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql, params)).rows;
  } finally {
    await client.end();
  }
}

/** The controller replica holding a running job's lease, and the jobs it holds. */
async function busyController(world: World): Promise<{ replica: Replica; jobs: string[] } | null> {
  const rows = await dbQuery<{ id: string; lease_owner: string }>(
    world.databaseUrl,
    `select id, lease_owner from triggers where status = 'running' and lease_owner is not null`,
  );
  for (const replica of world.deployment.controllers) {
    const jobs = rows.filter((r) => Number(r.lease_owner.split(':').at(-2)) === replica.process.pid).map((r) => r.id);
    if (jobs.length) return { replica, jobs };
  }
  return null;
}

async function allFinal(databaseUrl: string, ids: string[]): Promise<boolean> {
  const rows = await dbQuery<{ n: string }>(
    databaseUrl,
    `select count(*) as n from triggers where id = any($1) and status in ('succeeded', 'failed', 'expired', 'cancelled')`,
    [ids],
  );
  return Number(rows[0]!.n) === ids.length;
}

async function controllerKills(server: PrivatePostgres): Promise<void> {
  const world = await startWorld({ serverUrl: server.url, name: 'drill_controllers', env: { SWITCHBOARD_CONTROLLER_CONCURRENCY: '4' } });
  const LOAD_MS = 30_000;
  const RATE = 5;
  try {
    const runs = countRuns(world, 500);
    const answers: Answer[] = [];
    const acknowledged: string[] = [];
    const kills: { at: number; jobs: string[]; recoveredMs?: number }[] = [];
    const recoveries: Promise<void>[] = [];
    const started = Date.now();
    const load = steady(RATE, LOAD_MS, 40, jobMaker(world, answers, acknowledged));
    // kill -9 every 4 s of a replica holding a running job's lease; a new one is started in its place.
    while (Date.now() - started < LOAD_MS - 4_000) {
      await sleep(4_000);
      const busy = await busyController(world);
      if (!busy) continue;
      const kill = { at: Date.now(), jobs: busy.jobs } as (typeof kills)[number];
      kills.push(kill);
      await world.deployment.replace(busy.replica);
      recoveries.push(
        until(() => allFinal(world.databaseUrl, kill.jobs), SETTLE_MS, 100).then((ok) => {
          if (ok) kill.recoveredMs = Date.now() - kill.at;
        }),
      );
    }
    const fired = await load;
    const loadMs = Date.now() - started;
    await until(async () => (await openJobs(world.databaseUrl)) === 0, SETTLE_MS);
    await Promise.all(recoveries);
    const count = await countJobs(world.databaseUrl, acknowledged, runs);
    const recovered = kills.filter((k) => k.recoveredMs !== undefined).map((k) => k.recoveredMs!);
    const bad = answers.filter((a) => a.status !== 202 && a.status !== 200).length;
    writeSection(
      RESULTS,
      'faults-controllers',
      [
        '## `kill -9` of a controller replica, repeatedly, mid-job',
        '',
        `Run ${new Date().toISOString()}: 2 API and 2 controller replicas (leases 2 s, 4 jobs a replica at once), a model answering each job in 0.5 s; ` +
          `jobs created at ${RATE}/s for ${seconds(loadMs)} (${fired.fired} asked, ${fired.skipped} ticks skipped at the in-flight bound), ` +
          `${(answers.length / (loadMs / 1000)).toFixed(1)} requests/s. Every 4 s the replica holding a running job's lease was killed with SIGKILL and a new one started.`,
        '',
        '| Must hold | Figure |',
        '|---|---|',
        `| Faults injected: \`kill -9\` of a controller replica mid-job | ${kills.length} (${kills.reduce((n, k) => n + k.jobs.length, 0)} jobs running on them) |`,
        ...jobRows(count, 'Load'),
        `| Job creations not acknowledged (API answers other than 202) | ${must('job creations refused', bad)} |`,
        `| Kills whose jobs were not final within ${SETTLE_MS / 1000} s | ${must('kills not recovered', kills.length - recovered.length)} |`,
        `| Recovery (kill → every job the killed replica held final) | ${range(recovered)} |`,
        '',
      ].join('\n'),
    );
    console.log(`faults: controllers: ${kills.length} kills, ${JSON.stringify(count)}`);
  } finally {
    await world.close();
  }
}

/** The company's number: the calls rung in ring it, the calls placed come from it. */
const NUMBER = '+12025550100';

/** The drill's callees: each answers after 300 ms and says these lines, each 800 ms after the agent's reply. */
const CALLEE_LINES = ['Hello?', 'Yes, go on.', 'I see.', 'And then?', 'Right.', 'Okay.', 'Thanks, bye.'];

function calleeNetwork(lines = CALLEE_LINES): string {
  const table: ScenarioTable = { default: { scenario: 'answer', ring_ms: 300, reply_ms: 800, lines }, numbers: {} };
  const path = join(tmpdir(), `switchboard-drill-calls-${process.pid}.json`);
  writeFileSync(path, JSON.stringify(table));
  return path;
}

/** `items` by `keyOf`, in their order (Map.groupBy, which Node 20 lacks). */
function groupBy<T>(items: T[], keyOf: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) groups.set(keyOf(item), [...(groups.get(keyOf(item)) ?? []), item]);
  return groups;
}

const LIVE_CALL = `status in ('queued', 'ringing', 'in-progress')`;

/** Every call of the world final, and none of its events still to be sent. */
const callsSettled = (world: World) => async () =>
  (await dbQuery(world.databaseUrl, `select id from calls where not final`)).length === 0 &&
  (await dbQuery(world.databaseUrl, `select id from webhook_outbox where status = 'pending'`)).length === 0;

/** The controller replica holding the most live calls, with those calls and the deliveries it has in flight. */
async function busiestCallController(world: World): Promise<{ replica: Replica; calls: string[]; deliveries: number } | null> {
  const calls = await dbQuery<{ id: string; lease_owner: string }>(
    world.databaseUrl,
    `select id, lease_owner from calls where ${LIVE_CALL} and lease_owner is not null`,
  );
  const deliveries = await dbQuery<{ lease_owner: string }>(
    world.databaseUrl,
    `select lease_owner from webhook_outbox where status = 'pending' and lease_owner is not null`,
  );
  const ownedBy = (owner: string, replica: Replica) => Number(owner.split(':').at(-2)) === replica.process.pid;
  const held = world.deployment.controllers.map((replica) => ({
    replica,
    calls: calls.filter((c) => ownedBy(c.lease_owner, replica)).map((c) => c.id),
    deliveries: deliveries.filter((d) => ownedBy(d.lease_owner, replica)).length,
  }));
  const busiest = held.sort((a, b) => b.calls.length - a.calls.length)[0];
  return busiest?.calls.length ? busiest : null;
}

/** The number call `i` of a drill dials. */
const calleeNumber = (i: number) => `+1202555${String(1000 + i)}`;

/** Places call `i` for the company of `apiKey` through the API replicas in turn, retrying its Idempotency-Key until acknowledged. */
function callPlacer(world: World, apiKey: string, callbackUrl: string | null, answers: Answer[], placed: string[]) {
  let next = 0;
  return async (i: number) => {
    const end = Date.now() + 45_000;
    while (Date.now() < end) {
      const api = world.deployment.api[next++ % world.deployment.api.length]!;
      const body = { to: calleeNumber(i), task: `Drill call ${i}`, ...(callbackUrl && { callback_url: callbackUrl }) };
      const a = await ask(api.url!, apiKey, 'POST', '/v1/calls', body, HANG_MS, { 'idempotency-key': `drill-call-${i}` });
      answers.push(a);
      if (a.status === 201 || a.status === 200) return void placed.push(a.body.id);
      await sleep(Number(a.retryAfter ?? 1) * 1000);
    }
  };
}

/** Counts the agent's turns on each call's first callee line into `greeted`: a call dialled or answered twice is heard twice. */
function countGreeting(greeted: Map<string, number>, request: Parameters<typeof callIn>[0]): void {
  const call = callIn(request);
  const last = request.messages.at(-1);
  if (call && last?.role === 'user' && last.content === CALLEE_LINES[0]) greeted.set(call, (greeted.get(call) ?? 0) + 1);
}

interface CallEnd {
  id: string;
  direction: string;
  status: string;
  hangup_cause: string | null;
  final: boolean;
}

const endOf = (r: Pick<CallEnd, 'status' | 'hangup_cause'>) => `${r.status}${r.hangup_cause ? ` (${r.hangup_cause})` : ''}`;

/** `items` counted by `keyOf`, as `key×n, …`. */
function countedBy<T>(items: T[], keyOf: (item: T) => string): string {
  return [...groupBy(items, keyOf)].map(([k, v]) => `${k}×${v.length}`).join(', ') || 'none';
}

/** Calls counted by how they ended, as `completed (callee_hangup)×n, …`. */
const byEnd = (calls: Pick<CallEnd, 'status' | 'hangup_cause'>[]) => countedBy(calls, endOf);

/** The must-hold rows of the calls acknowledged (`ids`): none lost, stuck or dialled twice (`greeted`, as countGreeting counts), and how they ended. */
async function callRows(world: World, ids: string[], greeted: Map<string, number>): Promise<{ rows: string[]; calls: CallEnd[] }> {
  const calls = await dbQuery<CallEnd>(
    world.databaseUrl,
    'select id, direction, status, hangup_cause, final from calls where id = any($1)',
    [ids],
  );
  const dialledTwice = [...greeted.values()].filter((n) => n > 1).length;
  return {
    calls,
    rows: [
      `| Calls lost (acknowledged, no row) | ${must('calls lost', ids.length - calls.length)} |`,
      `| Calls stuck (not final ${SETTLE_MS / 1000} s after the load) | ${must('calls stuck', calls.filter((r) => !r.final).length)} |`,
      `| Calls dialled or answered twice (the agent heard the first line more than once) | ${must('calls dialled or answered twice', dialledTwice)} |`,
      `| Calls by status | ${countedBy(calls, (r) => `${r.direction} ${endOf(r)}`)} |`,
    ],
  };
}

/** The must-hold rows of every call event of the world's outbox against what `receiver` got; a try `fault` cut short counts apart (events are sent once). */
async function callEventRows(world: World, receiver: Receiver, fault: string): Promise<{ rows: string[]; summary: string }> {
  const outbox = await dbQuery<{
    id: string;
    ordering_key: string;
    type: string;
    status: string;
    attempts: number;
    last_error: string | null;
  }>(world.databaseUrl, 'select id, ordering_key, type, status, attempts, last_error from webhook_outbox order by seq');
  const received = new Set(receiver.events.map((e) => e.id as string));
  // Each ordering key's events in the order they first arrived, against the order they were written.
  const arrivalOf = new Map([...received].map((id, i) => [id, i]));
  const keys = groupBy(outbox, (o) => o.ordering_key);
  const outOfOrder = [...keys.values()].filter((events) => {
    const arrivals = events.map((o) => arrivalOf.get(o.id)).filter((i): i is number => i !== undefined);
    return arrivals.some((a, i) => i > 0 && a < arrivals[i - 1]!);
  }).length;
  // A try cut by its controller's loss counts as the one try of an event sent once (spec delivery rule 2).
  const cut = outbox.filter((o) => o.status === 'failed' && o.last_error?.startsWith('interrupted:'));
  const lost = outbox.filter((o) => !cut.includes(o) && (o.status !== 'delivered' || !received.has(o.id)));
  if (lost.length) console.log(`faults: events lost: ${JSON.stringify(lost)}`);
  return {
    summary: `${outbox.length} events, lost ${lost.length}, out of order ${outOfOrder}`,
    rows: [
      `| Events written | ${outbox.length} over ${keys.size} ordering keys |`,
      `| Events whose one try ${fault} cut short (call events are sent once and not resent, spec delivery rule 2; the result stays at /v1/calls/{id}/result) | ${cut.length} |`,
      `| Events lost (not delivered for any other reason, or never received) | ${must('events lost', lost.length)} |`,
      `| Ordering keys with events received out of order | ${must('events out of order', outOfOrder)} |`,
      `| Events received more than once (each is sent once) | ${must('events received twice', receiver.events.length - received.size)} |`,
      `| Deliveries refused by the receiver's signature check | ${must('deliveries with bad signatures', receiver.rejected.length)} |`,
    ],
  };
}

async function callKills(server: PrivatePostgres): Promise<void> {
  const redis = await startPrivateRedis();
  // Each delivery answered after 300 ms: a kill finds some in flight.
  const receiver = await startReceiver('', { delayMs: 300 });
  const world = await startWorld({
    serverUrl: server.url,
    name: 'drill_calls',
    redisUrl: redis.url,
    env: { SWITCHBOARD_SIM_SCENARIOS: calleeNetwork() },
    company: { features: ['voice_api'], eventsUrl: receiver.url, maxConcurrentCalls: 100, numbers: [NUMBER] },
  });
  receiver.secret = world.company.webhookSecret;
  const LOAD_MS = 60_000;
  // The account's 30 placements a minute.
  const RATE = 0.45;
  // Inbound calls take no placement.
  const INBOUND_RATE = 0.4;
  try {
    // Whose first line the agent answered: a call dialled or answered twice is heard twice.
    const greeted = new Map<string, number>();
    world.model.setDefault((request) => {
      countGreeting(greeted, request);
      return { content: 'Understood.', delayMs: 300 };
    });
    const api = world.deployment.api[0]!.url!;
    const routed = await ask(api, world.company.apiKey, 'PATCH', `/v1/numbers/${encodeURIComponent(NUMBER)}`, {
      routing: { type: 'ai', agent_id: agentRef(world.company.agentId), greeting: 'Acme, how can I help?' },
    });
    if (routed.status !== 200) throw new Error(`routing the number failed: ${routed.status} ${JSON.stringify(routed.body)}`);
    const answers: Answer[] = [];
    const placed: string[] = [];
    const rung: string[] = [];
    const place = callPlacer(world, world.company.apiKey, receiver.url, answers, placed);
    // Simulated callers ring the number through the API replicas in turn (the API is not at fault here: each is asked once).
    const ring = async (i: number) => {
      const a = await ask(world.deployment.api[i % world.deployment.api.length]!.url!, world.company.apiKey, 'POST', '/v1/sim/calls', {
        to: NUMBER,
        from: `+1312555${String(1000 + i)}`,
        lines: CALLEE_LINES,
      });
      answers.push(a);
      if (a.status === 201) rung.push(a.body.id);
    };
    const kills: { at: number; calls: string[]; deliveries: number; recoveredMs?: number }[] = [];
    const recoveries: Promise<void>[] = [];
    const started = Date.now();
    const load = Promise.all([steady(RATE, LOAD_MS, 40, place), steady(INBOUND_RATE, LOAD_MS, 40, ring)]);
    // kill -9 every 5 s of the replica on the line with the most calls; a new one is started in its place.
    while (Date.now() - started < LOAD_MS - 5_000) {
      await sleep(5_000);
      const busy = await busiestCallController(world);
      if (!busy) continue;
      const kill = { at: Date.now(), calls: busy.calls, deliveries: busy.deliveries } as (typeof kills)[number];
      kills.push(kill);
      await world.deployment.replace(busy.replica);
      // Recovered: every call it held has ended, and their slots are free.
      const recovered = async () =>
        (await dbQuery(world.databaseUrl, `select id from calls where id = any($1) and ${LIVE_CALL}`, [kill.calls])).length === 0 &&
        liveLeases(redis, 'sb:calls:slots', kill.calls) === 0;
      recoveries.push(
        until(recovered, SETTLE_MS, 100).then((ok) => {
          if (ok) kill.recoveredMs = Date.now() - kill.at;
        }),
      );
    }
    const [fired, inbound] = await load;
    const loadMs = Date.now() - started;
    await until(callsSettled(world), SETTLE_MS);
    await Promise.all(recoveries);

    const calls = await callRows(world, [...placed, ...rung], greeted);
    const events = await callEventRows(world, receiver, 'a kill');
    const recovered = kills.filter((k) => k.recoveredMs !== undefined).map((k) => k.recoveredMs!);
    const refused = answers.filter((a) => ![200, 201, 429].includes(a.status));
    const killedCalls = kills.flatMap((k) => k.calls);
    const inboundIds = new Set(rung);
    writeSection(
      RESULTS,
      'faults-calls',
      [
        '## `kill -9` of a controller replica, repeatedly, mid-call and mid-delivery',
        '',
        `Run ${new Date().toISOString()}: 2 API and 2 controller replicas (leases 2 s) sharing a Redis of the drill's own (call slots); ` +
          `calls placed at ${RATE}/s for ${seconds(loadMs)} (${fired.fired} asked, each retried with its Idempotency-Key until acknowledged) ` +
          `to simulated callees who answer and say ${CALLEE_LINES.length} lines, and inbound calls rung at ${INBOUND_RATE}/s (${inbound.fired}, \`POST /v1/sim/calls\`) ` +
          `on a number routed to the agent, whose simulated callers say the same lines after its greeting; ` +
          `${(answers.length / (loadMs / 1000)).toFixed(1)} requests/s; the agent's model answering in 0.3 s; every call's events delivered ` +
          `to a loopback HTTPS receiver that checks their signatures and answers each after 0.3 s. Every 5 s the replica on the line with the most calls ` +
          'was killed with SIGKILL and a new one started.',
        '',
        '| Must hold | Figure |',
        '|---|---|',
        `| Faults injected: \`kill -9\` of a controller replica mid-call | ${kills.length} (${killedCalls.length} calls on the line on them, ${killedCalls.filter((id) => inboundIds.has(id)).length} of them rung in; ${kills.reduce((n, k) => n + k.deliveries, 0)} deliveries in flight) |`,
        `| Calls acknowledged (201) | ${placed.length} placed, ${rung.length} rung in |`,
        ...calls.rows,
        `| Placements and rings not acknowledged (answers other than 201, 200 or 429 to be retried) | ${must('placements refused', refused.length)}${refused.length ? ` (${tally(refused)})` : ''} |`,
        ...events.rows,
        `| Call slots still held at the end | ${must('call slots leaked', liveLeases(redis, 'sb:calls:slots'))} |`,
        `| Kills whose calls had not ended, slots freed, within ${SETTLE_MS / 1000} s | ${must('call kills not recovered', kills.length - recovered.length)} |`,
        `| Recovery (kill → every call the killed replica held ended and its slot free) | ${range(recovered)} |`,
        '',
      ].join('\n'),
    );
    console.log(`faults: calls: ${kills.length} kills, ${placed.length} placed, ${events.summary}`);
  } finally {
    await world.close();
    await receiver.close();
    await redis.stop();
  }
}

async function campaignKills(server: PrivatePostgres): Promise<void> {
  const CONTACTS = 40;
  const world = await startWorld({
    serverUrl: server.url,
    name: 'drill_campaigns',
    env: { SWITCHBOARD_SIM_SCENARIOS: calleeNetwork(CALLEE_LINES.slice(0, 4)) },
    company: { features: ['voice_api', 'campaigns', 'ai_agents'], maxConcurrentCalls: 100, numbers: ['+12025550100'] },
  });
  const system = await startCustomerSystem(world.company.webhookSecret);
  try {
    world.model.setDefault(() => ({ content: 'Understood.', delayMs: 300 }));
    const contacts = Array.from({ length: CONTACTS }, (_, i) => ({ contact_id: `person-${i}`, phone: `+1312555${String(1000 + i)}` }));
    system.lists.push({ status: 200, body: { contacts } });
    const api = world.deployment.api[0]!.url!;
    const key = world.company.apiKey;
    const connection = await ask(api, key, 'POST', '/v1/connections', { name: 'CRM', base_url: system.url, sign_in_header: SIGN_IN });
    const campaign = await ask(api, key, 'POST', '/v1/campaigns', {
      name: 'Drill',
      connection_id: connection.body.id,
      task: 'Renewal call',
      timezone: noonZone(),
      concurrency: 6,
      max_attempts: 1,
    });
    const started = Date.now();
    const run = await ask(api, key, 'POST', `/v1/campaigns/${campaign.body.id}/runs`, {});
    if (run.status !== 202) throw new Error(`the run did not start: ${run.status} ${JSON.stringify(run.body)}`);
    const runId: string = run.body.id;
    const running = async () => (await ask(api, key, 'GET', `/v1/campaign-runs/${runId}`)).body?.status === 'running';
    const kills: { at: number; calls: number; run: boolean }[] = [];
    // kill -9 every 4 s, while it runs, of the replica on the line with the most of its calls, every other time of the one holding the run if one does; a new one is started in its place.
    while (Date.now() - started < 90_000 && (await running())) {
      await sleep(4_000);
      const [runRow] = await dbQuery<{ lease_owner: string | null }>(
        world.databaseUrl,
        'select lease_owner from campaign_runs where id = $1',
        [runId],
      );
      const busy = await busiestCallController(world);
      const ownsRun = (r: Replica) => Number(runRow?.lease_owner?.split(':').at(-2)) === r.process.pid;
      const holder = world.deployment.controllers.find(ownsRun);
      const victim = (kills.length % 2 === 1 && holder) || busy?.replica || holder;
      if (!victim) continue;
      kills.push({ at: Date.now(), calls: busy?.replica === victim ? busy.calls.length : 0, run: ownsRun(victim) });
      await world.deployment.replace(victim);
    }
    const finished = await until(async () => !(await running()), SETTLE_MS, 500);
    const runMs = Date.now() - started;
    const final = (await ask(api, key, 'GET', `/v1/campaign-runs/${runId}`)).body;
    await until(() => system.summaries.some((s) => s.run?.id === runId), SETTLE_MS, 500);
    const dialled = await dbQuery<{ contact_id: string; n: string }>(
      world.databaseUrl,
      `select campaign->>'contact_id' as contact_id, count(*) as n from calls where campaign->>'run_id' = $1 group by 1`,
      [runId],
    );
    const calls = await dbQuery<{ status: string; hangup_cause: string | null }>(
      world.databaseUrl,
      `select status, hangup_cause from calls where campaign->>'run_id' = $1`,
      [runId],
    );
    const results = system.results.filter((r) => r.run?.id === runId);
    const resultOf = new Set(results.map((r) => r.contact_id as string));
    writeSection(
      RESULTS,
      'faults-campaigns',
      [
        '## `kill -9` of a controller replica, repeatedly, mid-campaign',
        '',
        `Run ${new Date().toISOString()}: 2 API and 2 controller replicas (leases 2 s); one campaign run over ${CONTACTS} people from a customer system on ` +
          'loopback HTTPS (its list, then each result and the summary posted to it, signed), 6 calls at once, one attempt each, to simulated callees ' +
          `who answer and say 4 lines. Every 4 s while the run went on, the replica on the line with the most of its calls (every other time the one holding the run, if one did) ` +
          `was killed with SIGKILL and a new one started; the run took ${seconds(runMs)}.`,
        '',
        '| Must hold | Figure |',
        '|---|---|',
        `| Faults injected: \`kill -9\` of a controller replica mid-campaign | ${kills.length} (${kills.reduce((n, k) => n + k.calls, 0)} of its calls on the line on them; ${kills.filter((k) => k.run).length} holding the run) |`,
        `| Run not finished ${SETTLE_MS / 1000} s after the last kill | ${must('campaign run stuck', finished ? 0 : 1)} (status ${final?.status}) |`,
        `| People called more than once (one attempt each) | ${must('people called twice', dialled.filter((d) => Number(d.n) > 1).length)} |`,
        `| People without a result at the customer system | ${must('people without a result', contacts.filter((c) => !resultOf.has(c.contact_id)).length)} |`,
        `| Results received more than once (allowed: a result can arrive twice, keyed by contact_id and run.id) | ${results.length - resultOf.size} |`,
        `| Run summary not received | ${must('summary missing', system.summaries.some((s) => s.run?.id === runId) ? 0 : 1)} |`,
        `| Calls by status | ${byEnd(calls)} |`,
        `| Requests the customer system refused (signature or sign-in header) | ${must('customer system refusals', system.rejected.length)} |`,
        '',
      ].join('\n'),
    );
    console.log(`faults: campaigns: ${kills.length} kills, run ${final?.status}, ${results.length} results, ${calls.length} calls`);
  } finally {
    await world.close();
    await system.close();
  }
}

/** The answer window of call events (pkg/webhooks/policy.ts): a delivery held up behind a dead receiver would wait at least this. */
const ANSWER_WINDOW_MS = 5_000;

async function receiverFaults(server: PrivatePostgres): Promise<void> {
  const healthy = await startReceiver('');
  const slow = await startReceiver('', { delayMs: 2_000 });
  const failing = await startHttpsServer((_req, res) => res.writeHead(500).end());
  const dropping = await startHttpsServer((req) => req.socket.destroy());
  const late = await startHttpsServer((_req, res) => setTimeout(() => res.end('ok'), ANSWER_WINDOW_MS + 2_000));
  // One account each, its events and its calls' results sent to it.
  const receivers = [
    { name: 'answering at once', url: healthy.url, requests: healthy.requests, delivers: true },
    { name: 'answering after 2 s, within the window', url: slow.url, requests: slow.requests, delivers: true },
    { name: 'answering 500', url: `${failing.url}/hooks`, requests: failing.requests, delivers: false },
    { name: 'dropping the connection', url: `${dropping.url}/hooks`, requests: dropping.requests, delivers: false },
    {
      name: `answering after ${(ANSWER_WINDOW_MS + 2_000) / 1000} s, past the window`,
      url: `${late.url}/hooks`,
      requests: late.requests,
      delivers: false,
    },
  ];
  const settings = (url: string): TenantSettings => ({ features: ['voice_api'], eventsUrl: url, maxConcurrentCalls: 100 });
  const world = await startWorld({
    serverUrl: server.url,
    name: 'drill_receivers',
    env: { SWITCHBOARD_SIM_SCENARIOS: calleeNetwork(CALLEE_LINES.slice(0, 2)) },
    company: settings(healthy.url),
  });
  const LOAD_MS = 40_000;
  // Each account's: within its 30 placements a minute.
  const RATE = 0.3;
  try {
    const companies = [
      world.company,
      ...(await Promise.all(receivers.slice(1).map((r) => makeCompany(world.databaseUrl, { settings: settings(r.url) })))),
    ];
    healthy.secret = companies[0]!.webhookSecret;
    slow.secret = companies[1]!.webhookSecret;
    world.model.setDefault(() => ({ content: 'Understood.', delayMs: 200 }));
    const answers: Answer[] = [];
    const placed: string[] = [];
    const started = Date.now();
    const loads = receivers.map((r, n) => steady(RATE, LOAD_MS, 20, callPlacer(world, companies[n]!.apiKey, r.url, answers, placed)));
    const fired = (await Promise.all(loads)).reduce((sum, l) => sum + l.fired, 0);
    const loadMs = Date.now() - started;
    const stuck = !(await until(callsSettled(world), SETTLE_MS));
    const outbox = await dbQuery<{ id: string; url: string; status: string; created_at: Date }>(
      world.databaseUrl,
      'select id, url, status, created_at from webhook_outbox',
    );
    const figures = receivers.map((r) => {
      const events = outbox.filter((o) => o.url === r.url);
      const tries = new Map<string, number>();
      for (const q of r.requests) tries.set(String(q.headers['webhook-id']), (tries.get(String(q.headers['webhook-id'])) ?? 0) + 1);
      const arrived = new Map(r.requests.map((q) => [String(q.headers['webhook-id']), q.at]));
      return {
        ...r,
        events: events.length,
        notTriedOnce: events.filter((o) => tries.get(o.id) !== 1).length,
        // Delivering receivers must have every event, marked delivered; the others none marked delivered and none left pending.
        wrong: events.filter((o) => (r.delivers ? o.status !== 'delivered' || !arrived.has(o.id) : o.status !== 'failed')).length,
        latencyMs: stats(events.filter((o) => arrived.has(o.id)).map((o) => arrived.get(o.id)! - o.created_at.getTime())),
      };
    });
    const refused = answers.filter((a) => ![200, 201, 429].includes(a.status));
    const healthyP99 = figures[0]!.latencyMs.p99;
    writeSection(
      RESULTS,
      'faults-receivers',
      [
        '## Receivers slow, answering 5xx, dropping connections, answering after the window',
        '',
        `Run ${new Date().toISOString()}: 2 API and 2 controller replicas; ${receivers.length} accounts, each with its events address and its calls' ` +
          `\`callback_url\` on a loopback HTTPS receiver of its own, each placing calls at ${RATE}/s for ${seconds(loadMs)} (${fired} asked) to simulated callees; ` +
          `call events and results are sent once, a try failing on a non-2xx answer or none within ${ANSWER_WINDOW_MS / 1000} s (spec delivery rules 1 and 2).`,
        '',
        '| Receiver | Events | Tried other than once | Not as the rules say (delivered / failed) | Event written → received, median / p99 |',
        '|---|---|---|---|---|',
        ...figures.map(
          (f) =>
            `| ${f.name} | ${f.events} | ${must(`events tried other than once (${f.name})`, f.notTriedOnce)} | ${must(`events not as the rules say (${f.name})`, f.wrong)} | ${f.delivers ? `${f.latencyMs.median} / ${f.latencyMs.p99} ms` : '—'} |`,
        ),
        '',
        '| Must hold | Figure |',
        '|---|---|',
        `| Calls acknowledged (201) | ${placed.length} |`,
        `| Placements not acknowledged (answers other than 201, 200 or 429 to be retried) | ${must('placements refused', refused.length)}${refused.length ? ` (${tally(refused)})` : ''} |`,
        `| Calls not final, or events still pending, ${SETTLE_MS / 1000} s after the load | ${must('calls or events stuck', stuck ? 1 : 0)} |`,
        `| The healthy receiver held up by the others (its p99 past the ${ANSWER_WINDOW_MS / 1000} s window) | ${must('healthy receiver delayed', healthyP99 > ANSWER_WINDOW_MS ? 1 : 0)} (p99 ${healthyP99} ms) |`,
        `| Deliveries refused by the receivers' signature check | ${must('deliveries with bad signatures', healthy.rejected.length + slow.rejected.length)} |`,
        '',
      ].join('\n'),
    );
    console.log(`faults: receivers: ${JSON.stringify(figures.map(({ requests: _, ...f }) => f))}`);
  } finally {
    await world.close();
    for (const r of [healthy, slow, failing, dropping, late]) await r.close();
  }
}

// Debian's libfaketime (test/support/setup.sh installs it), to set one replica's wall clock off.
const FAKETIME = ['/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1', '/usr/lib/aarch64-linux-gnu/faketime/libfaketime.so.1'].find(
  existsSync,
);

async function clockJumps(server: PrivatePostgres): Promise<void> {
  if (!FAKETIME) throw new Error('libfaketime is missing: run test/support/setup.sh');
  const world = await startWorld({ serverUrl: server.url, name: 'drill_clock', env: { SWITCHBOARD_CONTROLLER_CONCURRENCY: '4' } });
  const LOAD_MS = 50_000;
  const RATE = 2;
  try {
    const runs = new Map<string, number>();
    const firstAsked = new Map<string, number>();
    world.model.setDefault((request) => {
      const job = jobIn(request);
      if (job) {
        runs.set(job.id, (runs.get(job.id) ?? 0) + 1);
        if (!firstAsked.has(job.id)) firstAsked.set(job.id, Date.now());
      }
      return { content: 'Done.', delayMs: 500 };
    });
    const answers: Answer[] = [];
    const acknowledged: string[] = [];
    const dueAt = new Map<string, number>();
    const makeJob = jobMaker(world, answers, acknowledged);
    // A timed job, due 5 to 20 s after it is created.
    const makeTimedJob = async (i: number) => {
      const runAt = Date.now() + 5_000 + (i % 16) * 1_000;
      const api = world.deployment.api[i % world.deployment.api.length]!;
      const body = {
        agentId: world.company.agentId,
        task: `Timed job ${i}`,
        runAt: new Date(runAt).toISOString(),
        idempotencyKey: `drill-timed-${i}`,
      };
      const a = await ask(api.url!, world.company.apiKey, 'POST', '/api/v1/triggers', body);
      answers.push(a);
      if (a.status !== 202 && a.status !== 200) return;
      acknowledged.push(a.body.triggerId);
      dueAt.set(a.body.triggerId, runAt);
    };
    const started = Date.now();
    const loads = [steady(RATE, LOAD_MS, 40, makeJob), steady(RATE, LOAD_MS, 40, makeTimedJob)];
    // Two more replicas join the two on the database's time: one 5 minutes ahead, later one 5 minutes behind.
    const skews: number[] = [];
    for (const [at, offset] of [
      [10_000, '+5m'],
      [25_000, '-5m'],
    ] as const) {
      await sleep(started + at - Date.now());
      const skewed = await world.deployment.startControllers({ LD_PRELOAD: FAKETIME, FAKETIME: offset });
      skews.push((await skewed.process.waitForLog((line) => line.skewMs !== undefined)).skewMs);
    }
    const fired = await Promise.all(loads);
    const loadMs = Date.now() - started;
    await until(async () => (await openJobs(world.databaseUrl)) === 0, SETTLE_MS);
    const count = await countJobs(world.databaseUrl, acknowledged, runs);
    const earlyMs = [...dueAt].map(([id, due]) => due - (firstAsked.get(id) ?? Infinity)).filter((ms) => ms > 0);
    const lateMs = stats([...dueAt].filter(([id]) => firstAsked.has(id)).map(([id, due]) => firstAsked.get(id)! - due));
    const bad = answers.filter((a) => a.status !== 202 && a.status !== 200);
    writeSection(
      RESULTS,
      'faults-clock',
      [
        '## A replica whose clock is 5 minutes ahead, and one 5 minutes behind',
        '',
        `Run ${new Date().toISOString()}: 2 API and 2 controller replicas (leases 2 s, 4 jobs a replica at once), a model answering each job in 0.5 s; ` +
          `for ${seconds(loadMs)} jobs created at ${RATE}/s to run at once and ${RATE}/s due 5 to 20 s later (${fired.reduce((n, f) => n + f.fired, 0)} asked). ` +
          `After 10 s a third controller replica joined with its wall clock 5 minutes ahead (libfaketime), after 25 s a fourth 5 minutes behind; ` +
          `each logged its clock's distance from the database's: ${skews.map((ms) => `${(ms / 60_000).toFixed(1)} min`).join(', ')}.`,
        '',
        '| Must hold | Figure |',
        '|---|---|',
        ...jobRows(count, 'Load').filter((row) => !row.includes('failed as interrupted')),
        `| Jobs failed as interrupted (a lease taken from a live holder would show here: nobody was killed) | ${must('leases stolen', count.interrupted)} |`,
        `| Timed jobs started before they were due (the model asked before runAt, by this drill's clock) | ${must('timed jobs run early', earlyMs.length)}${earlyMs.length ? ` (by up to ${Math.max(...earlyMs)} ms)` : ''} |`,
        `| Timed jobs, due → the model asked, median / p99 | ${lateMs.median} / ${lateMs.p99} ms |`,
        `| Job creations not acknowledged | ${must('job creations refused', bad.length)}${bad.length ? ` (${tally(bad)})` : ''} |`,
        '',
      ].join('\n'),
    );
    console.log(`faults: clock: skews ${skews.join(', ')} ms; ${JSON.stringify(count)}; early ${earlyMs.length}`);
  } finally {
    await world.close();
  }
}

/** Kinds of answers while Postgres is faulted: what must never be seen is a 5xx other than 503 with Retry-After, or no answer. */
function badAnswers(answers: Answer[]): Answer[] {
  return answers.filter((a) => a.status === 0 || (a.status >= 500 && !(a.status === 503 && a.retryAfter)));
}

async function postgresFaults(server: PrivatePostgres): Promise<void> {
  // Call slots are shared there, so that what is left of them can be counted.
  const redis = await startPrivateRedis();
  const receiver = await startReceiver('');
  const world = await startWorld({
    serverUrl: server.url,
    name: 'drill_postgres',
    redisUrl: redis.url,
    env: { SWITCHBOARD_CONTROLLER_CONCURRENCY: '4', SWITCHBOARD_SIM_SCENARIOS: calleeNetwork() },
    company: { features: ['voice_api'], eventsUrl: receiver.url, maxConcurrentCalls: 100 },
  });
  receiver.secret = world.company.webhookSecret;
  const LOAD_MS = 50_000;
  // Within the account's 30 placements a minute, retries included.
  const CALL_RATE = 0.4;
  const TURN_RATE = 2;
  try {
    const greeted = new Map<string, number>();
    // Chat replies: the first words at once, the rest 1 s later, so a fault lands mid-stream.
    const runs = jobsCallsAndChat(world, greeted, 1_000);
    const writes: Answer[] = [];
    const reads: Answer[] = [];
    const acknowledged: string[] = [];
    const placements: Answer[] = [];
    const placed: string[] = [];
    const creates: Answer[] = [];
    const turns: Turn[] = [];
    const pick = (i: number) => world.deployment.api[i % world.deployment.api.length]!;
    const pids = [...world.deployment.api, ...world.deployment.controllers].map((r) => r.process.pid);
    const started = Date.now();
    const makeJob = jobMaker(world, writes, acknowledged);
    const writeLoad = steady(3, LOAD_MS, 60, makeJob);
    // Reads of a job created before the faults, on both replicas.
    const first = await ask(world.deployment.api[0]!.url!, world.company.apiKey, 'POST', '/api/v1/triggers', {
      agentId: world.company.agentId,
      task: 'Read me',
    });
    acknowledged.push(first.body.triggerId);
    const readLoad = steady(4, LOAD_MS, 60, async (i) => {
      reads.push(await ask(pick(i).url!, world.company.apiKey, 'GET', `/api/v1/triggers/${first.body.triggerId}`));
    });
    const callLoad = steady(CALL_RATE, LOAD_MS, 40, callPlacer(world, world.company.apiKey, null, placements, placed));
    const turnLoad = steady(TURN_RATE, LOAD_MS, 40, async (i) => {
      const created = await ask(pick(i).url!, world.company.apiKey, 'POST', '/api/v1/conversations', { agentId: world.company.agentId });
      creates.push(created);
      if (created.status === 201)
        turns.push(await streamTurn(pick(i + 1).url!, world.company.apiKey, created.body.conversationId, `Turn ${i}`));
    });
    const faults: { name: string; at: number; over: number; calls: string[]; recoveredMs?: number }[] = [];
    const fault = async (name: string, inject: () => Promise<void>) => {
      const calls = (await dbQuery<{ id: string }>(world.databaseUrl, `select id from calls where ${LIVE_CALL}`)).map((c) => c.id);
      const f: (typeof faults)[number] = { name, at: Date.now(), over: 0, calls };
      await inject();
      f.over = Date.now();
      faults.push(f);
      const ok = (a: Answer) => a.at >= f.over && (a.status === 200 || a.status === 202);
      if (await until(() => writes.some(ok) && reads.some(ok), 30_000, 50)) {
        f.recoveredMs = Math.min(...[...writes, ...reads].filter(ok).map((a) => a.at + a.ms)) - f.over;
      }
    };
    await sleep(5_000);
    await fault('connections cut (`pg_terminate_backend` of every connection of the database)', async () => {
      const rows = await dbQuery<{ n: string }>(
        server.url,
        `select count(pg_terminate_backend(pid)) as n from pg_stat_activity where datname = 'drill_postgres' and pid <> pg_backend_pid()`,
      );
      console.log(`faults: postgres: cut ${rows[0]!.n} connections`);
    });
    await sleep(5_000);
    await fault('Postgres restarted fast (`pg_ctl stop -m fast` and start at once)', async () => {
      server.stop('fast');
      server.start();
    });
    await sleep(5_000);
    await fault('Postgres restarted slow (stopped 10 s, then started)', async () => {
      server.stop('fast');
      await sleep(10_000);
      server.start();
    });
    const [w, r, c, t] = await Promise.all([writeLoad, readLoad, callLoad, turnLoad]);
    const loadMs = Date.now() - started;
    await until(async () => (await openJobs(world.databaseUrl)) === 0, SETTLE_MS);
    await until(callsSettled(world), SETTLE_MS);
    const count = await countJobs(world.databaseUrl, acknowledged, runs);
    const calls = await callRows(world, placed, greeted);
    const events = await callEventRows(world, receiver, 'a fault');
    const streamed = await streamedTurns(world.databaseUrl, turns);
    const all = [...writes, ...reads, ...placements, ...creates];
    const refused = all.filter((a) => a.status === 503 && a.retryAfter);
    const bad = badAnswers(all);
    if (bad.length) {
      const unexpected = world.deployment.api.flatMap((api) => api.process.logs.filter((l) => l.msg === 'unexpected error'));
      console.log(`faults: postgres: bad answers: ${JSON.stringify(bad)}; the API's unexpected errors: ${JSON.stringify(unexpected)}`);
    }
    const otherStatuses = all.filter((a) => a.status >= 200 && a.status < 500 && ![200, 201, 202].includes(a.status));
    // With no replica killed, a stream ends with `done` or an `error` event, or is refused 503 with Retry-After.
    const unclean = turns.filter(
      (x) => ['hang', 'cut'].includes(x.outcome) || (x.outcome.startsWith('refused: 5') && x.outcome !== 'refused: 503'),
    );
    const restarted = [...world.deployment.api, ...world.deployment.controllers].filter(
      (r) => !r.process.running || !pids.includes(r.process.pid),
    ).length;
    const ready = await Promise.all(world.deployment.api.map(async (api) => (await fetch(`${api.url}/readyz`)).status));
    const endedAs = (ids: string[]) => byEnd(calls.calls.filter((x) => ids.includes(x.id)));
    writeSection(
      RESULTS,
      'faults-postgres',
      [
        '## Postgres restarted (fast and slow), and its connections cut',
        '',
        `Run ${new Date().toISOString()}: 2 API and 2 controller replicas on a Postgres and a Redis (call slots) of the drill's own; for ${seconds(loadMs)} ` +
          `jobs created at 3/s (${w.fired}, each retried with its idempotency key until acknowledged) and a job read at 4/s (${r.fired}) on both API replicas, ` +
          `calls placed at ${CALL_RATE}/s (${c.fired}, each retried with its Idempotency-Key until acknowledged) to simulated callees who answer and say ${CALLEE_LINES.length} lines, ` +
          `each 0.8 s after the agent's reply (0.3 s), their events delivered to a loopback HTTPS receiver that checks their signatures, ` +
          `and conversations created and a streamed turn sent on each at ${TURN_RATE}/s (${t.fired}), each reply streamed over 1 s; ` +
          `${((all.length + turns.length) / (loadMs / 1000)).toFixed(1)} requests/s; an answer not in ${HANG_MS / 1000} s counts as a hang.`,
        '',
        '| Fault | Injected for | Recovery (fault over → first 2xx) | Calls on the line then, and how they ended |',
        '|---|---|---|---|',
        ...faults.map(
          (f) =>
            `| ${f.name} | ${seconds(f.over - f.at)} | ${f.recoveredMs === undefined ? 'not recovered' : seconds(f.recoveredMs)} | ${f.calls.length}: ${endedAs(f.calls)} |`,
        ),
        '',
        '| Must hold | Figure |',
        '|---|---|',
        `| Answers (jobs, job reads, placements, conversations) | ${tally(all)} |`,
        `| Answered 503 with Retry-After while Postgres was away | ${refused.length} |`,
        `| 500s, 503s without Retry-After, hangs, or no answer | ${must('bad answers while Postgres faulted', bad.length)}${bad.length ? ` (${tally(bad)})` : ''} |`,
        `| Other answers (neither 2xx nor 503) | ${must('other answers', otherStatuses.length)}${otherStatuses.length ? ` (${tally(otherStatuses)})` : ''} |`,
        `| Faults not recovered from within 30 s | ${must('faults not recovered', faults.filter((f) => f.recoveredMs === undefined).length)} |`,
        `| Replicas restarted or exited (recovery must need none) | ${must('replicas restarted', restarted)} |`,
        `| API replicas not ready at the end (/readyz) | ${must('replicas not ready', ready.filter((s) => s !== 200).length)} |`,
        ...jobRows(count, 'Load', 'their run lost Postgres mid-run and could not store its result: failed once, never run again'),
        `| Calls acknowledged (201) | ${placed.length} |`,
        ...calls.rows,
        ...events.rows,
        `| Call slots still held at the end | ${must('call slots leaked', liveLeases(redis, 'sb:calls:slots'))} |`,
        `| Streamed turns by outcome | ${streamed.byOutcome} |`,
        ...streamed.rows,
        `| Streams cut (no \`done\` or \`error\` event), hanging, or refused 5xx other than 503 with Retry-After | ${must('unclean streams', unclean.length)}${unclean.length ? ` (${countedBy(unclean, (x) => x.outcome)})` : ''} |`,
        '',
      ].join('\n'),
    );
    console.log(
      `faults: postgres: ${tally(all)}; bad ${bad.length}; ${JSON.stringify(count)}; calls ${byEnd(calls.calls)}; ${events.summary}; turns ${streamed.byOutcome}, ${streamed.summary}`,
    );
  } finally {
    if (!world.deployment.api.length) server.start();
    await world.close();
    await receiver.close();
    await redis.stop();
  }
}

async function diskFull(server: PrivatePostgres): Promise<void> {
  const world = await startWorld({ serverUrl: server.url, name: 'drill_disk', env: { SWITCHBOARD_CONTROLLER_CONCURRENCY: '4' } });
  const LOAD_MS = 40_000;
  const FAULT = { at: 10_000, ms: 10_000 };
  try {
    const runs = countRuns(world, 300);
    const jobAnswers: Answer[] = [];
    const acknowledged: string[] = [];
    const turns: { conversationId: string; answer: Answer }[] = [];
    const started = Date.now();
    const loads = [
      steady(3, LOAD_MS, 40, jobMaker(world, jobAnswers, acknowledged)),
      // Each turn on a conversation of its own, so that what it stored can be told apart.
      steady(2, LOAD_MS, 40, async (i) => {
        const replica = world.deployment.api[i % world.deployment.api.length]!;
        const created = await ask(replica.url!, world.company.apiKey, 'POST', '/api/v1/conversations', { agentId: world.company.agentId });
        if (created.status !== 201) return void turns.push({ conversationId: '', answer: created });
        const conversationId: string = created.body.conversationId;
        turns.push({
          conversationId,
          answer: await ask(replica.url!, world.company.apiKey, 'POST', `/api/v1/conversations/${conversationId}/messages`, {
            message: `Turn ${i}`,
          }),
        });
      }),
    ];
    // Inserts into the jobs' and the messages' tables fail as on a full disk (SQLSTATE 53100) for FAULT.ms.
    await sleep(started + FAULT.at - Date.now());
    await dbQuery(
      world.databaseUrl,
      `create function refuse_writes() returns trigger language plpgsql as $$
      begin raise exception 'could not extend file: No space left on device' using errcode = 'disk_full'; end $$`,
    );
    const tables = ['triggers', 'messages'];
    for (const table of tables)
      await dbQuery(world.databaseUrl, `create trigger disk_full before insert on ${table} for each row execute function refuse_writes()`);
    const faultStart = Date.now();
    await sleep(FAULT.ms);
    for (const table of tables) await dbQuery(world.databaseUrl, `drop trigger disk_full on ${table}`);
    const faultEnd = Date.now();
    const fired = await Promise.all(loads);
    const loadMs = Date.now() - started;
    await until(async () => (await openJobs(world.databaseUrl)) === 0, SETTLE_MS);
    const count = await countJobs(world.databaseUrl, acknowledged, runs);
    const stored = await storedTurns(world.databaseUrl, turns.map((t) => t.conversationId).filter(Boolean));
    // Answered 200: its message, the whole reply and one charge; refused: no reply and no charge (its message may stay, as for any failed turn).
    const wrong = turns.filter(({ conversationId, answer }) => {
      if (!conversationId) return false;
      const { users, replies, charges } = stored(conversationId);
      return answer.status === 200
        ? !(users === 1 && replies.length === 1 && charges === 1)
        : !(users <= 1 && replies.length === 0 && charges === 0);
    });
    const turnAnswers = turns.map((t) => t.answer);
    const all = [...jobAnswers, ...turnAnswers];
    const during = all.filter((a) => a.at >= faultStart && a.at + a.ms <= faultEnd);
    const bad = badAnswers(all);
    const ok = (a: Answer) => a.at >= faultEnd && (a.status === 200 || a.status === 202);
    const recoveredMs = Math.min(...all.filter(ok).map((a) => a.at + a.ms)) - faultEnd;
    writeSection(
      RESULTS,
      'faults-disk',
      [
        '## Postgres refusing writes as with a full disk',
        '',
        `Run ${new Date().toISOString()}: 2 API and 2 controller replicas (4 jobs a replica at once), a model answering in 0.3 s; for ${seconds(loadMs)} ` +
          `jobs created at 3/s (${fired[0]!.fired}, each retried with its idempotency key until acknowledged) and chat turns at 2/s (${fired[1]!.fired}) on 4 conversations. ` +
          `After ${FAULT.at / 1000} s every insert into the jobs' and the messages' tables failed with SQLSTATE 53100 (disk_full) for ${FAULT.ms / 1000} s.`,
        '',
        '| Must hold | Figure |',
        '|---|---|',
        `| Answers to requests asked and answered while writes were refused | ${tally(during)} |`,
        `| 500s, 503s without Retry-After, hangs, or no answer | ${must('bad answers while the disk was full', bad.length)}${bad.length ? ` (${tally(bad)})` : ''} |`,
        `| Turns half-written (answered 200 without its message, whole reply and one charge; refused with a reply or a charge) | ${must('turns half-written', wrong.length)} |`,
        `| Recovery (writes taken again → first 2xx) | ${Number.isFinite(recoveredMs) ? seconds(Math.max(0, recoveredMs)) : must('not recovered', 1)} |`,
        ...jobRows(count, 'Jobs', 'their run could not store its result while writes were refused: failed once, never run again'),
        '',
      ].join('\n'),
    );
    console.log(`faults: disk: ${tally(all)}; bad ${bad.length}; half-written ${wrong.length}; ${JSON.stringify(count)}`);
  } finally {
    await world.close();
  }
}

/** A streamed turn read to its end: whether it was acknowledged (a `done` event), ended by an `error` event, or cut. */
interface Turn {
  conversationId: string;
  /** `done`, `error` (an error event), `cut` (the stream ended or broke without either), `hang`, or `refused: <status>`. */
  outcome: string;
  ms: number;
}

async function streamTurn(url: string, apiKey: string, conversationId: string, message: string): Promise<Turn> {
  const at = Date.now();
  const outcome = async (): Promise<string> => {
    try {
      const res = await fetch(`${url}/api/v1/conversations/${conversationId}/messages`, {
        method: 'POST',
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ message, stream: true }),
        signal: AbortSignal.timeout(HANG_MS),
      });
      if (!res.headers.get('content-type')?.startsWith('text/event-stream'))
        return `refused: ${res.status}${res.status === 503 && !res.headers.get('retry-after') ? ' without Retry-After' : ''}`;
      const text = await res.text();
      if (/"type":"done"/.test(text)) return 'done';
      return /"type":"error"/.test(text) ? 'error' : 'cut';
    } catch (err) {
      return (err as Error).name === 'TimeoutError' ? 'hang' : 'cut';
    }
  };
  return { conversationId, outcome: await outcome(), ms: Date.now() - at };
}

/** What Postgres holds of a turn on each conversation: its user messages, its replies' texts, and the charges of its user message. */
async function storedTurns(
  databaseUrl: string,
  conversationIds: string[],
): Promise<(id: string) => { users: number; replies: string[]; charges: number }> {
  const messages = await dbQuery<{ id: string; conversation_id: string; role: string; content: string }>(
    databaseUrl,
    `select id, conversation_id, role, content from messages where conversation_id = any($1) and role in ('user', 'assistant') order by seq`,
    [conversationIds],
  );
  const rows = await dbQuery<{ reference_id: string; n: string }>(
    databaseUrl,
    `select reference_id, count(*) as n from credit_ledger where reference_type = 'api' group by reference_id`,
  );
  const charged = new Map(rows.map((c) => [c.reference_id, Number(c.n)]));
  return (id) => {
    const own = messages.filter((m) => m.conversation_id === id);
    const users = own.filter((m) => m.role === 'user');
    return {
      users: users.length,
      replies: own.filter((m) => m.role === 'assistant').map((m) => m.content),
      charges: users.reduce((n, u) => n + (charged.get(u.id) ?? 0), 0),
    };
  };
}

/**
 * The model of a drill loading jobs, calls and streamed chat: a job answered in 0.2 s (the runs per
 * job returned), a call's turn in 0.3 s (its greeting counted into `greeted`), a chat reply's first
 * words at once and the rest `holdMs` later.
 */
function jobsCallsAndChat(world: World, greeted: Map<string, number>, holdMs: number): Map<string, number> {
  const runs = new Map<string, number>();
  world.model.setDefault((request) => {
    const job = jobIn(request);
    if (job) {
      runs.set(job.id, (runs.get(job.id) ?? 0) + 1);
      return { content: 'Done.', delayMs: 200 };
    }
    if (callIn(request)) {
      countGreeting(greeted, request);
      return { content: 'Understood.', delayMs: 300 };
    }
    return { content: REPLY, holdAfterFirst: sleep(holdMs) };
  });
  return runs;
}

/** Streamed turns against what Postgres stored of them: how they ended, and the must-hold rows (none acknowledged and missing, none half-written). */
async function streamedTurns(databaseUrl: string, turns: Turn[]): Promise<{ byOutcome: string; rows: string[]; summary: string }> {
  const stored = await storedTurns(
    databaseUrl,
    turns.map((t) => t.conversationId),
  );
  let lost = 0;
  let halfWritten = 0;
  for (const turn of turns) {
    const { users, replies, charges } = stored(turn.conversationId);
    // A turn is whole with its reply complete and charged once, or has no reply and no charge.
    const whole =
      users === 1 && ((replies.length === 1 && replies[0] === REPLY && charges === 1) || (replies.length === 0 && charges === 0));
    if (turn.outcome === 'done' && !(whole && replies.length === 1)) lost++;
    else if (!whole && users + replies.length > 0) halfWritten++;
  }
  const byOutcome = countedBy(turns, (t) => t.outcome);
  return {
    byOutcome,
    summary: `lost ${lost}, half ${halfWritten}`,
    rows: [
      `| Turns acknowledged (\`done\`) whose user message, whole reply or one charge is missing | ${must('acknowledged turns lost', lost)} |`,
      `| Half-written turns (a reply cut short, a reply without its charge or a charge without its reply) | ${must('half-written turns', halfWritten)} |`,
    ],
  };
}

const REPLY = 'The first part of the answer, then after a pause the rest of it, complete.';

/** The Twilio account of the api drill's deployment. */
const TWILIO = { accountSid: `AC${'d1'.repeat(16)}`, authToken: 'twilio-auth-token-for-the-drill' };
/** The drill's leases (SWITCHBOARD_LEASE_SEC of its deployment). */
const LEASE_MS = 2_000;
/** The console users of the api drill's company, each signing in once. */
const CONSOLE_USERS = 6;

/** An API replica killed, and the relay calls it conducted then. */
interface ApiKill {
  at: number;
  pid: number;
  relayCalls: string[];
  /** Of those, the calls whose slot Redis still held one lease after the kill. */
  slotsHeld?: number;
}

interface RelayCallRow {
  id: string;
  to_number: string;
  status: string;
  hangup_cause: string | null;
  final: boolean;
  transcript: { speaker: string; text: string }[];
}

/** The relay drill's must-hold rows: what the callees said and heard against what Postgres stored of their calls. */
async function relayRows(
  world: World,
  twilio: TwilioStandIn,
  talks: Map<string, RelayTalk>,
  placed: string[],
  kills: ApiKill[],
  redis: PrivateRedis,
): Promise<string[]> {
  const rows = await dbQuery<RelayCallRow>(
    world.databaseUrl,
    'select id, to_number, status, hangup_cause, final, transcript from calls where id = any($1)',
    [placed],
  );
  const spoken = (row: RelayCallRow, speaker: string) => row.transcript.filter((t) => t.speaker === speaker).map((t) => t.text);
  const talkOf = (row: RelayCallRow) => talks.get(row.to_number)!;
  const acknowledged = rows.reduce((n, row) => n + talkOf(row).acknowledged.length, 0);
  const linesMissing = rows.reduce((n, row) => n + missingLines(talkOf(row).acknowledged, spoken(row, 'caller')), 0);
  const repliesMissing = rows.reduce((n, row) => n + Math.max(0, talkOf(row).acknowledged.length - spoken(row, 'agent').length), 0);
  const placedTwice = [...placementsByCall(twilio).values()].filter((n) => n > 1).length;
  // The carrier saw the application close the socket: the replica conducting the call was killed.
  const dropped = rows.filter((row) => talkOf(row).end?.by === 'application-close');
  const carrierErrors = twilio.calls.flatMap((c) => c.errors.map((e) => e.replace(/:.*/s, '')));
  const byKind = [...groupBy(carrierErrors, (e) => e)].map(([k, v]) => `${k}×${v.length}`).join(', ');
  return [
    `| Relay calls acknowledged (201) | ${placed.length}, ${twilio.calls.length} placed at the carrier, ${twilio.calls.filter((c) => c.relays.length).length} with a relay socket |`,
    `| Relay calls lost (acknowledged, no row) | ${must('relay calls lost', placed.length - rows.length)} |`,
    `| Relay calls stuck (not final ${SETTLE_MS / 1000} s after the load) | ${must('relay calls stuck', rows.filter((r) => !r.final).length)} |`,
    `| Calls placed twice at the carrier (the stand-in's placements of one call id beyond the first) | ${must('relay calls placed twice', placedTwice)} |`,
    `| Lines the callee said and the agent replied to, missing from the call's stored transcript | ${must('acknowledged caller lines lost', linesMissing)} of ${acknowledged} |`,
    `| Replies the callee heard whole, missing from the call's stored transcript | ${must('heard replies lost', repliesMissing)} |`,
    `| Relay sockets a kill dropped (the carrier saw the application close them), and how those calls ended | ${dropped.length}: ${byEnd(dropped)} |`,
    `| Relay calls by status | ${byEnd(rows)} |`,
    `| The carrier's errors on the calls (as Twilio would log them: a request to a killed replica unanswered, a relay dropped mid-reply) | ${byKind || 'none'} |`,
    `| Call slots of a killed replica's relay calls still held one lease (${LEASE_MS / 1000} s) after the kill | ${must(
      'relay call slots held past a lease',
      kills.reduce((n, k) => n + (k.slotsHeld ?? 0), 0),
    )} of ${kills.reduce((n, k) => n + k.relayCalls.length, 0)} |`,
    `| Call slots still held at the end | ${must('call slots leaked', liveLeases(redis, 'sb:calls:slots'))} |`,
  ];
}

/** The console drill's must-hold rows: every user signed in, and no session lost to a kill. */
function consoleRows(sessions: (ConsoleSession | null)[], reads: ConsoleRead[], kills: ApiKill[]): string[] {
  const made = sessions.filter((x): x is ConsoleSession => x !== null);
  const lost = made.filter((x) => reads.some((r) => r.session === x && r.answer.status === 401));
  const killedAt = (x: ConsoleSession) => kills.find((k) => k.pid === x.madeOn)?.at;
  const orphaned = made.filter((x) => killedAt(x) !== undefined);
  const readAfter = orphaned.filter((x) =>
    reads.some((r) => r.session === x && r.on !== x.madeOn && r.answer.at > killedAt(x)! && r.answer.status === 200),
  );
  return [
    `| Console users who could not sign in | ${must('console users not signed in', CONSOLE_USERS - made.length)} of ${CONSOLE_USERS} |`,
    `| Console reads | ${tally(reads.map((r) => r.answer))} |`,
    `| Console sessions lost (a read answered 401) | ${must('console sessions lost', lost.length)} |`,
    `| Console sessions made on a replica later killed and not read (200) on another after the kill | ${must('console sessions not read after a kill', orphaned.length - readAfter.length)} of ${orphaned.length} |`,
  ];
}

async function apiKills(server: PrivatePostgres): Promise<void> {
  const redis = await startPrivateRedis();
  const twilio = await startTwilio(TWILIO);
  // The deployment's public address, where the carrier reaches it: a load balancer before both API replicas.
  const front = await startTlsFront();
  const world = await startWorld({
    serverUrl: server.url,
    name: 'drill_api',
    redisUrl: redis.url,
    front,
    env: { SWITCHBOARD_CONTROLLER_CONCURRENCY: '4', ...carrierSettings(twilio, front.url) },
    company: { features: ['voice_api'], maxConcurrentCalls: 100, numbers: [NUMBER], users: CONSOLE_USERS },
  });
  const LOAD_MS = 40_000;
  // The account's 30 placements a minute.
  const RELAY_RATE = 0.45;
  const CONSOLE_RATE = 4;
  // Relay callees pause this long after each reply, so that kills land mid-call.
  const PAUSE_MS = 800;
  try {
    // Chat turns: the first words at once, the rest 1.5 s later, so a kill lands mid-stream.
    const runs = jobsCallsAndChat(world, new Map(), 1_500);
    const writes: Answer[] = [];
    const acknowledged: string[] = [];
    const creates: Answer[] = [];
    const turns: Turn[] = [];
    const placements: Answer[] = [];
    const placed: string[] = [];
    // What each relay callee said and heard, by its number.
    const talks = new Map<string, RelayTalk>();
    const sessions: (ConsoleSession | null)[] = [];
    const reads: ConsoleRead[] = [];
    const pick = (i: number) => world.deployment.api[i % world.deployment.api.length]!;
    const place = callPlacer(world, world.company.apiKey, null, placements, placed);
    const started = Date.now();
    const jobLoad = steady(2, LOAD_MS, 40, jobMaker(world, writes, acknowledged));
    const turnLoad = steady(4, LOAD_MS, 40, async (i) => {
      const created = await ask(pick(i).url!, world.company.apiKey, 'POST', '/api/v1/conversations', { agentId: world.company.agentId });
      creates.push(created);
      if (created.status !== 201) return;
      turns.push(await streamTurn(pick(i + 1).url!, world.company.apiKey, created.body.conversationId, `Turn ${i}`));
    });
    const relayLoad = steady(RELAY_RATE, LOAD_MS, 40, (i) => {
      const talk: RelayTalk = { said: [], acknowledged: [] };
      talks.set(calleeNumber(i), talk);
      twilio.phones[calleeNumber(i)] = { answer: 'human', caller: talker(CALLEE_LINES, PAUSE_MS, talk) };
      return place(i);
    });
    const consoleLoad = steady(CONSOLE_RATE, LOAD_MS, 40, consoleUser(world, sessions, reads));
    const kills: ApiKill[] = [];
    const slotChecks: Promise<void>[] = [];
    while (Date.now() - started < LOAD_MS - 5_000) {
      await sleep(5_000);
      const victim = world.deployment.api[kills.length % world.deployment.api.length]!;
      const conducted = await dbQuery<{ id: string }>(world.databaseUrl, 'select id from calls where lease_owner like $1', [
        `%:${victim.process.pid}:relay:%`,
      ]);
      const kill: ApiKill = { at: Date.now(), pid: victim.process.pid, relayCalls: conducted.map((c) => c.id) };
      kills.push(kill);
      await world.deployment.replace(victim);
      // Nobody renews the slots of the calls the killed replica conducted: each runs out within one lease.
      slotChecks.push(
        sleep(kill.at + LEASE_MS + 250 - Date.now()).then(
          () => void (kill.slotsHeld = liveLeases(redis, 'sb:calls:slots', kill.relayCalls)),
        ),
      );
    }
    const [j, t, r] = await Promise.all([jobLoad, turnLoad, relayLoad, consoleLoad, ...slotChecks]);
    const loadMs = Date.now() - started;
    await until(async () => (await openJobs(world.databaseUrl)) === 0, SETTLE_MS);
    await until(async () => (await dbQuery(world.databaseUrl, 'select id from calls where not final')).length === 0, SETTLE_MS);
    const count = await countJobs(world.databaseUrl, acknowledged, runs);
    const createdIds = creates.filter((a) => a.status === 201).map((a) => a.body.conversationId as string);
    const conversations = await dbQuery<{ id: string }>(world.databaseUrl, 'select id from conversations where id = any($1)', [createdIds]);
    const streamed = await streamedTurns(world.databaseUrl, turns);
    const unclean = turns.filter((x) => x.outcome === 'hang' || x.outcome.startsWith('refused: 5')).length;
    const answers = [...writes, ...creates, ...placements, ...reads.map((x) => x.answer)];
    const badAnswers = answers.filter((a) => a.error === 'hang' || (a.status >= 500 && a.status !== 503)).length;
    const cutMs = turns.filter((x) => x.outcome === 'cut').map((x) => x.ms);
    writeSection(
      RESULTS,
      'faults-api',
      [
        '## `kill -9` of an API replica mid-request, mid-SSE stream, mid-relay call and mid-console session',
        '',
        `Run ${new Date().toISOString()}: 2 API and 2 controller replicas (leases ${LEASE_MS / 1000} s) sharing a Redis of the drill's own, on the Twilio stand-in as carrier, ` +
          'which reaches the deployment through a TLS front before both API replicas (each connection to the next replica, on to the other when one refuses it); ' +
          `for ${seconds(loadMs)} conversations created and a streamed turn sent on each at 4/s (${t.fired}), ` +
          `each reply streamed over 1.5 s, jobs created at 2/s (${j.fired}, each retried with its idempotency key on the other replica until acknowledged), ` +
          `relay calls placed at ${RELAY_RATE}/s (${r.fired}, each retried with its Idempotency-Key until acknowledged) to callees who say ${CALLEE_LINES.length} lines over ConversationRelay, ` +
          `each ${PAUSE_MS / 1000} s after the agent's reply (0.3 s), and ${CONSOLE_USERS} console users signed in once each, then reading their session, calls and jobs ` +
          `over both replicas in turn at ${CONSOLE_RATE} reads/s; ${((answers.length + turns.length) / (loadMs / 1000)).toFixed(1)} requests/s. ` +
          'Every 5 s after the last new replica was up, an API replica was killed with SIGKILL and a new one started in its place.',
        '',
        '| Must hold | Figure |',
        '|---|---|',
        `| Faults injected: \`kill -9\` of an API replica | ${kills.length} (${kills.reduce((n, k) => n + k.relayCalls.length, 0)} relay calls conducted on them) |`,
        `| Connections a killed replica refused at the front, passed on to the other | ${front.refused} |`,
        `| Streamed turns by outcome | ${streamed.byOutcome} |`,
        `| Conversations acknowledged (201) and not in Postgres | ${must('conversations lost', createdIds.length - conversations.length)} of ${createdIds.length} |`,
        ...streamed.rows,
        `| Clients left hanging or answered 5xx by a live replica | ${must('unclean client errors', unclean + badAnswers)} |`,
        `| Streams cut by a kill: request to the client's error | ${range(cutMs)} |`,
        ...jobRows(count, 'Jobs'),
        ...(await relayRows(world, twilio, talks, placed, kills, redis)),
        ...consoleRows(sessions, reads, kills),
        '',
      ].join('\n'),
    );
    console.log(`faults: api: ${kills.length} kills, turns ${streamed.byOutcome}, ${streamed.summary}; ${JSON.stringify(count)}`);
  } finally {
    await world.close();
    await front.close();
    await twilio.close();
    await redis.stop();
  }
}

/** `switchboard_rate_limiter_fallback_total` summed over the API replicas, by scope. */
async function fallbacks(world: World): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const api of world.deployment.api)
    for (const [scope, n] of Object.entries(await limitFallbacks(api.process.metricsUrl))) out[scope] = (out[scope] ?? 0) + n;
  return out;
}

async function redisFaults(server: PrivatePostgres): Promise<void> {
  const CAP = 4;
  const REPLY_MS = 400;
  const LOAD_MS = 35_000;
  const LEASE_MS = 2_000;
  // The account's simultaneous calls, and placements faster than calls of CALLEE_LINES (about 9 s each) free them.
  const CALL_CAP = 3;
  const CALL_RATE = 0.45;
  // A call slot's lease (twice the calls' lease, pkg/runtime.ts).
  const CALL_SLOT_MS = 2 * LEASE_MS;
  const redis = await startPrivateRedis();
  const world = await startWorld({
    serverUrl: server.url,
    name: 'drill_redis',
    redisUrl: redis.url,
    env: {
      SWITCHBOARD_CONTROLLER_CONCURRENCY: '4',
      SWITCHBOARD_MODEL_CONCURRENCY: String(CAP),
      SWITCHBOARD_SIM_SCENARIOS: calleeNetwork(),
    },
    company: { features: ['voice_api'], maxConcurrentCalls: CALL_CAP },
  });
  try {
    const runs = new Map<string, number>();
    const greeted = new Map<string, number>();
    // Model calls open at the stand-in, sampled at each arrival.
    let open = 0;
    const samples: { at: number; open: number }[] = [];
    world.model.setDefault(async (request) => {
      const job = jobIn(request);
      if (job) runs.set(job.id, (runs.get(job.id) ?? 0) + 1);
      countGreeting(greeted, request);
      samples.push({ at: Date.now(), open: ++open });
      await sleep(REPLY_MS);
      open--;
      return { content: callIn(request) ? 'Understood.' : 'Done.' };
    });
    const writes: Answer[] = [];
    const acknowledged: string[] = [];
    const chats: Answer[] = [];
    const pick = (i: number) => world.deployment.api[i % 2]!;
    const started = Date.now();
    const jobLoad = steady(2, LOAD_MS, 40, jobMaker(world, writes, acknowledged));
    const chatLoad = steady(4, LOAD_MS, 40, async (i) => {
      const created = await ask(pick(i).url!, world.company.apiKey, 'POST', '/api/v1/conversations', { agentId: world.company.agentId });
      chats.push(created);
      if (created.status === 201)
        chats.push(
          await ask(pick(i + 1).url!, world.company.apiKey, 'POST', `/api/v1/conversations/${created.body.conversationId}/messages`, {
            message: `Turn ${i}`,
          }),
        );
    });
    const placements: Answer[] = [];
    const placed: string[] = [];
    const callLoad = steady(CALL_RATE, LOAD_MS, 40, callPlacer(world, world.company.apiKey, null, placements, placed));
    // The account's calls on the line (each holds a slot from before its row is written until after it ends), sampled every 100 ms.
    const onLine: { at: number; live: number }[] = [];
    let sampling = true;
    const callSampler = (async () => {
      for (; sampling; await sleep(100)) {
        const [row] = await dbQuery<{ n: string }>(world.databaseUrl, `select count(*) as n from calls where ${LIVE_CALL}`);
        onLine.push({ at: Date.now(), live: Number(row!.n) });
      }
    })();
    // Windows where the caps may be passed: Redis away, and one lease after it returned or was flushed.
    const unshared: [number, number][] = [];
    const callsUnshared: [number, number][] = [];
    await sleep(5_000);
    const down = Date.now();
    await redis.stop();
    await sleep(8_000);
    await redis.start();
    const back = Date.now();
    unshared.push([down, back + LEASE_MS + REPLY_MS]);
    callsUnshared.push([down, back + CALL_SLOT_MS]);
    await sleep(7_000);
    const flushed = Date.now();
    redis.cli('flushall');
    unshared.push([flushed, flushed + LEASE_MS + REPLY_MS]);
    callsUnshared.push([flushed, flushed + CALL_SLOT_MS]);
    const [j, c, p] = await Promise.all([jobLoad, chatLoad, callLoad]);
    const loadMs = Date.now() - started;
    await until(async () => (await openJobs(world.databaseUrl)) === 0, SETTLE_MS);
    await until(callsSettled(world), SETTLE_MS);
    sampling = false;
    await callSampler;
    const count = await countJobs(world.databaseUrl, acknowledged, runs);
    const calls = await callRows(world, placed, greeted);
    const leaked = liveLeases(redis, 'sb:model');
    const callSlotsLeaked = liveLeases(redis, 'sb:calls:slots');
    const callsShared = onLine.filter((x) => !callsUnshared.some(([a, b]) => x.at >= a && x.at <= b));
    // A call admitted while Redis was shared, with the cap's worth of the account's calls already on the line (its own row included).
    const spans = await dbQuery<{ created_at: Date; ended_at: Date | null }>(world.databaseUrl, 'select created_at, ended_at from calls');
    const liveAt = (t: Date) => spans.filter((o) => o.created_at <= t && (!o.ended_at || o.ended_at > t)).length;
    const isShared = (t: Date) => !callsUnshared.some(([a, b]) => t.getTime() >= a && t.getTime() <= b);
    const callsOverCap = spans.filter((c) => isShared(c.created_at) && liveAt(c.created_at) > CALL_CAP);
    const mostOnLine = (xs: typeof onLine) => Math.max(0, ...xs.map((x) => x.live));
    // Every slot free again: CAP turns at once all reach the model together.
    const before = samples.length;
    await Promise.all(
      Array.from({ length: CAP }, async (_, i) => {
        const created = await ask(pick(i).url!, world.company.apiKey, 'POST', '/api/v1/conversations', { agentId: world.company.agentId });
        chats.push(
          created,
          await ask(pick(i).url!, world.company.apiKey, 'POST', `/api/v1/conversations/${created.body.conversationId}/messages`, {
            message: 'After',
          }),
        );
      }),
    );
    const freeAfter = Math.max(...samples.slice(before).map((x) => x.open));
    const shared = samples.filter((x) => !unshared.some(([a, b]) => x.at >= a && x.at <= b));
    const overCap = shared.filter((x) => x.open > CAP).length;
    const all = [...writes, ...chats];
    const failed = all.filter((a) => a.status < 200 || a.status >= 300);
    // At the cap a placement is refused 429 (tenant_busy, or rate_limited past 30 a minute) and retried; nothing else.
    const placementsFailed = placements.filter((a) => ![200, 201, 429].includes(a.status));
    const fell = await fallbacks(world);
    const recovered = world.deployment.api.every((api) =>
      api.process.logs.some((l) => l.msg === 'redis is back: rate limits are shared across replicas again'),
    );
    writeSection(
      RESULTS,
      'faults-redis',
      [
        '## Redis down and back, and Redis flushed',
        '',
        `Run ${new Date().toISOString()}: 2 API and 2 controller replicas on a Redis of the drill's own, model calls capped at ${CAP} across the deployment ` +
          `(SWITCHBOARD_MODEL_CONCURRENCY, leases ${LEASE_MS / 1000} s), each answered in ${REPLY_MS} ms; for ${seconds(LOAD_MS)} a conversation and a turn on it at 4/s (${c.fired}), ` +
          `jobs at 2/s (${j.fired}) and calls placed at ${CALL_RATE}/s (${p.fired}, each retried with its Idempotency-Key until acknowledged, the load ending after ${seconds(loadMs)}) ` +
          `for an account of at most ${CALL_CAP} simultaneous calls to simulated callees who answer and say ${CALLEE_LINES.length} lines, so the cap binds; ` +
          `${((all.length + placements.length) / (loadMs / 1000)).toFixed(1)} requests/s. Redis was killed (SIGKILL) for ${seconds(back - down)} and started again, then flushed (FLUSHALL).`,
        '',
        '| Must hold | Figure |',
        '|---|---|',
        `| Faults injected | Redis down ${seconds(back - down)} and back; FLUSHALL once |`,
        `| Answers | ${tally(all)} |`,
        `| Requests failed (anything but 2xx) | ${must('requests failed for Redis', failed.length)} |`,
        `| Limit checks answered from memory while Redis was away (switchboard_rate_limiter_fallback_total) | ${
          Object.entries(fell)
            .map(([k, n]) => `${k} ${n}`)
            .join(', ') || 'none'
        } |`,
        `| API replicas that did not log Redis back (limits shared again) | ${must('replicas not back on Redis', recovered ? 0 : 1)} |`,
        `| Most model calls open at once while Redis was shared (cap ${CAP}) | ${Math.max(...shared.map((x) => x.open))} |`,
        `| Model calls admitted over the cap while Redis was shared (double-counted slots) | ${must('model calls over the cap', overCap)} |`,
        `| Most model calls open at once while Redis was away or within a lease of coming back or being flushed (each replica counts its own) | ${Math.max(0, ...samples.filter((x) => !shared.includes(x)).map((x) => x.open))} |`,
        `| Slot leases left live in Redis after the load | ${must('slots leaked in Redis', leaked)} |`,
        `| Slots free after the load (${CAP} turns at once all reach the model together) | ${freeAfter} of ${CAP} |`,
        ...jobRows(count, 'Jobs'),
        `| Placements | ${tally(placements)} |`,
        `| Placements failed (anything but 201, 200 or 429 at the cap) | ${must('placements failed for Redis', placementsFailed.length)}${placementsFailed.length ? ` (${tally(placementsFailed)})` : ''} |`,
        `| Calls acknowledged (201) | ${placed.length} |`,
        ...calls.rows,
        `| Most calls on the line at once while Redis was shared (cap ${CALL_CAP}; sampled every 100 ms, calls admitted while it was away included until they end) | ${mostOnLine(callsShared)} |`,
        `| Calls admitted over the cap while Redis was shared (placed with ${CALL_CAP} of the account's calls on the line) | ${must('calls admitted over the cap', callsOverCap.length)} |`,
        `| Most calls on the line at once while Redis was away or within a slot lease (${CALL_SLOT_MS / 1000} s) of coming back or being flushed (each replica counts its own) | ${mostOnLine(onLine.filter((x) => !callsShared.includes(x)))} |`,
        `| Call slots left live in Redis after the load | ${must('call slots leaked in Redis', callSlotsLeaked)} |`,
        '',
      ].join('\n'),
    );
    must('slots not free after the load', CAP - freeAfter);
    console.log(
      `faults: redis: ${tally(all)}; over cap ${overCap}; leaked ${leaked}; free ${freeAfter}; ${JSON.stringify(fell)}; ${JSON.stringify(count)}; placements ${tally(placements)}; calls ${byEnd(calls.calls)}; admitted over the cap ${callsOverCap.length} (most on the line ${mostOnLine(callsShared)})`,
    );
  } finally {
    await world.close();
    await redis.stop();
  }
}

/** The model's answers in turn, over every request of the drill: fine, slow, refused with Retry-After, failing. */
const MODEL_PATTERN: { kind: string; reply: (content: string) => ModelReply }[] = [
  { kind: 'ok', reply: (content) => ({ content }) },
  { kind: '429 (Retry-After 1 s)', reply: () => ({ fail: { status: 429, message: 'Rate limited', headers: { 'retry-after': '1' } } }) },
  { kind: 'ok', reply: (content) => ({ content }) },
  { kind: '500', reply: () => ({ fail: { status: 500, message: 'Internal error' } }) },
  { kind: 'slow (3 s to the first byte)', reply: (content) => ({ content, delayMs: 3_000 }) },
  { kind: 'ok', reply: (content) => ({ content }) },
  {
    kind: '503 (retry-after-ms 500)',
    reply: () => ({ fail: { status: 503, message: 'Overloaded', headers: { 'retry-after-ms': '500' } } }),
  },
  { kind: 'ok', reply: (content) => ({ content }) },
];

async function modelFaults(server: PrivatePostgres): Promise<void> {
  const world = await startWorld({ serverUrl: server.url, name: 'drill_model', env: { SWITCHBOARD_CONTROLLER_CONCURRENCY: '4' } });
  const LOAD_MS = 30_000;
  const TURN_HANG_MS = 60_000;
  try {
    const runs = new Map<string, number>();
    const injected = new Map<string, number>();
    let n = 0;
    world.model.setDefault((request) => {
      const job = jobIn(request);
      if (job) runs.set(job.id, (runs.get(job.id) ?? 0) + 1);
      const { kind, reply } = MODEL_PATTERN[n++ % MODEL_PATTERN.length]!;
      injected.set(kind, (injected.get(kind) ?? 0) + 1);
      return reply(REPLY);
    });
    const writes: Answer[] = [];
    const acknowledged: string[] = [];
    const turns: { conversationId: string; answer: Answer }[] = [];
    const pick = (i: number) => world.deployment.api[i % 2]!;
    const started = Date.now();
    const jobLoad = steady(1, LOAD_MS, 40, jobMaker(world, writes, acknowledged));
    const turnLoad = steady(3, LOAD_MS, 60, async (i) => {
      const created = await ask(pick(i).url!, world.company.apiKey, 'POST', '/api/v1/conversations', { agentId: world.company.agentId });
      if (created.status !== 201) return void turns.push({ conversationId: '', answer: created });
      const id = created.body.conversationId as string;
      turns.push({
        conversationId: id,
        answer: await ask(
          pick(i + 1).url!,
          world.company.apiKey,
          'POST',
          `/api/v1/conversations/${id}/messages`,
          { message: `Turn ${i}` },
          TURN_HANG_MS,
        ),
      });
    });
    const [j, t] = await Promise.all([jobLoad, turnLoad]);
    const loadMs = Date.now() - started;
    await until(async () => (await openJobs(world.databaseUrl)) === 0, SETTLE_MS);
    const count = await countJobs(world.databaseUrl, acknowledged, new Map());
    const ids = turns.map((x) => x.conversationId).filter(Boolean);
    const stored = await storedTurns(world.databaseUrl, ids);
    let wrong = 0;
    let unclean = 0;
    for (const { conversationId, answer } of turns) {
      const ok = answer.status === 200;
      // A failed turn answers the API's error shape: a 5xx naming the model's failure, never a hang.
      if (!ok && !(answer.status >= 500 && typeof answer.body?.error === 'string')) unclean++;
      if (!conversationId) continue;
      const { users, replies, charges } = stored(conversationId);
      // Succeeded: the whole reply, charged once; failed: no reply and no charge (none of its model calls finished).
      const whole =
        users === 1 && (ok ? replies.length === 1 && replies[0] === REPLY && charges === 1 : replies.length === 0 && charges === 0);
      if (!whole) wrong++;
    }
    const turnAnswers = turns.map((x) => x.answer);
    const attempts = await dbQuery<{ attempt_count: number; n: string }>(
      world.databaseUrl,
      'select attempt_count, count(*) as n from triggers group by attempt_count order by attempt_count',
    );
    writeSection(
      RESULTS,
      'faults-model',
      [
        '## Model server slow, 429, 500 and 503',
        '',
        `Run ${new Date().toISOString()}: 2 API and 2 controller replicas; for ${seconds(loadMs)} a conversation and a turn on it at 3/s (${t.fired}) and jobs at 1/s (${j.fired}), ` +
          `${((turnAnswers.length * 2 + writes.length) / (loadMs / 1000)).toFixed(1)} requests/s, the model answering in turn: ${MODEL_PATTERN.map((p) => p.kind).join(', ')}.`,
        '',
        '| Must hold | Figure |',
        '|---|---|',
        `| Faults injected (model answers by kind) | ${[...injected.entries()].map(([k, v]) => `${k}×${v}`).join(', ')} |`,
        `| Turns | ${tally(turnAnswers)} |`,
        `| Turns failed uncleanly (no answer within ${TURN_HANG_MS / 1000} s, or a refusal not in the API's error shape) | ${must('turns failed uncleanly', unclean)} |`,
        `| Turns stored or charged wrongly (succeeded: whole reply, one charge; failed: no reply, no charge) | ${must('turns stored or charged wrongly', wrong)} |`,
        `| Jobs by attempts | ${attempts.map((a) => `${a.attempt_count} attempt(s)×${a.n}`).join(', ')} |`,
        ...jobRows(count, 'Jobs', "the model's error after its tries, per the state table").filter((row) => !row.includes('run twice')),
        '',
      ].join('\n'),
    );
    console.log(`faults: model: turns ${tally(turnAnswers)}; unclean ${unclean}; wrong ${wrong}; ${JSON.stringify(count)}`);
  } finally {
    await world.close();
  }
}

const only = process.env.DRILL_ONLY?.split(',');
const drills: [string, (server: PrivatePostgres) => Promise<void>][] = [
  ['controllers', controllerKills],
  ['calls', callKills],
  ['receivers', receiverFaults],
  ['campaigns', campaignKills],
  ['clock', clockJumps],
  ['disk', diskFull],
  ['api', apiKills],
  ['postgres', postgresFaults],
  ['redis', redisFaults],
  ['model', modelFaults],
];
const server = await startPrivatePostgres();
const began = Date.now();
try {
  for (const [name, drill] of drills) {
    if (only && !only.includes(name)) continue;
    const t = Date.now();
    console.log(`faults: ${name}…`);
    await drill(server);
    console.log(`faults: ${name} took ${seconds(Date.now() - t)}`);
  }
} finally {
  server.close();
}
console.log(
  `faults: ${seconds(Date.now() - began)}; ${failures.length ? `FAILED: ${failures.join('; ')}` : 'every count that must be 0 is 0'}`,
);
if (failures.length) process.exitCode = 1;
