// `make bench`, webhooks: one controller replica delivering call events to loopback HTTPS receivers
// (in a thread of their own) over KEYS ordering keys, against a bare node:https client posting the
// same events to the same receivers in the same run, each key's events one at a time in order.
// Among the receivers is one that never answers (each try to it fails after its 5 s window).
// Writes test/bench/results/webhooks.{json,md} and prints the table.
import https from 'node:https';
import { loadavg } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { startControllers } from '../../controllers/index.js';
import { newEnvelope } from '../../pkg/webhooks/outbox.js';
import { deliveryPolicy } from '../../pkg/webhooks/policy.js';
import { transition } from '../../pkg/webhooks/state.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { createScratchDatabase } from '../support/database.js';
import { machineInfo } from './machine.js';
import { writeResults } from './results.js';
import { startThread } from './threads.js';
import { COUNTER, COUNTERS } from './webhook-counters.js';

const KEYS = 1000;
const PER_KEY = 10;
const LIVE_RECEIVERS = 9;
/** Keys whose receiver never answers, and their events each. */
const DEAD_KEYS = 10;
const DEAD_PER_KEY = 2;
/** The bare client's requests in flight: Switchboard's default delivery concurrency. */
const BARE_CONCURRENCY = 256;
const TIMEOUT_MS = 300_000;
const TYPE = 'call.updated';

interface Event {
  key: string;
  n: number;
  url: string;
}

/** Each key's events in order, keys interleaved: n = 0 of every key, then n = 1… */
function events(phase: string, urls: string[]): Event[] {
  const live = urls.slice(0, LIVE_RECEIVERS);
  const dead = urls.at(-1)!;
  const out: Event[] = [];
  for (let n = 0; n < Math.max(PER_KEY, DEAD_PER_KEY); n++) {
    if (n < PER_KEY) for (let k = 0; k < KEYS; k++) out.push({ key: `${phase}-${k}`, n, url: live[k % live.length]! });
    if (n < DEAD_PER_KEY) for (let k = 0; k < DEAD_KEYS; k++) out.push({ key: `${phase}-dead-${k}`, n, url: dead });
  }
  return out;
}

