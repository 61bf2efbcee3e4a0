// `make bench`, fairness between companies: company A enqueues 10,000 due jobs over REST, then
// company B enqueues one job at a time and waits for it, REPEATS times; B's start delay (its
// createdAt → startedAt, server clock) is what A's backlog costs B. A's jobs call a model that
// answers after MODEL_MS, as a real one takes seconds, so A's backlog stays due throughout and
// every controller place is A's; B's jobs are answered at once. One replica (API and controllers
// in one process, `switchboard dev`), production's default concurrency. Writes
// test/bench/results/fairness.{json,md} and prints the table.
import { loadavg } from 'node:os';
import { machineInfo } from './machine.js';
import { writeResults } from './results.js';
import { stats, type Stats } from './stats.js';
import type { BenchClient } from './http-client.js';
import { benchCompany, enqueue } from './job-client.js';
import { createScratchDatabase } from '../support/database.js';
import { startTestApp } from '../support/app.js';
import { jobIn, startScriptedModel } from '../support/model.js';

const BACKLOG = 10_000;
const REPEATS = 50;
const MODEL_MS = 1_000;
const SUBMITTERS = 16;
// Production's defaults: jobs at once per replica, and the pool that leaves every run a lock connection.
const CONCURRENCY = 8;
const POOL_MAX = 41;
// The target: B's job starts within this of being created, at p99.
const TARGET_P99_MS = 1_000;

async function finished(client: BenchClient, id: string): Promise<{ createdAt: string; startedAt: string }> {
  for (let poll = 0; poll < 20; poll++) {
    const res = await client.request('GET', `/api/v1/triggers/${id}?wait=30`);
    if (res.body.status === 'succeeded') return res.body;
    if (!['queued', 'running'].includes(res.body.status)) throw new Error(`job ${id} ended ${res.body.status}: ${res.body.errorMessage}`);
  }
  throw new Error(`job ${id} did not finish`);
}

async function benchmark() {
  const loadBefore = loadavg()[0]!;
  const database = await createScratchDatabase();
  const model = await startScriptedModel();
  model.setDefault(async (request) => ({ content: 'ok', delayMs: jobIn(request)?.task?.startsWith('Backlog') ? MODEL_MS : 0 }));
  const app = await startTestApp({
    databaseUrl: database.url,
    controllers: true,
    model,
    env: { SWITCHBOARD_CONTROLLER_CONCURRENCY: String(CONCURRENCY), SWITCHBOARD_DB_POOL_MAX: String(POOL_MAX) },
  });
  try {
    const [a, b] = [await benchCompany(app, 'Backlog Co'), await benchCompany(app, 'Single Co')];
    const [clientA, clientB] = [a.bench, b.bench];

    const enqueueStart = Date.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: SUBMITTERS }, async () => {
        while (next < BACKLOG) await enqueue(clientA, a.agentId, `Backlog job ${next++}`);
      }),
    );
    const enqueueSeconds = (Date.now() - enqueueStart) / 1000;
    const backlogLeft = async () =>
      Number((await app.runtime.ctx.db('triggers').where({ tenant_id: a.tenantId, status: 'queued' }).count({ n: '*' }))[0]!.n);
    const backlogAtFirst = await backlogLeft();

    const delays: number[] = [];
    for (let i = 0; i < REPEATS; i++) {
      const { triggerId } = await enqueue(clientB, b.agentId, `Single job ${i}`);
      const job = await finished(clientB, triggerId);
      delays.push(Date.parse(job.startedAt) - Date.parse(job.createdAt));
    }
    const backlogAtLast = await backlogLeft();
    return {
      date: new Date().toISOString(),
      machine: machineInfo(loadBefore),
      database: database.server,
      backlog: BACKLOG,
      repeats: REPEATS,
      modelMs: MODEL_MS,
      concurrency: CONCURRENCY,
      enqueueSeconds: Math.round(enqueueSeconds * 10) / 10,
      backlogDue: { atFirst: backlogAtFirst, atLast: backlogAtLast },
      startDelayMs: stats(delays) as Stats,
      maxMs: Math.max(...delays),
      target: { p99Ms: TARGET_P99_MS, verdict: stats(delays).p99 <= TARGET_P99_MS ? 'PASS' : 'FAIL' },
      delaysMs: delays,
    };
  } finally {
    await app.close();
    await model.close();
    await database.drop();
  }
}

function markdown(r: Awaited<ReturnType<typeof benchmark>>): string {
  return `# Fairness benchmark: one company's backlog against another's single job

${r.date} · ${r.machine.cpus} × ${r.machine.cpuModel} · ${r.machine.os} · Node ${r.machine.node} · Postgres: ${r.database}
· load average ${r.machine.loadAverage1m.before.toFixed(2)} before, ${r.machine.loadAverage1m.after.toFixed(2)} after

Company A enqueues ${r.backlog} jobs over REST (${SUBMITTERS} submitters, ${r.enqueueSeconds} s), each calling a model that
answers after ${r.modelMs} ms; then company B enqueues one job and waits for it to finish, ${r.repeats} times. One replica
(API and controllers in one process) at controller concurrency ${r.concurrency}: every place is taken by A's jobs, so B's
job waits for one to free (on average ${r.modelMs / r.concurrency / 2} ms) and then for the claim to choose it over A's backlog.
A's jobs still due when B's first and last job were created: ${r.backlogDue.atFirst} and ${r.backlogDue.atLast}.
B's start delay is its job's createdAt → startedAt (server clock, 1 ms resolution).

| B's start delay median | p99 | max | Target p99 | |
|---|---|---|---|---|
| ${r.startDelayMs.median} ms | ${r.startDelayMs.p99} ms | ${r.maxMs} ms | ≤ ${r.target.p99Ms} ms | **${r.target.verdict}** |
`;
}

const result = await benchmark();
writeResults('fairness', result, markdown(result));
