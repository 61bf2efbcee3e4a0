// `make bench`, Voice API half:
// - webhook deliveries per second to a loopback HTTPS receiver, events written with enqueueEvent
//   over many ordering keys, timed from the first enqueue to the last arrival, with the receiver
//   counting arrivals out of their key's order;
// - `POST /v1/calls` latency at concurrency 16 with the Redis limiter against the in-memory one,
//   in alternating rounds of one run, so the difference is what the Redis limits add.
// Both apps share one scratch database; the controllers run in the limits-off app (they also dial
// the other app's calls). Writes test/bench/results/voice.{json,md} and prints the table.
import { machineInfo } from './machine.js';
import { writeResults } from './results.js';
import { stats } from './stats.js';
import { loadavg } from 'node:os';
import { updateTenant } from '../../pkg/tenants/settings.js';
import { enqueueEvent } from '../../pkg/webhooks/outbox.js';
import { createScratchDatabase } from '../support/database.js';
import { startHttpsServer } from '../support/https.js';
import { reachableRedis } from '../support/redis.js';
import { NEW_ACCOUNT_CALLS_PER_MINUTE, startTestApp, type Client, type TestApp } from '../support/app.js';

const TARGET_ADDED_MEDIAN_MS = 1;
const EVENTS = 2000;
const KEYS = 100;
const SUBMITTERS = 16;
const DELIVERY_TIMEOUT_SECONDS = 60;
const CONCURRENCY = 16;
// Many short rounds, alternating the modes, so both meet the same changes in the machine's load.
// The first round of each mode warms it up and is not counted. With 12 rounds the added median
// swung from -3 to +9 ms between runs on one quiet machine; with 40 it stays within a few ms.
const ROUNDS = 40;
const CALLS_PER_ROUND = 3;
// The placement limit is fixed per account and minute: each submitter has an account of its own per
// app, replaced by a fresh one before it reaches the limit.
const ROUNDS_PER_ACCOUNT = Math.floor(NEW_ACCOUNT_CALLS_PER_MINUTE / CALLS_PER_ROUND);
const ACCOUNT_SETS = Math.ceil(ROUNDS / ROUNDS_PER_ACCOUNT);
// The shipped simulator's busy number: the call ends within a second, without the model.
const BUSY_NUMBER = '+12025550102';
const POOL = { SWITCHBOARD_DB_POOL_MAX: '20' };

async function measureWebhooks(app: TestApp) {
  const keys = Array.from({ length: KEYS }, (_, i) => `cal_bench_${i}`);
  const perKey = EVENTS / KEYS;
  const lastSeen = new Map<string, number>();
  let received = 0;
  let violations = 0;
  let lastArrival = 0;
  let allArrived!: () => void;
  const done = new Promise<void>((resolve) => (allArrived = resolve));
  const receiver = await startHttpsServer((_req, res) => {
    const { data } = JSON.parse(receiver.requests.at(-1)!.body) as { data: { key: string; n: number } };
    if (data.n !== (lastSeen.get(data.key) ?? -1) + 1) violations++;
    lastSeen.set(data.key, data.n);
    res.writeHead(200).end('ok');
    if (++received === EVENTS) {
      lastArrival = performance.now();
      allArrived();
    }
  });
  try {
    const { tenantId } = await app.company();
    const url = `${receiver.url}/events`;
    await updateTenant(app.runtime.ctx, tenantId, { features: ['voice_api'], eventsUrl: url });
    const { ctx } = app.runtime;
    const begin = performance.now();
    // Each submitter writes its keys' events in order, one key after another, so every key advances at once.
    await Promise.all(
      Array.from({ length: SUBMITTERS }, async (_, s) => {
        const mine = keys.filter((_k, i) => i % SUBMITTERS === s);
        for (let n = 0; n < perKey; n++) {
          for (const key of mine) {
            await ctx.db.transaction((trx) =>
              enqueueEvent(ctx, trx, { tenantId, url, orderingKey: key, type: 'call.updated', target: 'events', data: { key, n } }),
            );
          }
        }
      }),
    );
    const enqueueSeconds = (performance.now() - begin) / 1000;
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`only ${received} of ${EVENTS} webhooks arrived in ${DELIVERY_TIMEOUT_SECONDS} s`)),
        DELIVERY_TIMEOUT_SECONDS * 1000,
      );
    });
    await Promise.race([done, timedOut]).finally(() => clearTimeout(timer));
    const seconds = (lastArrival - begin) / 1000;
    return {
      events: EVENTS,
      orderingKeys: KEYS,
      submitters: SUBMITTERS,
      enqueueSeconds: Math.round(enqueueSeconds * 100) / 100,
      seconds: Math.round(seconds * 100) / 100,
      eventsPerSecond: Math.round((EVENTS / seconds) * 10) / 10,
      requests: receiver.requests.length,
      orderViolations: violations,
    };
  } finally {
    await receiver.close();
  }
}

/** One voice account per submitter, with limits that stay out of the way of the benchmark's pace. */
async function accounts(app: TestApp): Promise<Client[]> {
  return Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      const company = await app.company({ credits: 1e9 });
      await updateTenant(app.runtime.ctx, company.tenantId, {
        features: ['voice_api'],
        requestsPerMinute: 1_000_000,
        maxConcurrentCalls: 1_000_000,
      });
      return company.client;
    }),
  );
}

