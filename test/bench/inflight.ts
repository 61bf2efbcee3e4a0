// `make bench`, in-flight capacity (issue #19): how much I/O-bound work one controller replica carries
// at once, the replica (`switchboard controllers`) in a child process of its own at the deployment's
// defaults (replica.ts), the API in this process, the model stand-in in a thread of its own:
// - jobs: JOBS jobs due at once, each one model call answered after JOB_MODEL_MS; the time to
//   finish them all against the ideal (JOBS × JOB_MODEL_MS ÷ in-flight capacity), the most running at
//   once, the replica's event loop lag p99 and peak RSS meanwhile;
// - calls: CALLS calls placed at once to the simulated network, each callee saying LINES lines (at a
//   person's pace, then instantly), the agent's model answering each after CALL_MODEL_MS; the time
//   from a callee's line to the agent's reply beyond the model's own, the most calls live at once,
//   the replica's lag and RSS meanwhile.
// Each part has a time bound: work not done by then is reported unfinished (FAIL), not waited for.
// The parts whose target reads a run's tail (the jobs' lag, the target calls' reply p99) run RUNS
// times, each on a fresh replica: one run's tail moves with this shared machine's neighbours.
// Writes test/bench/results/inflight.{json,md} and prints the table.
import { writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { updateTenant } from '../../pkg/tenants/settings.js';
import type { ScenarioTable } from '../../pkg/voice/gateways/sim.js';
import { hrMs } from './clock.js';
import { benchCompany, enqueue } from './job-client.js';
import { machineInfo } from './machine.js';
import type { ModelAnswer, ModelMessage, ModelTiming } from './model-server.js';
import { inParallel } from './parallel.js';
import {
  capacityOverrides,
  DEPLOYED_HEAP_LIMIT_MB,
  DEPLOYED_SEMI_SPACE_MB,
  onFreshReplica,
  reaches,
  resultsName,
  watchReplica,
} from './replica.js';
import { writeResults } from './results.js';
import { NEW_ACCOUNT_CALLS_PER_MINUTE, type TestApp } from '../support/app.js';
import { peakOverlap, stats } from './stats.js';
import { startThread, type Thread } from './threads.js';

const JOBS = 2000;
const JOB_MODEL_MS = 2000;
const CALLS = 1000;
const LINES = 20;
const CALL_MODEL_MS = 500;
/**
 * How long callee `i` takes to say its next line once the agent's reply is said: at a person's pace
 * (a line of a few words, then the carrier's end-of-speech detection), PERSON_MS.from to PERSON_MS.to,
 * each callee its own, spread evenly; or at once, which keeps the replica as busy as its one core allows.
 */
const PERSON_MS = { from: 1500, to: 2500 };
const CALLEE_PACES = {
  person: (i: number) => PERSON_MS.from + Math.round((i / CALLS) * (PERSON_MS.to - PERSON_MS.from)),
  instant: () => 0,
};
type Pace = keyof typeof CALLEE_PACES;
/** Calls placed evenly over this long, as a dialler or the day's traffic brings them, before all are on the line at once. */
const RAMP_MS = 20_000;
/**
 * The calls parts, each on a fresh replica: the target's (a person's pace, the calls placed over
 * RAMP_MS), then the same placed all at once (the burst of CALLS answered in a few seconds), then
 * callees answering instantly, which keeps the replica as busy as its one core allows (its most turns a second).
 */
const CALL_PARTS = [
  { pace: 'person', rampMs: RAMP_MS, target: true },
  { pace: 'person', rampMs: 0, target: false },
  { pace: 'instant', rampMs: 0, target: false },
] as const satisfies { pace: Pace; rampMs: number; target: boolean }[];
type CallPart = (typeof CALL_PARTS)[number];
const SUBMITTERS = 16;
/** What one replica must carry at once, and within what. */
const TARGET = { jobsInFlight: 1000, liveCalls: CALLS, eventLoopLagP99Ms: 50, rssMB: 400, replyBeyondModelP99Ms: 50 };
/** Runs of a part whose target reads a tail; the run with the median figure is the one reported, every run's figure beside it. */
const RUNS = 3;
/** How long each part may take before what is left is reported unfinished. */
const JOBS_BOUND_S = 150;
const CALLS_BOUND_S = 180;
/** The simulated network's callees: each answers at once and says its lines, each at once after the agent's reply. */
const AREA_CODES = ['206', '212', '213', '305', '312', '415', '503', '617', '702', '808'];
const calleeNumber = (i: number) => `+1${AREA_CODES[Math.floor(i / 100)]}55501${String(i % 100).padStart(2, '0')}`;
const calleeLine = (i: number, k: number) => `Callee ${i}, line ${k}.`;
const CALLEE_LINE = /^Callee (\d+), line (\d+)\.$/;

type Model = Thread<{ url: string }>;

const setModel = (model: Model, answer: ModelAnswer) => model.worker.postMessage({ answer } satisfies ModelMessage);

async function modelTimings(model: Model): Promise<ModelTiming[]> {
  const answered = new Promise<{ timings: ModelTiming[] }>((resolve) => model.worker.once('message', resolve));
  model.worker.postMessage('timings' satisfies ModelMessage);
  return (await answered).timings;
}

/** How many times each value occurs. */
const countBy = (values: string[]): Record<string, number> =>
  Object.fromEntries([...new Set(values)].map((v) => [v, values.filter((x) => x === v).length]));
const seconds = (ms: number) => Math.round(ms / 10) / 100;
const verdict = (pass: boolean) => (pass ? 'PASS' : 'FAIL');

/** `measure` run `runs` times; the run whose `figure` is the median, with each run's figure in order. */
async function medianRun<T>(runs: number, measure: () => Promise<T>, figure: (run: T) => number): Promise<T & { figures: number[] }> {
  const measured: T[] = [];
  for (let i = 0; i < runs; i++) measured.push(await measure());
  const median = [...measured].sort((a, b) => figure(a) - figure(b))[Math.floor(runs / 2)]!;
  return { ...median, figures: measured.map(figure) };
}

async function measureJobs(model: Model) {
  setModel(model, { type: 'slow', ms: JOB_MODEL_MS });
  // All JOBS queued before the replica starts: what it carries at once is its own capacity, not the API's pace of creating them.
  const queueAll = async (app: TestApp) => {
    const company = await benchCompany(app, 'In-flight jobs');
    const begin = Date.now();
    await inParallel(JOBS, SUBMITTERS, (i) => enqueue(company.bench, company.agentId, `In-flight job ${i}`));
    return { createdS: seconds(Date.now() - begin) };
  };
  return onFreshReplica(
    model.ready.url,
    {},
    async (app, replica, { createdS }) => {
      const { db } = app.runtime.ctx;
      const done = async () => Number((await db('triggers').whereIn('status', ['succeeded', 'failed']).count({ n: '*' }))[0]!.n);
      const watched = await watchReplica(replica, async () => {
        const finished = await reaches(done, JOBS, JOBS_BOUND_S);
        return { createdS, finished, endedAt: Date.now() };
      });
      const rows: { status: string; error_message: string | null; started_at: Date | null; completed_at: Date | null }[] = await db(
        'triggers',
      ).select('status', 'error_message', 'started_at', 'completed_at');
      const started = rows.filter((r): r is typeof r & { started_at: Date } => r.started_at !== null);
      const completed = started.filter((r): r is typeof r & { completed_at: Date } => r.completed_at !== null);
      const first = Math.min(...started.map((r) => r.started_at.getTime()));
      const lastDone = Math.max(...completed.map((r) => r.completed_at.getTime()));
      const peakInFlight = peakOverlap(
        started.map((r) => ({ start: r.started_at.getTime(), end: r.completed_at?.getTime() ?? watched.result.endedAt })),
      );
      const elapsedS = seconds((watched.result.finished ? lastDone : watched.result.endedAt) - first);
      const completedPerSecond = Math.round((completed.length / elapsedS) * 10) / 10;
      return {
        jobs: JOBS,
        modelMs: JOB_MODEL_MS,
        createdS: watched.result.createdS,
        finished: watched.result.finished,
        boundS: JOBS_BOUND_S,
        succeeded: rows.filter((r) => r.status === 'succeeded').length,
        failed: rows.filter((r) => r.status === 'failed').length,
        /** Why jobs failed: each error and how many jobs ended with it. */
        failures: countBy(rows.filter((r) => r.status === 'failed').map((r) => r.error_message ?? '(none)')),
        completed: completed.length,
        elapsedS,
        completedPerSecond,
        /** All JOBS at the rate reached; the measured time when they all finished. */
        projectedS: watched.result.finished ? elapsedS : Math.round(JOBS / completedPerSecond),
        peakInFlight,
        idealS: {
          atTarget: (JOBS * JOB_MODEL_MS) / 1000 / TARGET.jobsInFlight,
          atPeakInFlight: Math.round((JOBS * JOB_MODEL_MS) / 1000 / peakInFlight),
        },
        startDelayMs: stats(started.map((r) => r.started_at.getTime() - first)),
        eventLoopLagP99Ms: watched.eventLoopLagP99Ms,
        rssPeakMB: watched.rssPeakMB,
        problems: watched.problems,
      };
    },
    queueAll,
  );
}

/** Each callee's lines in a scenario of its own, each said `calleeMs(i)` after the agent's reply, in a file the replica reads (SWITCHBOARD_SIM_SCENARIOS). */
function writeNetwork(calleeMs: (i: number) => number): string {
  const numbers = Object.fromEntries(
    Array.from({ length: CALLS }, (_, i) => [
      calleeNumber(i),
      { scenario: 'answer' as const, ring_ms: 0, reply_ms: calleeMs(i), lines: Array.from({ length: LINES }, (_, k) => calleeLine(i, k)) },
    ]),
  );
  const table: ScenarioTable = { default: { scenario: 'busy', ring_ms: 0, reply_ms: 0, lines: [] }, numbers };
  const path = join(tmpdir(), `switchboard-bench-inflight-${process.pid}.json`);
  writeFileSync(path, JSON.stringify(table));
  return path;
}

/**
 * A callee's line → the agent's reply, beyond the model: for each line after a callee's first, the
 * time from the model starting to answer its previous line (first content written) to the model
 * receiving this one, less the `calleeMs` the callee took to say it. That is one whole turn of the
 * replica's round the model (the reply read and stored, said on the line, the callee's next line
 * heard, stored and sent to the model), with the model's own time left out exactly as the model
 * measured it. Over all turns, and over those asked while every call was live (`allLive`, in hrMs),
 * past the calls' start and before their ends. Also the turns the replica went through a second.
 */
function beyondModel(timings: ModelTiming[], calleeMs: (i: number) => number, allLive: { from: number; to: number }) {
  const byCallee = new Map<number, Map<number, ModelTiming>>();
  for (const t of timings) {
    const line = CALLEE_LINE.exec(t.lastUserMessage);
    if (!line || !t.streamed) continue;
    const [callee, k] = [Number(line[1]), Number(line[2])];
    if (!byCallee.has(callee)) byCallee.set(callee, new Map());
    byCallee.get(callee)!.set(k, t);
  }
  const gaps: number[] = [];
  const gapsAllLive: number[] = [];
  const modelMs: number[] = [];
  const asked: number[] = [];
  for (const [callee, turns] of byCallee) {
    for (const [k, t] of turns) {
      asked.push(t.receivedMs);
      if (t.firstChunkMs !== undefined) modelMs.push(t.firstChunkMs - t.receivedMs);
      const previous = turns.get(k - 1)?.firstChunkMs;
      if (previous === undefined) continue;
      const gap = t.receivedMs - previous - calleeMs(callee);
      gaps.push(gap);
      if (t.receivedMs >= allLive.from && t.receivedMs <= allLive.to) gapsAllLive.push(gap);
    }
  }
  const turnsPerSecond = Math.round(asked.length / ((Math.max(...asked) - Math.min(...asked)) / 1000));
  return {
    turns: gaps.length,
    turnsPerSecond,
    beyondModelMs: stats(gaps),
    turnsAllLive: gapsAllLive.length,
    beyondModelAllLiveMs: stats(gapsAllLive),
    modelAnsweredMs: stats(modelMs),
  };
}

async function measureCalls(model: Model, part: CallPart) {
  const calleeMs = CALLEE_PACES[part.pace];
  setModel(model, { type: 'delay', ms: CALL_MODEL_MS });
  await modelTimings(model);
  return onFreshReplica(model.ready.url, { SWITCHBOARD_SIM_SCENARIOS: writeNetwork(calleeMs) }, async (app, replica) => {
    // Each account places at most its per-minute placement limit.
    const accounts = await Promise.all(
      Array.from({ length: Math.ceil(CALLS / NEW_ACCOUNT_CALLS_PER_MINUTE) }, async (_, a) => {
        const company = await benchCompany(app, `In-flight calls ${a}`);
        await updateTenant(app.runtime.ctx, company.tenantId, { features: ['voice_api'], maxConcurrentCalls: 1_000_000 });
        return company.bench;
      }),
    );
    const { db } = app.runtime.ctx;
    const ended = async () => Number((await db('calls').whereNotNull('ended_at').count({ n: '*' }))[0]!.n);
    const watched = await watchReplica(replica, async () => {
      const begin = Date.now();
      await inParallel(CALLS, SUBMITTERS, async (i) => {
        await sleep(Math.max(0, begin + (i * part.rampMs) / CALLS - Date.now()));
        const res = await accounts[Math.floor(i / NEW_ACCOUNT_CALLS_PER_MINUTE)]!.request('POST', '/v1/calls', {
          to: calleeNumber(i),
          task: 'Benchmark call: answer each line briefly.',
        });
        if (res.status !== 201) throw new Error(`POST /v1/calls answered ${res.status}: ${JSON.stringify(res.body)}`);
      });
      const placedS = seconds(Date.now() - begin);
      const finished = await reaches(ended, CALLS, CALLS_BOUND_S);
      return { placedS, finished, endedAt: Date.now() };
    });
    const rows: { status: string; hangup_cause: string | null; answered_at: Date | null; ended_at: Date | null }[] = await db(
      'calls',
    ).select('status', 'hangup_cause', 'answered_at', 'ended_at');
    const answered = rows.filter((r): r is typeof r & { answered_at: Date } => r.answered_at !== null);
    // The model's hrMs and the rows' wall-clock times on one scale: both clocks read here at once.
    const wallToHr = hrMs() - Date.now();
    const allLive = {
      from: Math.max(...answered.map((r) => r.answered_at.getTime())) + wallToHr,
      to: Math.min(...rows.map((r) => r.ended_at?.getTime() ?? Infinity)) + wallToHr,
    };
    const replies = beyondModel(await modelTimings(model), calleeMs, allLive);
    return {
      ...part,
      calls: CALLS,
      linesPerCall: LINES,
      modelMs: CALL_MODEL_MS,
      placedS: watched.result.placedS,
      finished: watched.result.finished,
      boundS: CALLS_BOUND_S,
      answered: answered.length,
      ended: rows.filter((r) => r.ended_at !== null).length,
      statuses: countBy(rows.map((r) => r.status)),
      /** Why calls failed: each hangup_cause and how many calls ended with it. */
      failures: countBy(rows.filter((r) => r.status === 'failed').map((r) => r.hangup_cause ?? '(none)')),
      peakLive: peakOverlap(
        answered.map((r) => ({ start: r.answered_at.getTime(), end: r.ended_at?.getTime() ?? watched.result.endedAt })),
      ),
      ...replies,
      eventLoopLagP99Ms: watched.eventLoopLagP99Ms,
      rssPeakMB: watched.rssPeakMB,
      problems: watched.problems,
    };
  });
}

type Calls = Awaited<ReturnType<typeof measureCalls>> & { figures: number[] };
type Jobs = Awaited<ReturnType<typeof measureJobs>> & { figures: number[] };

/** What each part's calls are called in the targets and the tables. */
const partName = (c: CallPart): string =>
  `calls, ${c.pace === 'person' ? `callees at a person's pace (a line ${PERSON_MS.from / 1000}–${PERSON_MS.to / 1000} s after the reply)` : 'callees answering instantly'}, ` +
  (c.rampMs ? `placed over ${c.rampMs / 1000} s` : 'placed at once');

function callTargets(calls: Calls) {
  const name = partName(calls);
  const reply = {
    target: `${name}: callee line → agent reply p99 minus the model's ${CALL_MODEL_MS} ms ≤ ${TARGET.replyBeyondModelP99Ms} ms, all ${CALLS} live`,
    measured: `${calls.beyondModelAllLiveMs.p99} ms at ${calls.turnsPerSecond} turns/s`,
    pass: calls.turnsAllLive > 0 && calls.beyondModelAllLiveMs.p99 <= TARGET.replyBeyondModelP99Ms,
  };
  return [
    {
      target: `${name}: all ${CALLS} completed within ${CALLS_BOUND_S} s`,
      measured: Object.entries(calls.statuses)
        .map(([status, n]) => `${status} ${n}`)
        .join(', '),
      pass: calls.finished && calls.statuses.completed === CALLS,
    },
    {
      target: `${name}: one replica carries ${TARGET.liveCalls} live calls at once`,
      measured: `${calls.peakLive}`,
      pass: calls.peakLive >= TARGET.liveCalls,
    },
    ...(calls.target ? [reply] : []),
    {
      target: `${name}: event loop lag p99 ≤ ${TARGET.eventLoopLagP99Ms} ms`,
      measured: `${calls.eventLoopLagP99Ms} ms`,
      pass: calls.eventLoopLagP99Ms <= TARGET.eventLoopLagP99Ms,
    },
    { target: `${name}: RSS ≤ ${TARGET.rssMB} MB`, measured: `${calls.rssPeakMB} MB`, pass: calls.rssPeakMB <= TARGET.rssMB },
  ];
}

function targets(jobs: Jobs, calls: Calls[]) {
  return [
    {
      target: `jobs: all ${JOBS} succeeded within ${JOBS_BOUND_S} s`,
      measured: `${jobs.succeeded} succeeded, ${jobs.failed} failed${jobs.finished ? ` in ${jobs.elapsedS} s` : ''}`,
      pass: jobs.finished && jobs.succeeded === JOBS,
    },
    {
      target: `jobs: one replica carries ≥ ${TARGET.jobsInFlight} jobs in flight`,
      measured: `${jobs.peakInFlight}`,
      pass: jobs.peakInFlight >= TARGET.jobsInFlight,
    },
    {
      target: `jobs: event loop lag p99 ≤ ${TARGET.eventLoopLagP99Ms} ms`,
      measured: `${jobs.eventLoopLagP99Ms} ms`,
      pass: jobs.eventLoopLagP99Ms <= TARGET.eventLoopLagP99Ms,
    },
    { target: `jobs: RSS ≤ ${TARGET.rssMB} MB`, measured: `${jobs.rssPeakMB} MB`, pass: jobs.rssPeakMB <= TARGET.rssMB },
    ...calls.flatMap(callTargets),
  ].map(({ pass, ...t }) => ({ ...t, verdict: verdict(pass) }));
}

async function benchmark() {
  const loadBefore = loadavg()[0]!;
  const model = await startThread<{ url: string }>(new URL('./model-server.js', import.meta.url), {});
  try {
    const jobs = await medianRun(
      RUNS,
      () => measureJobs(model),
      (j) => j.eventLoopLagP99Ms,
    );
    process.stderr.write(`jobs: ${JSON.stringify(jobs)}\n`);
    const calls: Calls[] = [];
    for (const part of CALL_PARTS) {
      calls.push(
        await medianRun(
          part.target ? RUNS : 1,
          () => measureCalls(model, part),
          (c) => c.beyondModelAllLiveMs.p99,
        ),
      );
      process.stderr.write(`calls: ${JSON.stringify(calls.at(-1))}\n`);
    }
    return {
      date: new Date().toISOString(),
      machine: machineInfo(loadBefore),
      settings: Object.keys(capacityOverrides()).length ? capacityOverrides() : 'the deployment defaults',
      heapLimitMB: DEPLOYED_HEAP_LIMIT_MB,
      semiSpaceMB: DEPLOYED_SEMI_SPACE_MB,
      jobs,
      calls,
      targets: targets(jobs, calls),
    };
  } finally {
    await model.close();
  }
}

/** The replica's warnings and errors during a part, if any, as a table of their own. */
const problems = (part: string, logged: Record<string, number>) =>
  Object.keys(logged).length
    ? `\nThe replica's warnings and errors (${part}):\n\n| Logged | Times |\n|---|---|\n${Object.entries(logged)
        .map(([msg, n]) => `| ${msg.replaceAll('|', '\\|')} | ${n} |`)
        .join('\n')}\n`
    : '';

const callsTable = (c: Calls) => `| ${partName(c)} | |
|---|---|
| Ended | ${c.ended} of ${c.calls} (${Object.entries(c.statuses)
  .map(([s, n]) => `${s} ${n}`)
  .join(', ')})${c.finished ? '' : ` when cut at the ${c.boundS} s bound`} |${Object.entries(c.failures)
  .map(([cause, n]) => `\n| · failed with | ${n} × ${cause} |`)
  .join('')}
| **Most calls live at once** (answered → ended) | **${c.peakLive}** |
| Turns the replica went through | ${c.turnsPerSecond} a second |
| **Callee line → agent reply beyond the model** while all ${c.calls} were live, median / p99 (${c.turnsAllLive} turns) | ${c.beyondModelAllLiveMs.median} / **${c.beyondModelAllLiveMs.p99} ms** |${c.figures.length > 1 ? `\n| · its p99 in each of ${c.figures.length} runs (this table is the median run's) | ${c.figures.join(', ')} ms |` : ''}
| The same over every turn, the calls' start and end included, median / p99 (${c.turns} turns) | ${c.beyondModelMs.median} / ${c.beyondModelMs.p99} ms |
| The model's own time to answer, median (${c.modelMs} ms asked) | ${c.modelAnsweredMs.median} ms |
| Replica event loop lag p99 / peak RSS | ${c.eventLoopLagP99Ms} ms / ${c.rssPeakMB} MB |
`;

function markdown(r: Awaited<ReturnType<typeof benchmark>>): string {
  const { jobs: j, calls } = r;
  const settings =
    typeof r.settings === 'string'
      ? r.settings
      : Object.entries(r.settings)
          .map(([k, v]) => `${k}=${v}`)
          .join(', ');
  return `# In-flight capacity benchmark

${r.date} · ${r.machine.cpus} × ${r.machine.cpuModel} · ${r.machine.os} · Node ${r.machine.node}
· load average ${r.machine.loadAverage1m.before.toFixed(2)} before, ${r.machine.loadAverage1m.after.toFixed(2)} after

One controller replica (\`switchboard controllers\`, a child process of its own) at ${settings}, under the chart's V8
settings (\`--max-old-space-size=${r.heapLimitMB} --max-semi-space-size=${r.semiSpaceMB}\`); the API in the benchmark's process, the model stand-in (loopback,
OpenAI-compatible) in a thread of its own; each part on a scratch database and a fresh replica. Event loop lag: the
replica's own monitorEventLoopDelay (its /metrics, prom-client) over the part; RSS: the replica's, sampled every 250 ms.
The jobs part and the target's calls part are run ${RUNS} times each, every run on a fresh replica, since one run's tail
moves with the machine's neighbours: each is reported by its median run (the jobs' lag, the calls' reply p99), and every
run's figure is shown.

Jobs: ${j.jobs} jobs created over REST (${SUBMITTERS} submitters, ${j.createdS} s) before the replica started, so that it finds
them all due at once; one model call each, answered after ${j.modelMs} ms. Times from the first job's start.

| | |
|---|---|
| Finished | ${j.completed} of ${j.jobs} (${j.succeeded} succeeded, ${j.failed} failed) ${j.finished ? `in **${j.elapsedS} s**` : `when cut at the ${j.boundS} s bound (${j.elapsedS} s after the first was created)`} |${Object.entries(
    j.failures,
  )
    .map(([message, n]) => `\n| · failed with | ${n} × ${message} |`)
    .join('')}
| Rate | ${j.completedPerSecond} jobs/s; all ${j.jobs} at that rate: ${j.projectedS} s |
| Ideal (${j.jobs} × ${j.modelMs / 1000} s ÷ in-flight capacity) | ${j.idealS.atTarget} s at the target's ${TARGET.jobsInFlight}; ${j.idealS.atPeakInFlight} s at the ${j.peakInFlight} reached |
| Against the ideal at ${TARGET.jobsInFlight} in flight | ${(j.projectedS / j.idealS.atTarget).toFixed(1)}× |
| **Most jobs running at once** | **${j.peakInFlight}** |
| First job started → each job started, median / p99 | ${j.startDelayMs.median} / ${j.startDelayMs.p99} ms |
| Replica event loop lag p99 / peak RSS | ${j.eventLoopLagP99Ms} ms / ${j.rssPeakMB} MB |
| · the lag p99 in each of ${j.figures.length} runs (this table is the median run's) | ${j.figures.join(', ')} ms |

Calls: ${CALLS} calls placed over \`POST /v1/calls\` (${SUBMITTERS} submitters) to the simulated network, each callee
answering at once and saying ${LINES} lines, each after the agent's reply. Three parts, each on a fresh replica: at a person's
pace (${PERSON_MS.from}–${PERSON_MS.to} ms after it, each callee its own) with the calls placed evenly over ${RAMP_MS / 1000} s, as a dialler or the
day's traffic brings them, until all ${CALLS} are on the line at once (the target's part); the same with all ${CALLS} placed at
once, which queues the first turns of ${CALLS} calls answered within a few seconds behind each other; and callees answering
instantly, which keeps the replica as busy as its one core allows (its most turns a second). The agent's model answers each line
after ${CALL_MODEL_MS} ms (streamed). Callee line → agent reply beyond the model: for each line after a callee's first, the
model starting to answer the previous line → the model receiving this one, less the callee's pace, i.e. one turn of the
replica's round (the reply read, stored and said, the callee's next line heard, stored and sent) with the model's own
time left out as the model measured it; the target is read over the turns asked while all ${CALLS} calls were live
(after the last was answered, before the first ended) of the first part; the calls' start (placing, dialling and
answering) and end (summaries, results) are reported beside it.

${calls.map(callsTable).join('\n')}
| Target | Measured | |
|---|---|---|
${r.targets.map((t) => `| ${t.target} | ${t.measured} | **${t.verdict}** |`).join('\n')}
${problems('jobs', j.problems)}${calls.map((c) => problems(partName(c), c.problems)).join('')}`;
}

const result = await benchmark();
writeResults(resultsName('inflight'), result, markdown(result));
