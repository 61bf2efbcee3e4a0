// `make bench`, jobs half: Switchboard's autonomous jobs beside graphile-worker running a plain task
// that does a Switchboard job's work (jobs-server.ts; the throughput target compares the two), and
// beside graphile-worker's no-op jobs (the queue's own ceiling), on the same Postgres, at controller
// concurrency 1, 4 and 16. Per level and system, two phases:
// - latency: `concurrency` submitters each enqueue a job and wait for it to finish before the next,
//   so a worker slot is always free and the time to start is dispatch alone, not queueing;
// - throughput: a burst of jobs enqueued by 16 parallel submitters, timed from the first enqueue
//   to the last completion.
// Switchboard's jobs do real work (REST create on a new conversation, a model call through the
// openai client to a stand-in in a thread of its own, messages stored, credits charged), its API
// and its controllers each in a thread of their own as deployed. The regression gate: Switchboard
// at a baseline revision (BENCH_JOBS_BASELINE, main before issue #38's rework) measured the same way in
// the same run, before and after alternating, REPEATS times each. Writes
// test/bench/results/jobs.{json,md} and prints the table.
import { machineInfo } from './machine.js';
import { writeResults } from './results.js';
import { stats, type Stats } from './stats.js';
import { loadavg } from 'node:os';
import { createScratchDatabase, type ScratchDatabase } from '../support/database.js';
import { baselineMeaning, buildBaseline, type Baseline } from './baseline.js';
import { postgresCpuMs } from './cpu-time.js';
import { burst, closedLoop, graphileDriver, switchboardDriver, type Driver, type Job } from './job-drivers.js';
// Types only: importing a value would run the server thread's script here.
import type { JobsServerOptions, JobsServerReady, System } from './jobs-server.js';
import { startThread } from './threads.js';

const LEVELS = [1, 4, 16];
// Main before issue #38's rework: the regression gate's "before".
const DEFAULT_BASELINE = '9ebf181';
const BASELINE = process.env.BENCH_JOBS_BASELINE ?? DEFAULT_BASELINE;
// Before and after each measured this many times per level, alternating, so noise on the shared
// cores falls on both; each figure is the median over the repeats.
const REPEATS = Number(process.env.BENCH_JOBS_REPEATS ?? 6);
// The gate: after's jobs/s at least this share of before's.
const GATE_JOBS_PER_SECOND = 0.9;
// And after's queued→running median and p99 no more than this many times before's, give or take
// the 1 ms the times are stamped to.
const GATE_LATENCY = 1.1;
const STAMP_MS = 1;
// Both systems are measured warm, as a server that has been up a while: a burst as large as the
// measured one first, so V8 has compiled the hot paths (on these two cores its optimizing compiler
// otherwise takes a large share of the first few hundred jobs) and Postgres has statistics on the tables.
const WARMUP_JOBS = 1000;
// Enough that the p99 the latency target compares is not one or two stragglers (with 150 it was the
// 2nd-worst job, and the verdict flipped between runs by a few ms).
const LATENCY_JOBS = 600;
// A burst of 300 took well under a second at every level, and its rate moved 20-30% between runs.
const THROUGHPUT_JOBS = 1000;
const SUBMITTERS = 16;
// Production's default pool size, given to each graphile-worker thread.
const POOL_MAX = 20;
// Switchboard's threads: 20 query and 20 lock connections and the listener (SWITCHBOARD_DB_POOL_MAX
// bounds all three), the query pool of production's default and the locks the runs at most hold.
const SWITCHBOARD_POOL_MAX = 41;
// Issue #40's target: this share of what graphile-worker does running the same work alone (the long-term goal is 1).
const TARGET_SHARE_OF_WORK_ALONE = 0.75;

interface Phase {
  jobs: number;
  /** Enqueue → start: Switchboard's queued→running, graphile-worker's add-to-start. */
  startLatencyMs: Stats;
  /** Acknowledged → start; negative when the job started before its submitter heard back. */
  ackToStartMs: Stats;
}

/** Switchboard's throughput phase: the CPU ms a job cost its API's thread, its controllers' and Postgres (null: unreadable here). */
interface CpuPerJob {
  api: number | null;
  controllers: number | null;
  postgres: number | null;
}

interface Level {
  concurrency: number;
  /** Other work on the machine, when this level started. */
  loadAverage1m: number;
  latency: Phase;
  throughput: Phase & { seconds: number; jobsPerSecond: number };
  cpuMsPerJob?: CpuPerJob;
}

