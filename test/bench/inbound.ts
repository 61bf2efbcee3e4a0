// `make bench`, inbound calls: simulated callers ring one replica's number routed to the AI step,
// on the real clock, with the defaults a deployment starts with (SWITCHBOARD_CALL_CONCURRENCY):
// - answered per second: calls rung as fast as 16 submitters can, each a one-line conversation
//   with a model that answers at once, from the first ring to the last answer;
// - simultaneous live calls: calls whose agent thinks for MODEL_MS each turn (as a real model
//   does), so calls stay on the line; the most in progress at once, how long callers waited for
//   the answer, and the replica's event loop lag and memory meanwhile.
// Writes test/bench/results/inbound.{json,md} and prints the table.
import { loadavg } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { startTestApp, type Client, type TestApp } from '../support/app.js';
import { createScratchDatabase } from '../support/database.js';
import { agentRef } from '../../pkg/ids.js';
import { updateTenant } from '../../pkg/tenants/settings.js';
import { machineInfo } from './machine.js';
import { writeResults } from './results.js';
import { peakOverlap, stats } from './stats.js';

const NUMBER = '+12025550190';
const QUICK_CALLS = 300;
const LIVE_CALLS = 300;
const SUBMITTERS = 16;
/** How long the agent's model takes to answer each turn of the live calls. */
const MODEL_MS = 2000;
const CALLS_TIMEOUT_SECONDS = 300;

interface CallTimes {
  created_at: Date;
  answered_at: Date | null;
  ended_at: Date | null;
}

/** Rings `count` calls from 16 submitters, each caller saying `lines`; returns their ids. */
async function ring(client: Client, count: number, lines: string[], offset: number): Promise<string[]> {
  const ids: string[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: SUBMITTERS }, async () => {
      for (let i = next++; i < count; i = next++) {
        const from = `+1415555${String(offset + i).padStart(4, '0')}`;
        const res = await client.post('/v1/sim/calls', { to: NUMBER, from, lines });
        if (res.status !== 201) throw new Error(`POST /v1/sim/calls answered ${res.status}: ${JSON.stringify(res.body)}`);
        ids.push(res.body.id);
      }
    }),
  );
  return ids;
}

/** Waits until every call has ended; returns their times. */
async function ended(app: TestApp, ids: string[]): Promise<CallTimes[]> {
  const deadline = Date.now() + CALLS_TIMEOUT_SECONDS * 1000;
  for (;;) {
    const rows: CallTimes[] = await app.runtime.ctx.db('calls').whereIn('id', ids).select('created_at', 'answered_at', 'ended_at');
    const open = rows.filter((r) => !r.ended_at).length;
    if (open === 0) return rows;
    if (Date.now() > deadline) throw new Error(`${open} calls still live after ${CALLS_TIMEOUT_SECONDS} s`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

const answeredOf = (rows: CallTimes[]) =>
  rows.filter((r): r is CallTimes & { answered_at: Date; ended_at: Date } => r.answered_at !== null);

async function answeredPerSecond(app: TestApp, client: Client) {
  app.model.setDefault({ content: 'Thanks for calling, goodbye.' });
  const rows = await ended(app, await ring(client, QUICK_CALLS, ['Hi, just checking.'], 0));
  const answered = answeredOf(rows);
  const first = Math.min(...rows.map((r) => r.created_at.getTime()));
  const last = Math.max(...answered.map((r) => r.answered_at.getTime()));
  return {
    calls: QUICK_CALLS,
    answered: answered.length,
    seconds: Math.round(last - first) / 1000,
    perSecond: Math.round((answered.length / ((last - first) / 1000)) * 10) / 10,
    ringToAnswerMs: stats(answered.map((r) => r.answered_at.getTime() - r.created_at.getTime())),
  };
}

async function liveAtOnce(app: TestApp, client: Client) {
  app.model.setDefault(async () => {
    await new Promise((resolve) => setTimeout(resolve, MODEL_MS));
    return { content: 'Let me look into that for you.' };
  });
  const lag = monitorEventLoopDelay({ resolution: 10 });
  let rssPeak = 0;
  const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, process.memoryUsage().rss)), 200);
  lag.enable();
  try {
    const rows = await ended(app, await ring(client, LIVE_CALLS, ['Hi.', 'I have a question about my bill.', 'Thanks, bye.'], QUICK_CALLS));
    const answered = answeredOf(rows);
    return {
      calls: LIVE_CALLS,
      answered: answered.length,
      modelMs: MODEL_MS,
      peakInProgress: peakOverlap(answered.map((r) => ({ start: r.answered_at.getTime(), end: r.ended_at.getTime() }))),
      ringToAnswerMs: stats(answered.map((r) => r.answered_at.getTime() - r.created_at.getTime())),
      callSeconds: stats(answered.map((r) => (r.ended_at.getTime() - r.answered_at.getTime()) / 1000)),
      eventLoopLagP99Ms: Math.round(lag.percentile(99) / 1e4) / 100,
      rssPeakMB: Math.round(rssPeak / 2 ** 20),
    };
  } finally {
    lag.disable();
    clearInterval(sampler);
  }
}

