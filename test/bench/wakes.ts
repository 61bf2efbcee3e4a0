// `make bench`, timed wakes (issue #19): jobs created over REST with a start time (runAt), one
// controller replica (`switchboard controllers`, a child process at the deployment's defaults,
// replica.ts) waking for them, the model stand-in answering at once in a thread of its own:
// - JOBS jobs due in the same second, and JOBS due spread evenly over SPREAD_S seconds; each job's
//   start lag (startedAt − its due time) against what the replica's start rate alone explains: the
//   lag of an ideal queue starting jobs at the rate this replica reached with a backlog;
// - no polling: while nothing is due (the same-second jobs created, their time not come), how often
//   the replica's claim runs, read from Postgres' own counters, against what one wake costs.
// Each case has a time bound: jobs not finished by then are reported (FAIL), not waited for.
// Writes test/bench/results/wakes.{json,md} and prints the table.
import { loadavg } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import type { TestApp } from '../support/app.js';
import { benchCompany, enqueue } from './job-client.js';
import { machineInfo } from './machine.js';
import { inParallel } from './parallel.js';
import { capacityOverrides, onFreshReplica, reaches, resultsName, watchReplica, type Replica } from './replica.js';
import { writeResults } from './results.js';
import { stats, type Stats } from './stats.js';
import { startThread } from './threads.js';

const JOBS = 10_000;
const SPREAD_S = 60;
const SUBMITTERS = 16;
const TARGET_P99_MS = 1000;
/** The same-second jobs are due this long after their creation starts: time to create them and to watch an idle replica. */
const LEAD_S = 135;
/** Postgres flushes a backend's statistics within 10 s of its activity. */
const SETTLE_S = 12;
/** The shortest watch of the idle replica worth reporting; the manager's guard against a lost NOTIFY wakes it every 30 s. */
const MIN_IDLE_S = 15;
const GUARD_S = 30;
/** After the last due time, how long the jobs may take to finish. */
const BOUND_S = 180;

type Company = Awaited<ReturnType<typeof benchCompany>>;

/** Creates one job per due time; each job's id and due time as the API read it. */
async function createJobs(company: Company, dues: Date[], name: string): Promise<{ id: string; due: number }[]> {
  return inParallel(dues.length, SUBMITTERS, async (i) => {
    if (dues[i]!.getTime() <= Date.now()) throw new Error(`${name}: job ${i} could not be created before its due time`);
    const job = await enqueue(company.bench, company.agentId, `${name} job ${i}`, dues[i]!.toISOString());
    return { id: job.triggerId, due: Date.parse(job.nextRunAt!) };
  });
}

/** Postgres' counters: scans of the jobs table, transactions in the database, and the claim's statement runs when pg_stat_statements is loaded. */
async function counters(app: TestApp): Promise<{ triggerScans: number; transactions: number; claimStatements: number | null }> {
  const { db } = app.runtime.ctx;
  const [row] = (
    await db.raw(`select (select coalesce(seq_scan, 0) + coalesce(idx_scan, 0) from pg_stat_user_tables where relname = 'triggers')::int as "triggerScans",
      (select xact_commit from pg_stat_database where datname = current_database())::int as transactions`)
  ).rows;
  const claimStatements = await db
    .raw(
      `select coalesce(sum(calls), 0)::int as n from pg_stat_statements where dbid = (select oid from pg_database where datname = current_database()) and query like '%with recursive live as%'`,
    )
    .then((r) => r.rows[0].n as number)
    .catch(() => null);
  return { ...row, claimStatements };
}

const delta = (a: Awaited<ReturnType<typeof counters>>, b: typeof a) => ({
  triggerScans: b.triggerScans - a.triggerScans,
  transactions: b.transactions - a.transactions,
  claimStatements: a.claimStatements === null || b.claimStatements === null ? null : b.claimStatements - a.claimStatements,
});

/** Start lags of an ideal queue starting jobs due at `dues` (sorted) at `perSecond`, with no other delay. */
function capacityLags(dues: number[], perSecond: number): number[] {
  let free = -Infinity;
  return dues.map((due) => {
    const start = Math.max(due, free);
    free = start + 1000 / perSecond;
    return start - due;
  });
}

/** Waits for the jobs to finish (or the bound), then reads when each started. */
async function outcome(app: TestApp, company: Company, jobs: { id: string; due: number }[]) {
  const { db } = app.runtime.ctx;
  const lastDue = Math.max(...jobs.map((j) => j.due));
  const done = async () =>
    Number(
      (await db('triggers').where({ tenant_id: company.tenantId }).whereIn('status', ['succeeded', 'failed']).count({ n: '*' }))[0]!.n,
    );
  const finished = await reaches(done, jobs.length, (lastDue - Date.now()) / 1000 + BOUND_S);
  const rows: { id: string; status: string; started_at: Date | null }[] = await db('triggers')
    .where({ tenant_id: company.tenantId })
    .select('id', 'status', 'started_at');
  const startedAt = new Map(rows.filter((r) => r.started_at).map((r) => [r.id, r.started_at!.getTime()]));
  const lags = jobs.filter((j) => startedAt.has(j.id)).map((j) => startedAt.get(j.id)! - j.due);
  const starts = [...startedAt.values()];
  return {
    jobs: jobs.length,
    finished,
    succeeded: rows.filter((r) => r.status === 'succeeded').length,
    started: lags.length,
    lagMs: stats(lags),
    firstLagMs: Math.min(...lags),
    maxLagMs: Math.max(...lags),
    /** Jobs started per second, first start to last. */
    startsPerSecond: Math.round(((starts.length - 1) / ((Math.max(...starts) - Math.min(...starts)) / 1000)) * 10) / 10,
  };
}