function phase(jobs: Job[]): Phase {
  return {
    jobs: jobs.length,
    startLatencyMs: stats(jobs.map((j) => j.started - j.enqueued)),
    ackToStartMs: stats(jobs.map((j) => j.started - j.acknowledged)),
  };
}

function throughput(jobs: Job[]): Level['throughput'] {
  const seconds = (Math.max(...jobs.map((j) => j.finished)) - Math.min(...jobs.map((j) => j.enqueued))) / 1000;
  return { ...phase(jobs), seconds: Math.round(seconds * 100) / 100, jobsPerSecond: Math.round((jobs.length / seconds) * 10) / 10 };
}

/** What is measured: the systems of jobs-server.ts, and Switchboard at the baseline revision. */
type Measured = System | 'switchboard-baseline';

/** Where a system runs: its jobs-server.js (the working tree's or the baseline's) and its database. */
interface Place {
  dist: URL;
  databaseUrl: string;
}

/** A server thread of a jobs-server.js. */
const startServer = (dist: URL, options: JobsServerOptions) =>
  startThread<JobsServerReady>(new URL('test/bench/jobs-server.js', dist), options);

async function measure(system: Measured, concurrency: number, { dist, databaseUrl }: Place, modelUrl: string): Promise<Level> {
  const loadAverage1m = loadavg()[0]!;
  const isSwitchboard = system === 'switchboard' || system === 'switchboard-baseline';
  const server = isSwitchboard
    ? await startServer(dist, { role: 'switchboard', concurrency, poolMax: SWITCHBOARD_POOL_MAX, databaseUrl, modelUrl })
    : await startServer(dist, {
        role: 'graphile-worker',
        concurrency,
        poolMax: POOL_MAX,
        databaseUrl,
        modelUrl: system === 'graphile-worker-work' ? modelUrl : undefined,
      });
  // Switchboard's controllers run in a thread of their own, apart from its API, as deployed.
  const controllers = isSwitchboard
    ? await startServer(dist, { role: 'switchboard-controllers', concurrency, poolMax: SWITCHBOARD_POOL_MAX, databaseUrl, modelUrl })
    : null;
  let driver: Driver | undefined;
  try {
    driver = isSwitchboard
      ? switchboardDriver(server.ready)
      : await graphileDriver(server.worker, databaseUrl, system === 'graphile-worker' ? 'noop' : 'work', SUBMITTERS);
    await burst(driver, WARMUP_JOBS, SUBMITTERS);
    const latency = phase(await closedLoop(driver, LATENCY_JOBS, concurrency));
    const cpuNow = () => [server.cpuMs(), controllers?.cpuMs() ?? null, postgresCpuMs()];
    const cpuBefore = cpuNow();
    const jobs = await burst(driver, THROUGHPUT_JOBS, SUBMITTERS);
    const [api, ctl, postgres] = cpuNow().map((ms, i) =>
      ms === null || cpuBefore[i] === null ? null : Math.round(((ms - cpuBefore[i]!) / jobs.length) * 1000) / 1000,
    );
    const cpuMsPerJob = isSwitchboard ? { cpuMsPerJob: { api, controllers: ctl, postgres } } : {};
    return { concurrency, loadAverage1m, latency, throughput: throughput(jobs), ...cpuMsPerJob };
  } finally {
    await driver?.close();
    await controllers?.close();
    await server.close();
  }
}

interface Target {
  concurrency: number;
  switchboardP99Ms: number;
  graphileWorkerP99Ms: number;
  latency: 'PASS' | 'FAIL';
  switchboardJobsPerSecond: number;
  /** graphile-worker running a task that does a Switchboard job's work alone. */
  workAloneJobsPerSecond: number;
  throughput: 'PASS' | 'FAIL';
}

function targets(switchboard: Level[], graphile: Level[], workAlone: Level[]): Target[] {
  return switchboard.map((s, i) => {
    const [g, w] = [graphile[i]!, workAlone[i]!];
    return {
      concurrency: s.concurrency,
      switchboardP99Ms: s.latency.startLatencyMs.p99,
      graphileWorkerP99Ms: g.latency.startLatencyMs.p99,
      latency: s.latency.startLatencyMs.p99 <= g.latency.startLatencyMs.p99 ? 'PASS' : 'FAIL',
      switchboardJobsPerSecond: s.throughput.jobsPerSecond,
      workAloneJobsPerSecond: w.throughput.jobsPerSecond,
      throughput: s.throughput.jobsPerSecond >= TARGET_SHARE_OF_WORK_ALONE * w.throughput.jobsPerSecond ? 'PASS' : 'FAIL',
    };
  });
}

