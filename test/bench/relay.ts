// `make bench`, calls through the carrier (Twilio ConversationRelay, issue #17): one replica with the
// Twilio gateway in a worker thread, the model stand-in in another, and in this thread the Twilio
// stand-in and its relay callers, which time what the caller hears, behind a TLS front as a load
// balancer would be:
// - added time to first token: a caller's final `prompt` sent → the first `text` token received,
//   minus the model's own time to first token as the model server measured it (request received →
//   first content chunk written), one turn at a time; the same for a reference application in the
//   replica's place (relay-reference-server.ts), whose added time is this machine's hops alone, so
//   that what Switchboard adds beyond them is their difference. Both with the model answering at
//   once and after a real model's wait, during which Switchboard's own writes are made;
// - `interrupt` sent → the model's stream aborted as the model server sees it (its connection closed);
// - simultaneous relay calls, each talking to a model that takes MODEL_MS a turn: the most live at
//   once, the replica's event loop lag and the process's RSS meanwhile.
// Writes test/bench/results/relay.{json,md} and prints the table.
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { loadavg } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { RelayCaller } from '../support/carrier/relay-caller.js';
import { startTwilio, type CallerScript, type CarrierCall, type TwilioStandIn } from '../support/carrier/twilio.js';
import { NEW_ACCOUNT_CALLS_PER_MINUTE } from '../support/app.js';
import { createScratchDatabase } from '../support/database.js';
import { startTlsFront } from '../support/tls-front.js';
import { hrMsOf } from './clock.js';
import { machineInfo } from './machine.js';
import type { ModelAnswer, ModelMessage, ModelTiming } from './model-server.js';
import type { RelayServer, RelayServerOptions, Watched } from './relay-server.js';
import { writeResults } from './results.js';
import { stats } from './stats.js';
import { startThread, type Thread } from './threads.js';

/** What Switchboard may add to the first token beyond the reference's hops, at the median. */
const TARGET_ADDED_TTFT_MEDIAN_MS = 2;
const TARGET_INTERRUPT_MEDIAN_MS = 5;
const ACCOUNT_SID = `AC${'b2'.repeat(16)}`;
const AUTH_TOKEN = 'twilio-auth-token-for-the-benchmark';
const MODEL_CHUNKS = ['We open ', 'at nine ', 'on Saturdays.'];
/** Timed turns: calls one after another, each of PROMPTS_PER_CALL prompts one after another, after a warm-up call. */
const TIMED_CALLS = 20;
const PROMPTS_PER_CALL = 25;
const WARM_UP_PROMPTS = 10;
/** A caller speaks this long after the reply ended (a person never answers sooner), so each turn starts on a settled replica. */
const PAUSE_MS = 100;
/** A fast real model's time to first token: the model stand-in's wait in the second timed phase. */
const REAL_MODEL_MS = 200;
const MODEL_WAITS: { name: string; answer: ModelAnswer }[] = [
  { name: 'at once', answer: { type: 'at-once' } },
  { name: `after ${REAL_MODEL_MS} ms`, answer: { type: 'delay', ms: REAL_MODEL_MS } },
];
const LIVE_CALLS = 200;
const MODEL_MS = 2000;
const SUBMITTERS = 16;
const LIVE_TIMEOUT_MS = 180_000;
const CALL_TIMEOUT_MS = 60_000;
/** Each account places at most its per-minute placement limit over the whole run. */
const ACCOUNTS = { ttft: MODEL_WAITS.length, interrupt: 1, live: Math.ceil(LIVE_CALLS / NEW_ACCOUNT_CALLS_PER_MINUTE) };

interface Bench {
  twilio: TwilioStandIn;
  server: Thread<RelayServer>;
  model: Thread<{ url: string }>;
  serverUrl: string;
  /** The reference application's relay address (wss://, through a TLS front of its own). */
  referenceUrl: string;
}

/** Opens one call and runs `script` as its caller until the script ends. */
type Open = (script: CallerScript) => Promise<void>;
type Turn = (c: RelayCaller, id: string, counted: boolean) => Promise<void>;