async function until(what: string, done: () => boolean): Promise<void> {
  const deadline = Date.now() + TIMEOUT_MS;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`still waiting for ${what} after ${TIMEOUT_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Runs `work` while sampling the event loop's lag and the process's RSS. */
async function watched<T>(work: () => Promise<T>): Promise<T & { eventLoopLagP99Ms: number; rssPeakMB: number }> {
  const lag = monitorEventLoopDelay({ resolution: 10 });
  let rssPeak = 0;
  const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, process.memoryUsage().rss)), 200);
  lag.enable();
  try {
    const result = await work();
    return { ...result, eventLoopLagP99Ms: Math.round(lag.percentile(99) / 1e4) / 100, rssPeakMB: Math.round(rssPeak / 2 ** 20) };
  } finally {
    lag.disable();
    clearInterval(sampler);
  }
}

const liveCount = KEYS * PER_KEY;

/** Delivered per second from `startMs` to the last live event's arrival, and the order violations seen. */
function figures(counters: Float64Array, startMs: number) {
  const seconds = (counters[COUNTER.lastMs]! - startMs) / 1000;
  return {
    delivered: counters[COUNTER.received]!,
    seconds,
    perSecond: Math.round(counters[COUNTER.received]! / seconds),
    orderViolations: counters[COUNTER.violations]!,
  };
}

async function switchboardPhase(app: TestApp, tenantId: string, urls: string[], counters: Float64Array) {
  const { ctx } = app.runtime;
  const now = ctx.clock.now();
  const rows = events('sb', urls).map((e) => {
    const envelope = newEnvelope(now, tenantId, TYPE, { key: e.key, n: e.n });
    return {
      id: envelope.id,
      tenant_id: tenantId,
      type: TYPE,
      target: 'events',
      url: e.url,
      ordering_key: e.key,
      payload: JSON.stringify(envelope),
      status: transition(null, 'enqueue'),
      max_attempts: deliveryPolicy(ctx.config, TYPE).tries,
      created_at: now,
      // As enqueueEvent writes them: only the first of a key is due, the rest wait behind it.
      due_at: e.n === 0 ? now : null,
    };
  });
  // Written before the controllers start, in order (seq follows), as a backlog the replica finds.
  await ctx.db.batchInsert('webhook_outbox', rows, 1000);
  counters.fill(0);
  return watched(async () => {
    const startMs = Date.now();
    const controllers = await startControllers(ctx);
    try {
      await until('every live event to be delivered', () => counters[COUNTER.received]! >= liveCount);
      const result = figures(counters, startMs);
      // The dead receiver's events are given up one 5 s window after another; then nothing is pending.
      const pending = async () =>
        Number((await ctx.db('webhook_outbox').where({ tenant_id: tenantId, status: 'pending' }).count({ n: '*' }).first())?.n);
      const deadline = Date.now() + TIMEOUT_MS;
      while ((await pending()) > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 500));
      const settled: { status: string; n: string }[] = await ctx
        .db('webhook_outbox')
        .where({ tenant_id: tenantId })
        .groupBy('status')
        .select('status')
        .count({ n: '*' });
      return {
        ...result,
        concurrency: ctx.config.SWITCHBOARD_WEBHOOK_CONCURRENCY,
        statuses: Object.fromEntries(settled.map((s) => [s.status, Number(s.n)])),
      };
    } finally {
      await controllers.stop();
    }
  });
}

async function barePhase(urls: string[], counters: Float64Array) {
  const agent = new https.Agent({ keepAlive: true });
  const byKey = new Map<string, Event[]>();
  for (const e of events('bare', urls)) byKey.set(e.key, [...(byKey.get(e.key) ?? []), e]);
  const keys = [...byKey.values()];
  const post = (e: Event) =>
    new Promise<void>((resolve) => {
      const body = JSON.stringify(newEnvelope(new Date(), 'tnt_bench', TYPE, { key: e.key, n: e.n }));
      const req = https.request(
        e.url,
        { method: 'POST', agent, headers: { 'content-type': 'application/json' }, signal: AbortSignal.timeout(5000) },
        (res) => {
          res.resume();
          res.on('end', resolve);
        },
      );
      req.on('error', () => resolve());
      req.end(body);
    });
  counters.fill(0);
  return watched(async () => {
    const startMs = Date.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: BARE_CONCURRENCY }, async () => {
        for (let i = next++; i < keys.length; i = next++) for (const e of keys[i]!) await post(e);
      }),
    );
    agent.destroy();
    return figures(counters, startMs);
  });
}

function markdown(r: Awaited<ReturnType<typeof benchmark>>): string {
  const { switchboard: s, bare: b } = r;
  const ratio = Math.round((s.perSecond / b.perSecond) * 100) / 100;
  const pass = s.perSecond >= 2000 && ratio >= 0.5 && s.orderViolations === 0 && s.delivered === liveCount;
  return `# Webhooks benchmark

${r.date} · ${r.machine.cpus} × ${r.machine.cpuModel} · ${r.machine.os} · Node ${r.machine.node} · Postgres: ${r.database}
· load average ${r.machine.loadAverage1m.before.toFixed(2)} before, ${r.machine.loadAverage1m.after.toFixed(2)} after

${KEYS * PER_KEY} call events over ${KEYS} ordering keys (${PER_KEY} each, each key's one at a time in order) to ${LIVE_RECEIVERS}
loopback HTTPS receivers answering 200 at once, in a thread of their own; among them a receiver that never answers, sent
${DEAD_KEYS * DEAD_PER_KEY} events of ${DEAD_KEYS} keys of its own. Switchboard: one controller replica (SWITCHBOARD_WEBHOOK_CONCURRENCY
${s.concurrency}) finding the events as a backlog in its outbox, signing each and recording each outcome in Postgres. The bare client:
node:https with a keep-alive agent, ${BARE_CONCURRENCY} requests in flight, posting the same events unsigned and recording nothing.

| | Switchboard | Bare client |
|---|---|---|
| Delivered per second (start to the last live event's arrival) | **${s.perSecond}** | ${b.perSecond} |
| Live events delivered | ${s.delivered} of ${liveCount} | ${b.delivered} of ${liveCount} |
| Order violations | **${s.orderViolations}** | ${b.orderViolations} |
| Seconds | ${s.seconds} | ${b.seconds} |
| Event loop lag p99 | ${s.eventLoopLagP99Ms} ms | ${b.eventLoopLagP99Ms} ms |
| Peak RSS of the process | ${s.rssPeakMB} MB | ${b.rssPeakMB} MB |

Outbox rows after the run: ${Object.entries(s.statuses)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ')}.

Target: ≥ 2,000 deliveries/s and ≥ 0.5× the bare client (here ${ratio}×), 0 order violations — **${pass ? 'PASS' : 'FAIL'}**.
`;
}

async function benchmark() {
  const loadBefore = loadavg()[0]!;
  const database = await createScratchDatabase();
  const shared = new SharedArrayBuffer(COUNTERS * Float64Array.BYTES_PER_ELEMENT);
  const counters = new Float64Array(shared);
  const receivers = await startThread<{ urls: string[] }>(new URL('./webhook-receivers.js', import.meta.url), {
    receivers: LIVE_RECEIVERS + 1,
    counters: shared,
  });
  let app: TestApp | undefined;
  try {
    // The connections a deployed process opens by default (the tests' own default is fewer).
    app = await startTestApp({ databaseUrl: database.url, env: { SWITCHBOARD_DB_POOL_MAX: '20' } });
    const { tenantId } = await app.company();
    const switchboard = await switchboardPhase(app, tenantId, receivers.ready.urls, counters);
    const bare = await barePhase(receivers.ready.urls, counters);
    return { date: new Date().toISOString(), machine: machineInfo(loadBefore), database: database.server, switchboard, bare };
  } finally {
    await app?.close();
    await receivers.close();
    await database.drop();
  }
}

const result = await benchmark();
writeResults('webhooks', result, markdown(result));