/** The median of each figure over a level's repeats (for two, their mean). */
function median(runs: Level[]): Level {
  const mid = (values: number[]): number => {
    const sorted = [...values].sort((a, b) => a - b);
    const half = sorted.length / 2;
    return Number.isInteger(half) ? Math.round(((sorted[half - 1]! + sorted[half]!) / 2) * 1000) / 1000 : sorted[Math.floor(half)]!;
  };
  const combine = <T>(pick: (l: Level) => T): T => {
    const first = pick(runs[0]!);
    if (first === null || first === undefined) return first;
    if (typeof first === 'number') return mid(runs.map((l) => pick(l) as number)) as T;
    return Object.fromEntries(Object.keys(first as object).map((k) => [k, combine((l) => (pick(l) as Record<string, unknown>)[k])])) as T;
  };
  return combine((l) => l);
}

interface Gate {
  concurrency: number;
  jobsPerSecond: { before: number[]; after: number[]; ratio: number; verdict: 'PASS' | 'FAIL' };
  queuedToRunningMs: { before: Stats; after: Stats; verdict: 'PASS' | 'FAIL' };
  /** Medians over the repeats. */
  cpuMsPerJob: { before?: CpuPerJob; after?: CpuPerJob };
}

/** After (the working tree) against before (the baseline), each level's medians over the repeats. */
function gates(before: Level[][], after: Level[][]): Gate[] {
  return LEVELS.map((concurrency, i) => {
    const [b, a] = [median(before[i]!), median(after[i]!)];
    const ratio = Math.round((a.throughput.jobsPerSecond / b.throughput.jobsPerSecond) * 100) / 100;
    const within = (x: number, y: number) => x <= Math.max(y * GATE_LATENCY, y + STAMP_MS);
    const [bl, al] = [b.latency.startLatencyMs, a.latency.startLatencyMs];
    return {
      concurrency,
      jobsPerSecond: {
        before: before[i]!.map((l) => l.throughput.jobsPerSecond),
        after: after[i]!.map((l) => l.throughput.jobsPerSecond),
        ratio,
        verdict: a.throughput.jobsPerSecond >= GATE_JOBS_PER_SECOND * b.throughput.jobsPerSecond ? 'PASS' : 'FAIL',
      },
      queuedToRunningMs: { before: bl, after: al, verdict: within(al.median, bl.median) && within(al.p99, bl.p99) ? 'PASS' : 'FAIL' },
      cpuMsPerJob: { before: b.cpuMsPerJob, after: a.cpuMsPerJob },
    };
  });
}