/** Sends a message to a worker and waits for its answer. */
async function ask<T>(thread: Thread<unknown>, message: unknown): Promise<T> {
  const answered = once(thread.worker, 'message');
  thread.worker.postMessage(message);
  return (await answered)[0] as T;
}

const modelAnswers = (b: Bench, answer: ModelAnswer) => b.model.worker.postMessage({ answer } satisfies ModelMessage);
const modelTimings = async (b: Bench) => (await ask<{ timings: ModelTiming[] }>(b.model, 'timings' satisfies ModelMessage)).timings;

/** The turns (streamed requests) by the question id (q<phase><call>-<turn>) of their request's last user message. */
function timingsById(timings: ModelTiming[]): Map<string, ModelTiming> {
  const byId = new Map<string, ModelTiming>();
  for (const t of timings) {
    const id = t.streamed ? [...t.lastUserMessage.matchAll(/\bq(\w+-\d+)\b/g)].at(-1)?.[1] : undefined;
    if (id && !byId.has(id)) byId.set(id, t);
  }
  return byId;
}

async function place(b: Bench, apiKey: string, to: string, task: string): Promise<void> {
  const res = await fetch(`${b.serverUrl}/v1/calls`, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ to, task }),
  });
  if (res.status !== 201) throw new Error(`POST /v1/calls answered ${res.status}: ${await res.text()}`);
}

/** Waits until `probe` holds, polling, or fails after `ms`. */
async function until(what: string, ms: number, probe: () => boolean): Promise<void> {
  const deadline = Date.now() + ms;
  while (!probe()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(25);
  }
}

/**
 * Places `count` calls to `to` (16 submitters, `apiKeys` in turn, each up to its placement limit),
 * each conducted by `script`, and waits until all of them have ended; fails on any the stand-in saw fail.
 */
async function conduct(
  b: Bench,
  to: string,
  apiKeys: string[],
  count: number,
  script: CallerScript,
  timeoutMs: number,
): Promise<CarrierCall[]> {
  const before = b.twilio.calls.length;
  b.twilio.phones[to] = { answer: 'human', caller: script };
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(SUBMITTERS, count) }, async () => {
      for (let i = next++; i < count; i = next++)
        await place(b, apiKeys[Math.floor(i / NEW_ACCOUNT_CALLS_PER_MINUTE)]!, to, 'Answer the caller about opening hours.');
    }),
  );
  const ours = () => b.twilio.calls.slice(before).filter((c) => c.params.To === to);
  await until(`${count} calls to ${to} dialled`, timeoutMs, () => ours().length === count);
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>(
    (_, reject) => (timer = setTimeout(() => reject(new Error(`calls to ${to} still live after ${timeoutMs} ms`)), timeoutMs)),
  );
  await Promise.race([Promise.all(ours().map((c) => c.done)), timedOut]).finally(() => clearTimeout(timer));
  const failed = ours().flatMap((c) => c.errors);
  if (failed.length) throw new Error(`calls to ${to} failed: ${failed.slice(0, 3).join('; ')}`);
  return ours();
}

/** Says one prompt tagged with its question id; returns when it was sent (performance.now()). */
function sayQuestion(c: RelayCaller, id: string, question: string): number {
  c.say(`Question q${id}: ${question}`);
  return c.lastSentAtMs;
}

/** Calls placed through Switchboard to `to`, its stand-in caller playing the script. */
const placed =
  (b: Bench, to: string, apiKeys: string[]): Open =>
  async (script) =>
    void (await conduct(b, to, apiKeys, 1, script, CALL_TIMEOUT_MS));

/** Sockets opened to the reference as Twilio opens them (it has no calls to place). */
const referenceSockets =
  (b: Bench): Open =>
  async (script) => {
    const caller = await RelayCaller.connect({
      url: b.referenceUrl,
      authToken: AUTH_TOKEN,
      setup: {
        callSid: `CA${randomBytes(16).toString('hex')}`,
        accountSid: ACCOUNT_SID,
        from: '+12025550100',
        to: '+12025550171',
        direction: 'outbound-api',
      },
    });
    await script(caller);
  };