/** CALLS_PER_ROUND calls from each account, all accounts at once; each call's latency in ms. */
async function round(clients: Client[]): Promise<number[]> {
  const latencies: number[] = [];
  await Promise.all(
    clients.map(async (client) => {
      for (let i = 0; i < CALLS_PER_ROUND; i++) {
        const t0 = performance.now();
        const res = await client.post('/v1/calls', { to: BUSY_NUMBER, task: 'Benchmark call: say hello.' });
        latencies.push(performance.now() - t0);
        if (res.status !== 201) throw new Error(`POST /v1/calls answered ${res.status}: ${JSON.stringify(res.body)}`);
      }
    }),
  );
  return latencies;
}

async function measureCalls(off: TestApp, on: TestApp) {
  const sets = async (app: TestApp) => Promise.all(Array.from({ length: ACCOUNT_SETS }, () => accounts(app)));
  const clients = { off: await sets(off), on: await sets(on) };
  const samples = { off: [] as number[], on: [] as number[] };
  for (let r = 0; r < ROUNDS; r++) {
    // Alternating which goes first keeps either from always meeting a warmer machine.
    const order = r % 2 === 0 ? (['off', 'on'] as const) : (['on', 'off'] as const);
    for (const mode of order) {
      const latencies = await round(clients[mode][Math.floor(r / ROUNDS_PER_ACCOUNT)]!);
      if (r > 0) samples[mode].push(...latencies);
    }
  }
  const limitsOn = stats(samples.on);
  const limitsOff = stats(samples.off);
  return {
    concurrency: CONCURRENCY,
    rounds: ROUNDS - 1,
    callsPerMode: samples.on.length,
    limitsOn,
    limitsOff,
    addedMedianMs: Math.round((limitsOn.median - limitsOff.median) * 1000) / 1000,
  };
}

function markdown(r: Awaited<ReturnType<typeof benchmark>>): string {
  const { webhooks: w, calls: c } = r;
  return `# Voice API benchmark

${r.date} · ${r.machine.cpus} × ${r.machine.cpuModel} · ${r.machine.os} · Node ${r.machine.node} · Postgres: ${r.database} · Redis: ${r.redis}
· load average ${r.machine.loadAverage1m.before.toFixed(2)} before, ${r.machine.loadAverage1m.after.toFixed(2)} after

Webhooks: ${w.events} events over ${w.orderingKeys} ordering keys written with enqueueEvent by ${w.submitters} submitters (each key's
events in order) into an app with its controllers running, delivered to a loopback HTTPS receiver that answers at once;
first enqueue to last arrival. **${w.eventsPerSecond} events/s** (${w.seconds} s; writing them took ${w.enqueueSeconds} s; ${w.requests} requests received).
Arrivals out of their key's order: **${w.orderViolations}** — **${w.orderViolations === 0 ? 'PASS' : 'FAIL'}**.

\`POST /v1/calls\` (to the simulator's busy number, with a task) at concurrency ${c.concurrency}, ${c.callsPerMode} calls per mode in
${c.rounds} alternating rounds of one run (after a warm-up round each), one account per submitter, replaced before it
reaches the per-minute placement limit (fixed per account):

| Limits | Median (ms) | p99 (ms) |
|---|---|---|
| Redis (REDIS_URL set) | ${c.limitsOn.median} | ${c.limitsOn.p99} |
| In memory (no REDIS_URL) | ${c.limitsOff.median} | ${c.limitsOff.p99} |
| **Added by the Redis limiter** (median on − median off) | **${c.addedMedianMs}** | |

Target: the limiter adds ≤ ${r.target.addedMedianMs} ms at the median — **${r.target.result}**.
`;
}

async function benchmark() {
  // Other work on the machine shows in every number; the load average says how much there was.
  const loadBefore = loadavg()[0]!;
  const redis = await reachableRedis();
  if (!redis) throw new Error('no Redis: set REDIS_URL or run one on 127.0.0.1:6379');
  const database = await createScratchDatabase();
  let off: TestApp | undefined;
  let on: TestApp | undefined;
  try {
    off = await startTestApp({
      databaseUrl: database.url,
      controllers: true,
      env: { ...POOL, SWITCHBOARD_OUTBOUND_ALLOW: '127.0.0.1/32' },
    });
    on = await startTestApp({ databaseUrl: database.url, model: off.model, env: { ...POOL, REDIS_URL: redis } });
    const webhooks = await measureWebhooks(off);
    process.stderr.write(`webhooks: ${JSON.stringify(webhooks)}\n`);
    const calls = await measureCalls(off, on);
    const pass = calls.addedMedianMs <= TARGET_ADDED_MEDIAN_MS && webhooks.orderViolations === 0;
    return {
      date: new Date().toISOString(),
      machine: machineInfo(loadBefore),
      database: database.server,
      redis,
      webhooks,
      calls,
      target: { addedMedianMs: TARGET_ADDED_MEDIAN_MS, orderViolations: 0, result: pass ? 'PASS' : 'FAIL' },
    };
  } finally {
    await on?.close();
    await off?.close();
    await database.drop();
  }
}

const result = await benchmark();
writeResults('voice', result, markdown(result));
