// `make bench`: what Switchboard adds to a streamed turn's time to first token, against the same
// at a baseline revision in the same run (the regression gate), how many non-streamed turns one
// process serves at concurrency 16, and the bytes a turn allocates on the server beside the
// baseline's. Loopback only, bounded in time; writes test/bench/results/agent-api.{json,md} and
// prints the table.
import { calibrate, type AllocationSite } from './allocations.js';
import { baselineMeaning, buildBaseline } from './baseline.js';
import { machineInfo } from './machine.js';
import { writeResults } from './results.js';
import { stats } from './stats.js';
import { loadavg } from 'node:os';
import pg from 'pg';
import { createParser } from 'eventsource-parser';
import { createScratchDatabase } from '../support/database.js';
import { clientFor, type Client } from '../support/app.js';
import type { BenchServer } from './server.js';
import { startThread } from './threads.js';
import { measureTurnAllocations, type TurnAllocations } from './turn-allocations.js';

const TARGET_ADDED_TTFT_MS = 1;
/** The regression gate: added time to first token no more than this much above the baseline's. */
const GATE_RATIO = 1.1;
// Main before issue #38's rework.
const DEFAULT_BASELINE = '9ebf181';
const BASELINE = process.env.BENCH_BASELINE ?? DEFAULT_BASELINE;
const WARMUP_TURNS = 30;
const TTFT_TURNS = 250;
const CONCURRENCY = 16;
const THROUGHPUT_TURNS = 800;
const THROUGHPUT_SECONDS = 20;
// Conversations are replaced after this many turns, so history stays the size of a real chat.
const TURNS_PER_CONVERSATION = 10;
/** Bytes a turn allocates: at most this share of the baseline's, streamed and not (issue #40). */
const TARGET_ALLOCATED_RATIO = 0.5;
const ALLOCATION_TURNS = 100;

/**
 * POSTs `body` and reads the event stream: ms from the request's start to the first event
 * `isContent` accepts, and the phases of the answer's Server-Timing header (ms by name).
 */
async function timeToFirstToken(
  url: string,
  headers: Record<string, string>,
  body: unknown,
  isContent: (data: string) => boolean,
): Promise<{ ms: number; phases: Record<string, number> }> {
  const started = performance.now();
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  if (!res.ok || !res.body) throw new Error(`${url} answered ${res.status}: ${await res.text()}`);
  let first: number | undefined;
  const parser = createParser({
    onEvent: (e) => {
      if (first === undefined && isContent(e.data)) first = performance.now();
    },
  });
  const decoder = new TextDecoder();
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) parser.feed(decoder.decode(chunk, { stream: true }));
  if (first === undefined) throw new Error(`${url} streamed no content`);
  const phases: Record<string, number> = {};
  for (const entry of res.headers.get('server-timing')?.split(', ') ?? []) {
    const [name, dur] = entry.split(';dur=');
    phases[name!] = (phases[name!] ?? 0) + Number(dur);
  }
  return { ms: first - started, phases };
}

function switchboardContent(data: string): boolean {
  const event = JSON.parse(data) as { type: string; error?: string };
  if (event.type === 'error') throw new Error(`streamed turn failed: ${event.error}`);
  return event.type === 'content';
}

function modelContent(data: string): boolean {
  return data !== '[DONE]' && Boolean((JSON.parse(data) as { choices: { delta?: { content?: string } }[] }).choices[0]?.delta?.content);
}

/** Conversation ids handed out so each lasts TURNS_PER_CONVERSATION turns. */
function conversations(client: Client, agentId: string): () => Promise<string> {
  let current = '';
  let turns = 0;
  return async () => {
    if (turns++ % TURNS_PER_CONVERSATION === 0) {
      const created = await client.post('/api/v1/conversations', { agentId });
      if (created.status !== 201) throw new Error(`creating a conversation answered ${created.status}`);
      current = created.body.conversationId;
    }
    return current;
  };
}

/**
 * A turn must read its key, lock and context from Postgres before the model is asked, and its
 * client reaches the model through one more HTTP hop: measured beside every pair, as one Postgres
 * round trip and the time a no-op proxy adds.
 */