/**
 * A warm-up call of WARM_UP_PROMPTS turns, then TIMED_CALLS calls of PROMPTS_PER_CALL, one after
 * another, each turn `turn(caller, question id, counted)`, the caller speaking PAUSE_MS after each.
 */
async function callsOneByOne(open: Open, phase: string, turn: Turn) {
  for (let call = 0; call <= TIMED_CALLS; call++) {
    const prompts = call === 0 ? WARM_UP_PROMPTS : PROMPTS_PER_CALL;
    await open(async (c) => {
      for (let i = 0; i < prompts; i++) {
        await turn(c, `${phase}${call}-${i}`, call > 0);
        await sleep(PAUSE_MS);
      }
      await c.hangUp();
    });
  }
}

/** The time to first token of calls opened by `open`, the model answering as `answer` says. */
async function timeToFirstToken(b: Bench, open: Open, phase: string, answer: ModelAnswer) {
  modelAnswers(b, answer);
  const turns: { id: string; sentMs: number; heardMs: number }[] = [];
  await callsOneByOne(open, phase, async (c, id, counted) => {
    const sentAt = sayQuestion(c, id, 'when do you open on Saturday?');
    const reply = await c.reply();
    if (counted) turns.push({ id, sentMs: sentAt, heardMs: reply.tokens[0]!.atMs });
  });
  const byId = timingsById(await modelTimings(b));
  const timed = turns.map((t) => {
    const seen = byId.get(t.id);
    if (seen?.firstChunkMs === undefined) throw new Error(`the model has no first chunk for question q${t.id}`);
    return { ...t, receivedMs: seen.receivedMs, firstChunkMs: seen.firstChunkMs };
  });
  const heard = timed.map((t) => t.heardMs - t.sentMs);
  const model = timed.map((t) => t.firstChunkMs - t.receivedMs);
  const addedMs = stats(heard.map((h, i) => h - model[i]!));
  return {
    prompts: turns.length,
    calls: TIMED_CALLS,
    warmUpPrompts: WARM_UP_PROMPTS,
    pauseMs: PAUSE_MS,
    callerTtftMs: stats(heard),
    modelTtftMs: stats(model),
    addedMs,
    // Where the added time goes: before the model was asked, and after its first chunk.
    promptToModelRequestMs: stats(timed.map((t) => t.receivedMs - hrMsOf(t.sentMs))),
    modelChunkToHeardMs: stats(timed.map((t) => hrMsOf(t.heardMs) - t.firstChunkMs)),
  };
}

/** Switchboard's and the reference's time to first token, with the model answering at once and after a real model's wait. */
async function timesToFirstToken(b: Bench, apiKeys: string[]) {
  const phases = [];
  for (const [n, wait] of MODEL_WAITS.entries()) {
    const switchboard = await timeToFirstToken(b, placed(b, '+12025550171', apiKeys.slice(n, n + 1)), `t${n}s`, wait.answer);
    const reference = await timeToFirstToken(b, referenceSockets(b), `t${n}r`, wait.answer);
    const beyondMs = {
      median: round(switchboard.addedMs.median - reference.addedMs.median),
      p99: round(switchboard.addedMs.p99 - reference.addedMs.p99),
    };
    phases.push({
      model: wait.name,
      switchboard,
      reference,
      beyondMs,
      result: beyondMs.median <= TARGET_ADDED_TTFT_MEDIAN_MS ? 'PASS' : 'FAIL',
    });
  }
  return phases;
}

const round = (ms: number) => Math.round(ms * 1000) / 1000;

async function interruptToAbort(b: Bench, apiKeys: string[]) {
  modelAnswers(b, { type: 'hold' });
  const interrupts: { id: string; sentHrMs: number }[] = [];
  await callsOneByOne(placed(b, '+12025550172', apiKeys), 'i', async (c, id, counted) => {
    sayQuestion(c, id, 'tell me everything about your plans.');
    await c.interruptAfter(1);
    if (counted) interrupts.push({ id, sentHrMs: hrMsOf(c.lastSentAtMs) });
  });
  const byId = timingsById(await modelTimings(b));
  const toAbort = interrupts.map((i) => {
    const seen = byId.get(i.id);
    if (seen?.abortedMs === undefined) throw new Error(`the model's stream for question q${i.id} was never aborted`);
    return seen.abortedMs - i.sentHrMs;
  });
  const ms = stats(toAbort);
  return {
    interrupts: interrupts.length,
    calls: TIMED_CALLS,
    toAbortMs: ms,
    result: ms.median <= TARGET_INTERRUPT_MEDIAN_MS ? 'PASS' : 'FAIL',
  };
}