function markdown(r: Awaited<ReturnType<typeof benchmark>>): string {
  const { quick: q, live: l } = r;
  return `# Inbound calls benchmark

${r.date} · ${r.machine.cpus} × ${r.machine.cpuModel} · ${r.machine.os} · Node ${r.machine.node} · Postgres: ${r.database}
· load average ${r.machine.loadAverage1m.before.toFixed(2)} before, ${r.machine.loadAverage1m.after.toFixed(2)} after

One replica (API and controllers in one process, SWITCHBOARD_CALL_CONCURRENCY ${r.callConcurrency}), simulated callers
ringing a number routed to the AI step over \`POST /v1/sim/calls\` from ${SUBMITTERS} submitters, on the real clock.
The API server, the controllers and the model stand-in share one event loop.

| | |
|---|---|
| Answered per second (${q.answered} of ${q.calls} one-line calls, first ring to last answer in ${q.seconds} s) | **${q.perSecond}** |
| · ring → answer, median / p99 | ${q.ringToAnswerMs.median} / ${q.ringToAnswerMs.p99} ms |
| Most live calls at once (${l.answered} of ${l.calls} calls of three turns, the model ${l.modelMs} ms a turn) | **${l.peakInProgress}** |
| · ring → answer, median / p99 | ${l.ringToAnswerMs.median} / ${l.ringToAnswerMs.p99} ms |
| · call length, median | ${l.callSeconds.median} s |
| · event loop lag p99 meanwhile | ${l.eventLoopLagP99Ms} ms |
| · peak RSS of the process | ${l.rssPeakMB} MB |
`;
}

async function benchmark() {
  const loadBefore = loadavg()[0]!;
  const database = await createScratchDatabase();
  let app: TestApp | undefined;
  try {
    app = await startTestApp({ databaseUrl: database.url, controllers: true, env: { SWITCHBOARD_DB_POOL_MAX: '20' } });
    const { client, tenantId, agentId } = await app.company({ credits: 1e9, numbers: [NUMBER] });
    await updateTenant(app.runtime.ctx, tenantId, { features: ['voice_api', 'ai_agents'], requestsPerMinute: 100_000 });
    const routed = await client.patch(`/v1/numbers/${encodeURIComponent(NUMBER)}`, {
      routing: { type: 'ai', agent_id: agentRef(agentId) },
    });
    if (routed.status !== 200) throw new Error(`PATCH /v1/numbers answered ${routed.status}: ${JSON.stringify(routed.body)}`);
    const quick = await answeredPerSecond(app, client);
    const live = await liveAtOnce(app, client);
    return {
      date: new Date().toISOString(),
      machine: machineInfo(loadBefore),
      database: database.server,
      callConcurrency: app.runtime.ctx.config.SWITCHBOARD_CALL_CONCURRENCY,
      quick,
      live,
    };
  } finally {
    await app?.close();
    await database.drop();
  }
}

const result = await benchmark();
writeResults('inbound', result, markdown(result));