async function measureTtft(server: BenchServer, baseline: BenchServer, proxyUrl: string, db: pg.Client, turns: number) {
  const samples: Record<'through' | 'direct' | 'added' | 'proxied' | 'postgres' | 'beyond' | 'baselineBeyond', number[]> = {
    through: [],
    direct: [],
    added: [],
    proxied: [],
    postgres: [],
    beyond: [],
    baselineBeyond: [],
  };
  const phases: Record<string, number[]> = {};
  const via = (s: BenchServer) => {
    const next = conversations(clientFor(s.url, s.apiKey), s.agentId);
    return async () =>
      timeToFirstToken(
        `${s.url}/api/v1/conversations/${await next()}/messages`,
        { authorization: `Bearer ${s.apiKey}` },
        { message: 'Hi, what can you do?', stream: true },
        switchboardContent,
      );
  };
  const straight = (base: string) => () =>
    timeToFirstToken(
      `${base}/chat/completions`,
      {},
      {
        model: 'bench',
        stream: true,
        stream_options: { include_usage: true },
        messages: [
          { role: 'system', content: server.systemPrompt },
          { role: 'user', content: 'Hi, what can you do?' },
        ],
      },
      modelContent,
    );
  const ways = [via(server), straight(server.modelUrl), straight(`${proxyUrl}${new URL(server.modelUrl).pathname}`), via(baseline)];
  for (let i = 0; i < turns; i++) {
    // Rotating which goes first keeps any from always meeting a warmer machine.
    const results: Awaited<ReturnType<(typeof ways)[0]>>[] = [];
    for (let k = 0; k < ways.length; k++) {
      const way = (i + k) % ways.length;
      results[way] = await ways[way]!();
    }
    const [s, d, p, b] = results as [(typeof results)[0], (typeof results)[0], (typeof results)[0], (typeof results)[0]];
    const started = performance.now();
    await db.query('select 1');
    const postgres = performance.now() - started;
    samples.through.push(s.ms);
    samples.direct.push(d.ms);
    samples.added.push(s.ms - d.ms);
    samples.proxied.push(p.ms - d.ms);
    samples.postgres.push(postgres);
    samples.beyond.push(s.ms - p.ms - postgres);
    samples.baselineBeyond.push(b.ms - p.ms - postgres);
    // The model is asked while the user's message is stored: which answers first varies, so the two count as one.
    const { auth = 0, context = 0, ...overlapped } = s.phases;
    const opened = Object.values(overlapped).reduce((a, b) => a + b, 0);
    for (const [name, ms] of Object.entries({ auth, context, store: opened, total: auth + context + opened }))
      (phases[name] ??= []).push(ms);
  }
  const breakdown = Object.fromEntries(Object.entries(phases).map(([name, values]) => [name, stats(values)]));
  return {
    turns,
    switchboard: stats(samples.through),
    model: stats(samples.direct),
    added: stats(samples.added),
    addedByNoOpProxy: stats(samples.proxied),
    postgresRoundTrip: stats(samples.postgres),
    addedBeyondProxyAndRoundTrip: stats(samples.beyond),
    baselineAddedBeyondProxyAndRoundTrip: stats(samples.baselineBeyond),
    serverTiming: breakdown,
  };
}