async function simultaneous(b: Bench, apiKeys: string[]) {
  modelAnswers(b, { type: 'delay', ms: MODEL_MS });
  let live = 0;
  let peak = 0;
  let started = 0;
  const waits: number[] = [];
  const begin = Date.now();
  // Each caller talks turn after turn until every call has gone live (or time is up), then hangs up.
  const everyoneLive = () => started === LIVE_CALLS || Date.now() - begin > LIVE_TIMEOUT_MS / 2;
  b.server.worker.postMessage('watch');
  await conduct(
    b,
    '+12025550173',
    apiKeys,
    LIVE_CALLS,
    async (c) => {
      const call = started++;
      peak = Math.max(peak, ++live);
      try {
        let turn = 0;
        do {
          const sentAt = sayQuestion(c, `l${call}-${turn++}`, 'can you check my order?');
          const reply = await c.reply();
          waits.push(reply.tokens[0]!.atMs - sentAt);
        } while (!everyoneLive());
        await c.hangUp();
      } finally {
        live--;
      }
    },
    LIVE_TIMEOUT_MS,
  );
  const watched = await ask<Watched>(b.server, 'watched');
  return {
    calls: LIVE_CALLS,
    accounts: apiKeys.length,
    modelMs: MODEL_MS,
    peakLive: peak,
    turns: waits.length,
    promptToFirstTokenMs: stats(waits),
    ...watched,
  };
}

function markdown(r: Awaited<ReturnType<typeof benchmark>>): string {
  const { ttft, interrupt: i, live: l } = r;
  const [first] = ttft;
  const row = (what: string, pick: (p: (typeof ttft)[number]) => { median: number; p99: number }, bold = false) => {
    const cells = ttft.flatMap((p) => [pick(p).median, pick(p).p99]).map((v) => (bold ? `**${v}**` : String(v)));
    return `| ${what} | ${cells.join(' | ')} |`;
  };
  return `# Relay calls benchmark (Twilio ConversationRelay)

${r.date} · ${r.machine.cpus} × ${r.machine.cpuModel} · ${r.machine.os} · Node ${r.machine.node} · Postgres: ${r.database}
· load average ${r.machine.loadAverage1m.before.toFixed(2)} before, ${r.machine.loadAverage1m.after.toFixed(2)} after

One replica (API, relay socket and controllers in one worker thread, SWITCHBOARD_CARRIER=twilio) placing calls through
the Twilio stand-in, whose relay callers (in the main thread) reach it over wss through a TLS front; the model stand-in
answers from a worker thread of its own and times each request itself. Turns are one at a time, the caller speaking
${first!.switchboard.pauseMs} ms after each reply; ${first!.switchboard.calls} calls of ${PROMPTS_PER_CALL} prompts each, after a warm-up call of ${first!.switchboard.warmUpPrompts} not counted.
The reference is the least a relay application does, in the replica's place (its own thread and TLS front): each
final prompt asks the model through the same client and streams its tokens back; no call, agent or database.
With a real model, Switchboard's write of each turn's words (one transaction: the message and the transcript line,
reading the call's row again) is made while the model is asked; with the model answering at once, it is what is left.

| ${first!.switchboard.prompts} prompts a column pair, ms | ${ttft.map((p) => `Model answering ${p.model}: median | p99`).join(' | ')} |
|---|${ttft.map(() => '---|---|').join('')}
${row('Final `prompt` sent → first `text` token heard', (p) => p.switchboard.callerTtftMs)}
${row("· the model's own time to first token (request received → first chunk written)", (p) => p.switchboard.modelTtftMs)}
${row("Added (per prompt: heard − model's)", (p) => p.switchboard.addedMs)}
${row("· of which: prompt sent → the model's request received", (p) => p.switchboard.promptToModelRequestMs)}
${row("· of which: the model's first chunk written → token heard", (p) => p.switchboard.modelChunkToHeardMs)}
${row("The reference's added time (the hops alone)", (p) => p.reference.addedMs)}
${row('**Added by Switchboard beyond the reference**', (p) => p.beyondMs, true)}

| \`interrupt\` sent → the model's stream aborted at the model server (${i.interrupts} interrupts) | **${i.toAbortMs.median}** | **${i.toAbortMs.p99}** |

Targets: ≤ ${r.targets.addedTtftMedianMs} ms added beyond the reference at the median — ${ttft.map((p) => `model ${p.model}: **${p.result}**`).join(', ')}; ≤ ${r.targets.interruptMedianMs} ms from \`interrupt\` to the
model's abort at the median — **${i.result}**.

Simultaneous relay calls: ${l.calls} calls placed from ${SUBMITTERS} submitters over ${l.accounts} accounts (each within its
${NEW_ACCOUNT_CALLS_PER_MINUTE} placements a minute), every caller talking turn after turn to a model that takes ${l.modelMs} ms to answer until all had gone live.

| | |
|---|---|
| Most relay calls live at once | **${l.peakLive}** |
| · prompt → first token, median / p99 (${l.turns} turns) | ${l.promptToFirstTokenMs.median} / ${l.promptToFirstTokenMs.p99} ms |
| · the replica's event loop lag p99 meanwhile | ${l.eventLoopLagP99Ms} ms |
| · peak RSS of the process (all its threads: replica, model, stand-ins) | ${l.rssPeakMB} MB |
`;
}