async function sameSecond(app: TestApp) {
  const company = await benchCompany(app, 'Same-second wakes');
  const begin = Date.now();
  const due = new Date(Math.ceil((begin + LEAD_S * 1000) / 1000) * 1000);
  // The first job alone: one wake (NOTIFY, the claim, its look at the next due time), to compare the idle watch with.
  const beforeWake = await counters(app);
  const jobs = await createJobs(company, [due], 'Same-second first');
  await sleep(SETTLE_S * 1000);
  const afterWake = await counters(app);
  jobs.push(
    ...(await createJobs(
      company,
      Array.from({ length: JOBS - 1 }, () => due),
      'Same-second',
    )),
  );
  const createdS = (Date.now() - begin) / 1000 - SETTLE_S;
  let idle = null;
  if (Date.now() + (SETTLE_S + MIN_IDLE_S + 1) * 1000 < due.getTime()) {
    await sleep(SETTLE_S * 1000);
    const watchedFrom = Date.now();
    const before = await counters(app);
    await sleep(due.getTime() - 1000 - Date.now());
    const seconds = Math.round((Date.now() - watchedFrom) / 1000);
    idle = {
      seconds,
      whileIdle: delta(before, await counters(app)),
      oneWake: delta(beforeWake, afterWake),
      guardWakes: 1 + Math.floor(seconds / GUARD_S),
    };
  }
  return {
    due: due.toISOString(),
    createdS: Math.round(createdS * 10) / 10,
    idle,
    ...(await outcome(app, company, jobs)),
    dues: jobs.map((j) => j.due),
  };
}

async function spread(app: TestApp, leadS: number) {
  const company = await benchCompany(app, 'Spread wakes');
  const first = Date.now() + leadS * 1000;
  const dues = Array.from({ length: JOBS }, (_, i) => new Date(first + (SPREAD_S * 1000 * i) / JOBS));
  const begin = Date.now();
  const jobs = await createJobs(company, dues, 'Spread');
  return {
    due: new Date(first).toISOString(),
    createdS: Math.round((Date.now() - begin) / 100) / 10,
    idle: null,
    ...(await outcome(app, company, jobs)),
    dues: jobs.map((j) => j.due),
  };
}

/** A case's figures beside what the start rate alone explains, its list of due times dropped. */
function against<Case extends { dues: number[]; lagMs: Stats }>({ dues, ...c }: Case, perSecond: number) {
  const capacityLagMs: Stats = stats(
    capacityLags(
      [...dues].sort((a, b) => a - b),
      perSecond,
    ),
  );
  return { ...c, capacityLagMs, beyondCapacityP99Ms: Math.round(c.lagMs.p99 - capacityLagMs.p99) };
}

async function measure(app: TestApp, replica: Replica) {
  const watched = await watchReplica(replica, async () => {
    const same = await sameSecond(app);
    process.stderr.write(`same second: ${JSON.stringify({ ...same, dues: undefined })}\n`);
    // The first due once all are created (at the pace the same-second jobs were), so the API's work of creating them is not the replica's load.
    const spreadCase = await spread(app, Math.ceil(same.createdS * 1.25) + 10);
    // The replica's start rate with a backlog: the same-second jobs, all due at once.
    const perSecond = same.startsPerSecond;
    return { startsPerSecond: perSecond, sameSecond: against(same, perSecond), spread: against(spreadCase, perSecond) };
  });
  return { ...watched.result, eventLoopLagP99Ms: watched.eventLoopLagP99Ms, rssPeakMB: watched.rssPeakMB };
}