function markdown(r: Awaited<ReturnType<typeof benchmark>>): string {
  const row = (name: string, l: Level) =>
    `| ${name} | ${l.concurrency} | ${l.latency.startLatencyMs.median} | ${l.latency.startLatencyMs.p99} | ${l.latency.ackToStartMs.median} | ${l.latency.ackToStartMs.p99} | **${l.throughput.jobsPerSecond}** | ${l.throughput.startLatencyMs.median} | ${l.throughput.startLatencyMs.p99} | ${l.loadAverage1m.toFixed(1)} |`;
  const rows = LEVELS.flatMap((_, i) => [
    row('Switchboard', r.switchboard[i]!),
    row('graphile-worker (no-op)', r.graphileWorker[i]!),
    row('graphile-worker (the work alone)', r.graphileWorkerWork[i]!),
  ]);
  const ratio = (a: number, b: number) => (a / b).toFixed(2);
  const work = LEVELS.map((concurrency, i) => {
    const [s, g, w] = [r.switchboard[i]!, r.graphileWorker[i]!, r.graphileWorkerWork[i]!].map((l) => l.throughput.jobsPerSecond);
    return `| ${concurrency} | ${ratio(s!, g!)} | ${ratio(s!, w!)} | ${ratio(w!, g!)} |`;
  });
  const verdicts = r.targets.map(
    (t) =>
      `| ${t.concurrency} | ${t.switchboardP99Ms} ≤ ${t.graphileWorkerP99Ms} | **${t.latency}** | ${t.switchboardJobsPerSecond} ≥ ${TARGET_SHARE_OF_WORK_ALONE} × ${t.workAloneJobsPerSecond} | **${t.throughput}** |`,
  );
  const list = (xs: number[]) => xs.join(', ');
  const cpu = (c?: CpuPerJob) =>
    c ? [c.api, c.controllers, c.postgres].map((ms) => (ms === null ? '?' : ms.toFixed(2))).join(' · ') : '?';
  const cpuRows = r.gates.map((g) => `| ${g.concurrency} | ${cpu(g.cpuMsPerJob.before)} | ${cpu(g.cpuMsPerJob.after)} |`);
  const gateRows = r.gates.map(
    (g) =>
      `| ${g.concurrency} | ${list(g.jobsPerSecond.before)} | ${list(g.jobsPerSecond.after)} | ${g.jobsPerSecond.ratio.toFixed(2)} | **${g.jobsPerSecond.verdict}** | ${g.queuedToRunningMs.before.median} / ${g.queuedToRunningMs.before.p99} | ${g.queuedToRunningMs.after.median} / ${g.queuedToRunningMs.after.p99} | **${g.queuedToRunningMs.verdict}** |`,
  );
  return `# Jobs benchmark: Switchboard beside graphile-worker

${r.date} · ${r.machine.cpus} × ${r.machine.cpuModel} · ${r.machine.os} · Node ${r.machine.node} · Postgres: ${r.database} (every system, a database each)
· load average ${r.machine.loadAverage1m.before.toFixed(2)} before, ${r.machine.loadAverage1m.after.toFixed(2)} after · graphile-worker ${r.graphileWorkerVersion}

## Regression gate: the working tree against ${r.baseline.revision} (${r.baseline.commit.slice(0, 12)})

Switchboard at the baseline revision (${baselineMeaning(r.baseline.revision, DEFAULT_BASELINE)}), checked out and built beside the working tree and run
the same way in the same run, each on a database of its own; before and after alternate, ${REPEATS} times each per level.
Jobs/s: the throughput phase of each repeat (below); the verdict compares their medians, after ≥ ${GATE_JOBS_PER_SECOND} × before.
Queued→running: the latency phase's median / p99 in ms (medians over the repeats), after ≤ ${GATE_LATENCY} × before or
before + ${STAMP_MS} ms (times are stamped to the ms). Load average when each level started: ${r.gates.map((g, i) => `${g.concurrency}: ${r.switchboard[i]!.loadAverage1m.toFixed(1)}`).join(', ')}.

| Concurrency | Jobs/s before | Jobs/s after | After ÷ before | Gate | Queued→running before | After | Gate |
|---|---|---|---|---|---|---|---|
${gateRows.join('\n')}

Where the time goes (not a gate): the CPU time a job of the throughput phase cost, medians over the repeats, in ms: the API's
thread · the controllers' thread · Postgres (every backend). Busy cores shared with other work slow a rate; these move less.

| Concurrency | CPU ms a job before | After |
|---|---|---|
${cpuRows.join('\n')}

## Beside graphile-worker (Switchboard: the working tree, medians over its repeats)

Switchboard jobs do real work: created over REST on a new conversation, one model call through the openai client (the
stand-in, in a thread of its own, answers at once), messages stored, credits charged. The target's comparison is
graphile-worker running a task that does that work alone: the same model call through the same client, and the task and
reply stored as two rows; none of Switchboard's API, authentication, conversation, context reads, tools, credits or state
machine. Beside them, graphile-worker running a task that does nothing shows the queue's own ceiling.
Switchboard runs as deployed (the Helm chart's \`switchboard api\` and \`switchboard controllers\`): its API and its controllers
each in a worker thread of their own, with ${SWITCHBOARD_POOL_MAX} connections each (20 for queries, 20 for conversation locks, a listener), graphile-worker's pool ${POOL_MAX}; Switchboard's jobs created and read from the
benchmark's thread over keep-alive HTTP (node's http, the cheapest client on these shared cores); graphile-worker runs in
one thread, its jobs added from the benchmark's thread. The machine's cores are shared by all threads and Postgres. Each system
is measured warm: a burst of ${WARMUP_JOBS} jobs, not timed, before the phases. Latency phase:
\`concurrency\` submitters each enqueue a job and wait for it to finish (${LATENCY_JOBS} jobs), so a slot is always free.
Throughput phase: ${THROUGHPUT_JOBS} jobs enqueued by ${SUBMITTERS} parallel submitters, first enqueue to last completion.
Enqueue → start is Switchboard's createdAt → startedAt (server clock) and graphile-worker's addJob call → task start;
acknowledged → start counts from the 202 / addJob's return (negative: the job started before the submitter heard back).
Times in ms (1 ms resolution).

| System | Concurrency | Enqueue→start median | p99 | Ack→start median | p99 | Jobs/s | Burst enqueue→start median | p99 | Load average |
|---|---|---|---|---|---|---|---|---|---|
${rows.join('\n')}

| Concurrency | Target: Switchboard queued→running p99 ≤ graphile-worker add-to-start p99 | | Target: Switchboard jobs/s ≥ ${TARGET_SHARE_OF_WORK_ALONE} × graphile-worker doing the work alone | |
|---|---|---|---|---|
${verdicts.join('\n')}

Jobs/s ratios (not a target): how much of graphile-worker's no-op rate the work itself leaves, and what Switchboard keeps of that.

| Concurrency | Switchboard ÷ graphile-worker no-op | Switchboard ÷ graphile-worker doing the work alone | Work alone ÷ no-op |
|---|---|---|---|
${work.join('\n')}
`;
}