async function benchmark() {
  const loadBefore = loadavg()[0]!;
  const database = await createScratchDatabase();
  const twilio = await startTwilio({ accountSid: ACCOUNT_SID, authToken: AUTH_TOKEN });
  const front = await startTlsFront();
  const referenceFront = await startTlsFront();
  const model = await startThread<{ url: string }>(new URL('./model-server.js', import.meta.url), { chunks: MODEL_CHUNKS });
  let server: Thread<RelayServer> | undefined;
  const reference = await startThread<{ url: string }>(new URL('./relay-reference-server.js', import.meta.url), {
    modelUrl: model.ready.url,
  });
  referenceFront.forwardTo(reference.ready.url);
  try {
    const options: RelayServerOptions = {
      databaseUrl: database.url,
      modelUrl: model.ready.url,
      twilio: { url: twilio.url, accountSid: ACCOUNT_SID, authToken: AUTH_TOKEN },
      publicUrl: front.url,
      accounts: ACCOUNTS.ttft + ACCOUNTS.interrupt + ACCOUNTS.live,
    };
    server = await startThread<RelayServer>(new URL('./relay-server.js', import.meta.url), options);
    front.forwardTo(server.ready.url);
    const referenceUrl = `${referenceFront.url.replace(/^https:/, 'wss:')}/relay`;
    const b: Bench = { twilio, server, model, serverUrl: server.ready.url, referenceUrl };
    const keys = server.ready.apiKeys;
    const ttft = await timesToFirstToken(b, keys.slice(0, ACCOUNTS.ttft));
    process.stderr.write(`time to first token: ${JSON.stringify(ttft)}\n`);
    const interrupt = await interruptToAbort(b, keys.slice(ACCOUNTS.ttft, ACCOUNTS.ttft + 1));
    process.stderr.write(`interrupt: ${JSON.stringify(interrupt)}\n`);
    const live = await simultaneous(b, keys.slice(ACCOUNTS.ttft + 1));
    return {
      date: new Date().toISOString(),
      machine: machineInfo(loadBefore),
      database: database.server,
      targets: { addedTtftMedianMs: TARGET_ADDED_TTFT_MEDIAN_MS, interruptMedianMs: TARGET_INTERRUPT_MEDIAN_MS },
      ttft,
      interrupt,
      live,
    };
  } finally {
    await server?.close();
    await reference.close();
    await model.close();
    await front.close();
    await referenceFront.close();
    await twilio.close();
    await database.drop();
  }
}

const result = await benchmark();
writeResults('relay', result, markdown(result));