async function measureThroughput(client: Client, agentId: string) {
  const latencies: number[] = [];
  const perWorker = Math.ceil(THROUGHPUT_TURNS / CONCURRENCY);
  // Conversations are made up front so the timed loop holds only turns.
  const pools = await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      const ids: string[] = [];
      for (let i = 0; i < Math.ceil(perWorker / TURNS_PER_CONVERSATION); i++) {
        ids.push((await client.post('/api/v1/conversations', { agentId })).body.conversationId);
      }
      return ids;
    }),
  );
  const begin = performance.now();
  const deadline = begin + THROUGHPUT_SECONDS * 1000;
  await Promise.all(
    pools.map(async (ids) => {
      for (let turn = 0; turn < perWorker && performance.now() < deadline; turn++) {
        const t0 = performance.now();
        const id = ids[Math.floor(turn / TURNS_PER_CONVERSATION)];
        const res = await client.post(`/api/v1/conversations/${id}/messages`, { message: 'Hi, what can you do?' });
        if (res.status !== 200) throw new Error(`a turn answered ${res.status}: ${JSON.stringify(res.body)}`);
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const seconds = (performance.now() - begin) / 1000;
  return {
    concurrency: CONCURRENCY,
    turns: latencies.length,
    seconds: Math.round(seconds * 100) / 100,
    turnsPerSecond: Math.round((latencies.length / seconds) * 10) / 10,
    latency: stats(latencies),
  };
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

const siteRows = (sites: AllocationSite[], turns: number) =>
  sites.map((s) => `| ${s.site.replaceAll('|', '\\|')} | ${kb(s.bytes / turns)} | ${(s.share * 100).toFixed(1)}% |`).join('\n');

function allocationTables(r: Awaited<ReturnType<typeof run>>): string {
  const { allocations: a, gate } = r;
  const kinds = [
    ['nonStreamed', 'Non-streamed turn'],
    ['streamed', 'Streamed turn'],
  ] as const;
  const rows = kinds
    .map(
      ([kind, name]) => `| ${name} | ${kb(a.workingTree[kind].bytesPerTurn)} | ${kb(a.baseline[kind].bytesPerTurn)} | ${a.ratio[kind]} |`,
    )
    .join('\n');
  const sites = (
    t: TurnAllocations,
    name: string,
  ) => `${name}: where a non-streamed turn's bytes are allocated (the innermost function with a
source, a builtin it called after the arrow, its file and the line it starts on; then the package or folder of the
innermost function outside Node's own code):

| Site | Per turn | Share |
|---|---|---|
${siteRows(t.sites, t.turns)}

| Package or folder | Per turn | Share |
|---|---|---|
${siteRows(t.modules, t.turns)}
`;
  return `Bytes allocated a turn on the server (V8's sampling heap profiler in the server's thread, objects since collected
included; ${a.workingTree.nonStreamed.turns} turns of each kind, in conversations of up to ${TURNS_PER_CONVERSATION} turns, the baseline's interleaved with them;
the profiler read ${a.calibration.measuredMB} MB where a thread allocated ${a.calibration.allocatedMB} MB it knew of):

| Turn | Working tree | Baseline ${gate.baseline.revision} | Ratio |
|---|---|---|---|
${rows}

Target: the bytes a turn allocates at most ${TARGET_ALLOCATED_RATIO}× the baseline's, streamed and not — **${a.result}**.

${sites(a.workingTree.nonStreamed, 'The working tree')}
${sites(a.baseline.nonStreamed, `The baseline ${gate.baseline.revision}`)}`;
}

function markdown(r: Awaited<ReturnType<typeof run>>): string {
  const { ttft, throughput: t } = r;
  return `# Agent API benchmark

${r.date} · ${r.machine.cpus} × ${r.machine.cpuModel} · ${r.machine.os} · Node ${r.machine.node} · Postgres: ${r.database}
· load average ${r.machine.loadAverage1m.before.toFixed(2)} before, ${r.machine.loadAverage1m.after.toFixed(2)} after

| Measure | Median (ms) | p99 (ms) |
|---|---|---|
| Streamed time to first token through Switchboard | ${ttft.switchboard.median} | ${ttft.switchboard.p99} |
| Streamed time to first token straight from the model server | ${ttft.model.median} | ${ttft.model.p99} |
| **Added by Switchboard** (per-turn difference, ${ttft.turns} rotating rounds) | **${ttft.added.median}** | ${ttft.added.p99} |
| Added by a no-op HTTP proxy in front of the same model server (same pairs) | ${ttft.addedByNoOpProxy.median} | ${ttft.addedByNoOpProxy.p99} |
| One Postgres round trip (\`select 1\`, beside each pair) | ${ttft.postgresRoundTrip.median} | ${ttft.postgresRoundTrip.p99} |
| Added by Switchboard beyond the proxy's hop and one round trip | ${ttft.addedBeyondProxyAndRoundTrip.median} | ${ttft.addedBeyondProxyAndRoundTrip.p99} |
| The same at the baseline revision ${r.gate.baseline.revision}, measured beside each of those | ${ttft.baselineAddedBeyondProxyAndRoundTrip.median} | ${ttft.baselineAddedBeyondProxyAndRoundTrip.p99} |
| Non-streamed turn latency at concurrency ${t.concurrency} | ${t.latency.median} | ${t.latency.p99} |

Where a streamed turn's time goes on the server before the stream opens, from Switchboard's \`Server-Timing\` header
(median ms): ${Object.entries(ttft.serverTiming)
    .map(([name, s]) => `\`${name}\` ${s.median}`)
    .join(' · ')} — \`auth\`: the key's lookup; \`context\`: the conversation's lock, then its reads side by side;
\`store\`: until the user's message is durable (committed), while the model is already being asked; \`total\`: their sum.

Non-streamed throughput: **${t.turnsPerSecond} turns/s** (${t.turns} turns, ${t.concurrency} conversations in parallel, ${t.seconds} s).

A turn must read its key, lock and context from Postgres before the model is asked, and its client
reaches the model through one more HTTP hop, which a proxy that does nothing already pays on this machine; the row
before the throughput is what Switchboard adds beyond those two.

Target: added median time to first token ≤ ${r.target.addedMedianTtftMs} ms — **${r.target.result}**.

Regression gate: added beyond the proxy's hop and one round trip, median, no more than ${r.gate.ratio}× the baseline's
(${r.gate.baseline.revision}, ${r.gate.baseline.commit.slice(0, 12)}: ${baselineMeaning(r.gate.baseline.revision, DEFAULT_BASELINE)}, checked out and built beside the
working tree and run the same way, on a database of its own, its turns interleaved with these) — **${r.gate.result}**.

${allocationTables(r)}`;
}

async function run() {
  // Other work on the machine shows in every number; the load average says how much there was.
  const loadBefore = loadavg()[0]!;
  const database = await createScratchDatabase();
  // Several chunks with no delay: the first one is what time to first token measures.
  const model = await startThread<{ url: string }>(new URL('./model-server.js', import.meta.url), {
    chunks: ['Hello', ' there,', ' how', ' can', ' I', ' help', ' you', ' today?'],
  });
  const api = await startThread<BenchServer>(new URL('./server.js', import.meta.url), {
    databaseUrl: database.url,
    modelUrl: model.ready.url,
  });
  // The baseline on a database of its own, migrated by its own code.
  const baseline = buildBaseline(BASELINE);
  const { createScratchDatabase: createBaselineDatabase } = (await import(new URL('test/support/database.js', baseline.dist).href)) as {
    createScratchDatabase: typeof createScratchDatabase;
  };
  const baselineDatabase = await createBaselineDatabase();
  const before = await startThread<BenchServer>(new URL('test/bench/server.js', baseline.dist), {
    databaseUrl: baselineDatabase.url,
    modelUrl: model.ready.url,
  });
  const proxy = await startThread<{ url: string }>(new URL('./proxy-server.js', import.meta.url), {
    target: new URL(model.ready.url).origin,
  });
  const db = new pg.Client({ connectionString: database.url });
  await db.connect();
  try {
    const server = api.ready;
    const client = clientFor(server.url, server.apiKey);
    await measureTtft(server, before.ready, proxy.ready.url, db, WARMUP_TURNS);
    const ttft = await measureTtft(server, before.ready, proxy.ready.url, db, TTFT_TURNS);
    const throughput = await measureThroughput(client, server.agentId);
    // Last: the profiler's sampling would slow the timed phases.
    const calibration = await calibrate();
    const [workingTree, baselineAllocations] = (await measureTurnAllocations([api, before], ALLOCATION_TURNS, TURNS_PER_CONVERSATION)) as [
      Record<'nonStreamed' | 'streamed', TurnAllocations>,
      Record<'nonStreamed' | 'streamed', TurnAllocations>,
    ];
    const ratioOf = (kind: 'nonStreamed' | 'streamed') =>
      Math.round((workingTree[kind].bytesPerTurn / baselineAllocations[kind].bytesPerTurn) * 100) / 100;
    const ratio = { nonStreamed: ratioOf('nonStreamed'), streamed: ratioOf('streamed') };
    const allocationsPass = ratio.nonStreamed <= TARGET_ALLOCATED_RATIO && ratio.streamed <= TARGET_ALLOCATED_RATIO;
    const pass = ttft.added.median <= TARGET_ADDED_TTFT_MS;
    // Both sides of the gate are at least a tenth of a millisecond, so noise around zero cannot decide it.
    const floor = (ms: number) => Math.max(ms, 0.1);
    const gatePass =
      floor(ttft.addedBeyondProxyAndRoundTrip.median) <= floor(ttft.baselineAddedBeyondProxyAndRoundTrip.median) * GATE_RATIO;
    return {
      date: new Date().toISOString(),
      machine: machineInfo(loadBefore),
      database: database.server,
      ttft,
      throughput,
      target: { addedMedianTtftMs: TARGET_ADDED_TTFT_MS, result: pass ? 'PASS' : 'FAIL' },
      gate: { baseline: { revision: BASELINE, commit: baseline.commit }, ratio: GATE_RATIO, result: gatePass ? 'PASS' : 'FAIL' },
      allocations: {
        calibration,
        workingTree,
        baseline: baselineAllocations,
        ratio,
        targetRatio: TARGET_ALLOCATED_RATIO,
        result: allocationsPass ? 'PASS' : 'FAIL',
      },
    };
  } finally {
    await db.end();
    await before.close();
    await baselineDatabase.drop();
    await proxy.close();
    await api.close();
    await model.close();
    await database.drop();
  }
}

const result = await run();
writeResults('agent-api', result, markdown(result));