async function benchmark() {
  // Other work on the machine shows in every number; the load average says how much there was.
  const loadBefore = loadavg()[0]!;
  const baseline: Baseline = buildBaseline(BASELINE);
  const current = new URL('../../', import.meta.url);
  // The baseline's schema is its own: a database migrated by its own code.
  const { createScratchDatabase: createBaselineDatabase } = (await import(new URL('test/support/database.js', baseline.dist).href)) as {
    createScratchDatabase: () => Promise<ScratchDatabase>;
  };
  const database = await createScratchDatabase();
  const baselineDatabase = await createBaselineDatabase();
  const places: Record<Measured, Place> = {
    switchboard: { dist: current, databaseUrl: database.url },
    'switchboard-baseline': { dist: baseline.dist, databaseUrl: baselineDatabase.url },
    'graphile-worker': { dist: current, databaseUrl: database.url },
    'graphile-worker-work': { dist: current, databaseUrl: database.url },
  };
  // The no-op reply: a job that gets it succeeds after one model call.
  const model = await startThread<{ url: string }>(new URL('./model-server.js', import.meta.url), {});
  try {
    const runs: Record<Measured, Level[][]> = {
      switchboard: [],
      'switchboard-baseline': [],
      'graphile-worker': [],
      'graphile-worker-work': [],
    };
    for (const [i, concurrency] of LEVELS.entries()) {
      // Before and after alternate, the first of each pair swapping, so neither always meets a
      // warmer machine; graphile-worker's two between them.
      const pairs = Array.from({ length: REPEATS }, (_, r): Measured[] =>
        (r + i) % 2 ? ['switchboard', 'switchboard-baseline'] : ['switchboard-baseline', 'switchboard'],
      );
      const half = Math.ceil(REPEATS / 2);
      const order: Measured[] = [...pairs.slice(0, half).flat(), 'graphile-worker', 'graphile-worker-work', ...pairs.slice(half).flat()];
      for (const system of Object.keys(runs) as Measured[]) runs[system].push([]);
      for (const system of order) {
        const level = await measure(system, concurrency, places[system], model.ready.url);
        runs[system][i]!.push(level);
        process.stderr.write(`${system} at concurrency ${concurrency}: ${JSON.stringify(level)}\n`);
      }
    }
    const { version } = (await import('graphile-worker/package.json', { with: { type: 'json' } })).default as { version: string };
    const [switchboard, graphileWorker, graphileWorkerWork] = (['switchboard', 'graphile-worker', 'graphile-worker-work'] as const).map(
      (system) => runs[system].map(median),
    );
    return {
      date: new Date().toISOString(),
      machine: machineInfo(loadBefore),
      database: database.server,
      graphileWorkerVersion: version,
      jobs: { warmup: WARMUP_JOBS, latency: LATENCY_JOBS, throughput: THROUGHPUT_JOBS, submitters: SUBMITTERS, repeats: REPEATS },
      baseline: { revision: BASELINE, commit: baseline.commit },
      gates: gates(runs['switchboard-baseline'], runs.switchboard),
      switchboard: switchboard!,
      graphileWorker: graphileWorker!,
      graphileWorkerWork: graphileWorkerWork!,
      targets: targets(switchboard!, graphileWorker!, graphileWorkerWork!),
      runs,
    };
  } finally {
    await model.close();
    await database.drop();
    await baselineDatabase.drop();
  }
}

const result = await benchmark();
writeResults('jobs', result, markdown(result));