function targets(r: Awaited<ReturnType<typeof measure>>) {
  const verdict = (pass: boolean) => (pass ? 'PASS' : 'FAIL');
  const cases = [
    ['same second', r.sameSecond],
    [`spread over ${SPREAD_S} s`, r.spread],
  ] as const;
  const idle = r.sameSecond.idle;
  return [
    ...cases.flatMap(([name, c]) => [
      {
        target: `${name}: all ${JOBS} finished within ${BOUND_S} s of the last due time`,
        measured: `${c.succeeded} succeeded`,
        verdict: verdict(c.finished),
      },
      {
        target: `${name}: start lag p99 ≤ ${TARGET_P99_MS} ms`,
        measured: `${c.lagMs.p99} ms`,
        verdict: verdict(c.started === JOBS && c.lagMs.p99 <= TARGET_P99_MS),
      },
      {
        target: `${name}: start lag p99 beyond what the start rate explains ≤ ${TARGET_P99_MS} ms`,
        measured: `${c.beyondCapacityP99Ms} ms`,
        verdict: verdict(c.started === JOBS && c.beyondCapacityP99Ms <= TARGET_P99_MS),
      },
    ]),
    {
      target: `no polling: jobs-table scans with nothing due ≤ those of the guard's wakes (one per ${GUARD_S} s)`,
      measured: idle
        ? `${idle.whileIdle.triggerScans} in ${idle.seconds} s (one wake: ${idle.oneWake.triggerScans}; ${idle.guardWakes} guard wake${idle.guardWakes > 1 ? 's' : ''} at most)`
        : 'not measured: the jobs took too long to create',
      verdict: verdict(idle !== null && idle.whileIdle.triggerScans <= idle.guardWakes * idle.oneWake.triggerScans),
    },
  ];
}

async function benchmark() {
  const loadBefore = loadavg()[0]!;
  const model = await startThread<{ url: string }>(new URL('./model-server.js', import.meta.url), {});
  try {
    const measured = await onFreshReplica(model.ready.url, {}, measure);
    return {
      date: new Date().toISOString(),
      machine: machineInfo(loadBefore),
      settings: Object.keys(capacityOverrides()).length ? capacityOverrides() : 'the deployment defaults',
      ...measured,
      targets: targets(measured),
    };
  } finally {
    await model.close();
  }
}

function markdown(r: Awaited<ReturnType<typeof benchmark>>): string {
  const settings =
    typeof r.settings === 'string'
      ? r.settings
      : Object.entries(r.settings)
          .map(([k, v]) => `${k}=${v}`)
          .join(', ');
  const row = (name: string, c: Awaited<ReturnType<typeof benchmark>>['sameSecond']) =>
    `| ${name} | ${c.createdS} s | ${c.started} / ${c.succeeded} | ${c.firstLagMs} | ${c.lagMs.median} | **${c.lagMs.p99}** | ${c.maxLagMs} | ${c.capacityLagMs.median} | ${c.capacityLagMs.p99} | ${c.beyondCapacityP99Ms} |`;
  const idle = r.sameSecond.idle;
  const counts = (d: NonNullable<typeof idle>['whileIdle']) =>
    `${d.triggerScans} scans of the jobs table, ${d.transactions} transactions in the database${d.claimStatements === null ? '' : `, ${d.claimStatements} runs of the claim's statement`}`;
  return `# Timed wakes benchmark

${r.date} · ${r.machine.cpus} × ${r.machine.cpuModel} · ${r.machine.os} · Node ${r.machine.node}
· load average ${r.machine.loadAverage1m.before.toFixed(2)} before, ${r.machine.loadAverage1m.after.toFixed(2)} after

One controller replica (\`switchboard controllers\`, a child process of its own) at ${settings}; the API in the
benchmark's process; the model stand-in answers at once, in a thread of its own. ${JOBS} jobs created over REST with \`runAt\`
(${SUBMITTERS} submitters) due in the same second (${r.sameSecond.due}), then ${JOBS} due evenly over ${SPREAD_S} s. Start lag:
startedAt − the job's due time (server clock, 1 ms). What the start rate explains: the lag of an ideal queue starting the same
due times at the rate this replica started the same-second jobs (**${r.startsPerSecond} jobs/s**, first start to last), with no
other delay. Replica event loop lag p99 over both cases ${r.eventLoopLagP99Ms} ms, peak RSS ${r.rssPeakMB} MB.

| Case | Created in | Started / succeeded | First lag (ms) | Lag median | p99 | max | Rate alone: median | p99 | p99 beyond the rate |
|---|---|---|---|---|---|---|---|---|---|
${row('Same second', r.sameSecond)}
${row(`Spread over ${SPREAD_S} s`, r.spread)}

No polling: with the same-second jobs created and nothing due, from ${SETTLE_S} s after the last was created to a second before
they were due (${idle ? `${idle.seconds} s` : 'not measured: the jobs took too long to create'}): ${idle ? counts(idle.whileIdle) : '–'}.
One wake for comparison (the first job created alone: its NOTIFY, the replica's claim and its look at the next due time, and the
API's insert): ${idle ? counts(idle.oneWake) : '–'}. The manager's guard against a lost NOTIFY may wake it once per ${GUARD_S} s.
(Postgres' statistics, flushed by each backend within 10 s of its activity; claim statement runs only where pg_stat_statements is loaded.)

| Target | Measured | |
|---|---|---|
${r.targets.map((t) => `| ${t.target} | ${t.measured} | **${t.verdict}** |`).join('\n')}
`;
}

const result = await benchmark();
writeResults(resultsName('wakes'), result, markdown(result));
