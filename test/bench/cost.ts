// `make bench`, Postgres cost: what one unit of work costs Postgres — a job (one at a time, and in a
// burst), a streamed turn, a call of 10 lines, a webhook delivery — beside graphile-worker's job, in
// statements, round trips, rows written and WAL. The measured system runs against a Postgres cluster
// of the benchmark's own (embedded), every one of its connections through a counting proxy
// (pg-wire-counter.ts), a fresh database per kind. Writes test/bench/results/cost.{json,md}.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { startControllers } from '../../controllers/index.js';
import { loadConfig } from '../../pkg/config.js';
import { startEmbeddedPostgres } from '../../pkg/db/embedded.js';
import { createLogger } from '../../pkg/log.js';
import { startRuntime } from '../../pkg/runtime.js';
import { updateTenant } from '../../pkg/tenants/settings.js';
import type { ScenarioTable } from '../../pkg/voice/gateways/sim.js';
import { enqueueEvent } from '../../pkg/webhooks/outbox.js';
import { startTestApp, TEST_ENCRYPTION_KEY, type TestApp } from '../support/app.js';
import { createScratchDatabase } from '../support/database.js';
import { startHttpsServer } from '../support/https.js';
import type { BenchClient } from './http-client.js';
import { benchCompany } from './job-client.js';
import { burst, closedLoop, graphileDriver, switchboardDriver, type Driver } from './job-drivers.js';
// Types only: importing a value would run the server thread's script here.
import type { GraphileTask, JobsServerOptions, JobsServerReady } from './jobs-server.js';
import { machineInfo } from './machine.js';
import { startWireCounter, type StatementCounts, type WireCounter, type WireCounts } from './pg-wire-counter.js';
import { writeResults } from './results.js';
import { startThread } from './threads.js';

/** Units measured per kind (calls: CALL_UNITS), after WARMUP_UNITS not counted. */
const UNITS = Number(process.env.BENCH_COST_UNITS ?? 150);
const CALL_UNITS = Number(process.env.BENCH_COST_CALL_UNITS ?? 100);
const WARMUP_UNITS = 20;
/** Controller concurrency (Switchboard) and worker concurrency (graphile-worker), and a burst's submitters. */
const CONCURRENCY = 16;
// Production's default pool sizes, as jobs.ts gives them.
const SWITCHBOARD_POOL_MAX = 41;
const GRAPHILE_POOL_MAX = 20;
/** A backend flushes its table statistics when idle within 10 s (PGSTAT_IDLE_INTERVAL); read after that. */
const STATS_FLUSH_MS = 11_000;
const HISTORY_TURNS = 4;
const CALL_LINES = 10;
const CALLEE = '+12025550170';
const TOP_STATEMENTS = 15;
const SQL_SHOWN = 100;

/** One run of a kind's units: `run(n)` does n units and returns when the last has finished. */
interface System {
  prepare?(units: number): Promise<void>;
  run(units: number): Promise<void>;
  close(): Promise<void>;
}

interface Kind {
  key: string;
  name: string;
  units: number;
  /** Per second of an idle system rather than per unit. */
  perSecond?: boolean;
  start(databaseUrl: string, bench: Bench): Promise<System>;
}

interface Bench {
  counter: WireCounter;
  modelUrl: string;
}

const quiet = () => new Writable({ write: (_chunk, _enc, done) => done() });

/** Switchboard as deployed: an API and a controllers process (here two runtimes), each on its own proxy listener. */
async function startSwitchboard(databaseUrl: string, { counter, modelUrl }: Bench, env: Record<string, string> = {}) {
  const settings = {
    OPENAI_BASE_URL: modelUrl,
    SWITCHBOARD_DB_POOL_MAX: String(SWITCHBOARD_POOL_MAX),
    SWITCHBOARD_CONTROLLER_CONCURRENCY: String(CONCURRENCY),
    SWITCHBOARD_OUTBOUND_ALLOW: '127.0.0.1/32',
    ...env,
  };
  const app = await startTestApp({ databaseUrl: await counter.proxy(databaseUrl, 'api'), env: settings });
  const config = loadConfig({
    DATABASE_URL: await counter.proxy(databaseUrl, 'controllers'),
    SWITCHBOARD_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
    ...settings,
  });
  const runtime = await startRuntime(config, createLogger('debug', quiet()));
  const controllers = await startControllers(runtime.ctx);
  return {
    app,
    async close() {
      await controllers.stop();
      await runtime.close();
      await app.close();
    },
  };
}

const switchboardJobs =
  (inBurst: boolean) =>
  async (databaseUrl: string, bench: Bench): Promise<System> => {
    const switchboard = await startSwitchboard(databaseUrl, bench);
    const company = await benchCompany(switchboard.app, 'Postgres cost');
    const driver = switchboardDriver({ url: switchboard.app.url, apiKey: company.apiKey, agentId: company.agentId });
    return { run: (n) => runJobs(driver, n, inBurst), close: switchboard.close };
  };

async function runJobs(driver: Driver, n: number, inBurst: boolean): Promise<void> {
  if (inBurst) await burst(driver, n, CONCURRENCY);
  else await closedLoop(driver, n, 1);
}

const graphileJobs =
  (task: GraphileTask, inBurst: boolean) =>
  async (databaseUrl: string, { counter, modelUrl }: Bench): Promise<System> => {
    const options: JobsServerOptions = {
      role: 'graphile-worker',
      concurrency: CONCURRENCY,
      poolMax: GRAPHILE_POOL_MAX,
      databaseUrl: await counter.proxy(databaseUrl, 'worker'),
      modelUrl: task === 'work' ? modelUrl : undefined,
    };
    const worker = await startThread<JobsServerReady>(new URL('./jobs-server.js', import.meta.url), options);
    const driver = await graphileDriver(worker.worker, await counter.proxy(databaseUrl, 'addJob'), task, CONCURRENCY);
    return {
      run: (n) => runJobs(driver, n, inBurst),
      async close() {
        await driver.close();
        await worker.close();
      },
    };
  };

/** POSTs a message and reads its answer to the end; streamed, the answer's events must hold no error. */
async function turn(app: TestApp, apiKey: string, conversationId: string, stream: boolean): Promise<void> {
  const res = await fetch(`${app.url}/api/v1/conversations/${conversationId}/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` },
    body: JSON.stringify({ message: 'Hi, what can you do?', stream }),
  });
  const text = await res.text();
  if (!res.ok || text.includes('"type":"error"')) throw new Error(`a turn answered ${res.status}: ${text.slice(0, 300)}`);
}

async function streamedTurns(databaseUrl: string, bench: Bench): Promise<System> {
  const switchboard = await startSwitchboard(databaseUrl, bench);
  const company = await benchCompany(switchboard.app, 'Postgres cost');
  const conversations: string[] = [];
  return {
    // Each measured turn on a conversation of its own with the same history before it.
    async prepare(units) {
      for (let i = 0; i < units; i++) {
        const created = await company.bench.request('POST', '/api/v1/conversations', { agentId: company.agentId });
        if (created.status !== 201) throw new Error(`creating a conversation answered ${created.status}`);
        for (let t = 0; t < HISTORY_TURNS; t++) await turn(switchboard.app, company.apiKey, created.body.conversationId, false);
        conversations.push(created.body.conversationId);
      }
    },
    async run(n) {
      for (const id of conversations.splice(0, n)) await turn(switchboard.app, company.apiKey, id, true);
    },
    close: switchboard.close,
  };
}

/** The callee of every call: answers at once and says CALL_LINES lines, each at once after the agent's reply. */
function writeNetwork(): string {
  const lines = Array.from({ length: CALL_LINES }, (_, k) => `This is line ${k + 1} of the callee.`);
  const table: ScenarioTable = {
    default: { scenario: 'busy', ring_ms: 0, reply_ms: 0, lines: [] },
    numbers: { [CALLEE]: { scenario: 'answer', ring_ms: 0, reply_ms: 0, lines } },
  };
  const path = join(tmpdir(), `switchboard-bench-cost-${process.pid}.json`);
  writeFileSync(path, JSON.stringify(table));
  return path;
}

async function call(client: BenchClient): Promise<void> {
  const placed = await client.request('POST', '/v1/calls', { to: CALLEE, task: 'Benchmark call: answer each line briefly.' });
  if (placed.status !== 201) throw new Error(`POST /v1/calls answered ${placed.status}: ${JSON.stringify(placed.body)}`);
  for (let poll = 0; poll < 10; poll++) {
    const result = await client.request('GET', `/v1/calls/${placed.body.id}/result?wait=30`);
    if (result.status !== 200) throw new Error(`the call's result answered ${result.status}`);
    if (result.body.final) {
      if (result.body.status !== 'completed') throw new Error(`the call ended ${JSON.stringify(result.body)}`);
      return;
    }
  }
  throw new Error(`call ${placed.body.id} did not end`);
}

async function calls(databaseUrl: string, bench: Bench): Promise<System> {
  const switchboard = await startSwitchboard(databaseUrl, bench, { SWITCHBOARD_SIM_SCENARIOS: writeNetwork() });
  const company = await benchCompany(switchboard.app, 'Postgres cost of calls');
  const limits = { callsPerMinute: 1_000_000, maxConcurrentCalls: 1_000_000 };
  await updateTenant(switchboard.app.runtime.ctx, company.tenantId, { features: ['voice_api'], ...limits });
  return {
    async run(n) {
      for (let i = 0; i < n; i++) await call(company.bench);
    },
    close: switchboard.close,
  };
}

/** One event written by the API's runtime, delivered by the controllers, its outcome recorded (read off the proxy). */
async function webhookDeliveries(databaseUrl: string, bench: Bench): Promise<System> {
  const switchboard = await startSwitchboard(databaseUrl, bench);
  const { tenantId } = await switchboard.app.company();
  const receiver = await startHttpsServer((_req, res) => res.end('ok'));
  const watcher = new pg.Client({ connectionString: databaseUrl });
  await watcher.connect();
  const { ctx } = switchboard.app.runtime;
  return {
    async run(n) {
      for (let i = 0; i < n; i++) {
        const { id } = await ctx.db.transaction((trx) =>
          enqueueEvent(ctx, trx, {
            tenantId,
            type: 'call.updated',
            target: 'events',
            url: `${receiver.url}/hooks`,
            orderingKey: `key-${i}`,
            data: { n: i },
          }),
        );
        for (;;) {
          const { rows } = await watcher.query('select status from webhook_outbox where id = $1', [id]);
          if (rows[0]?.status === 'delivered') break;
          if (rows[0]?.status !== 'pending') throw new Error(`event ${id} ended ${rows[0]?.status}`);
          await sleep(2);
        }
      }
    },
    async close() {
      await watcher.end();
      await receiver.close();
      await switchboard.close();
    },
  };
}

async function idle(databaseUrl: string, bench: Bench): Promise<System> {
  const switchboard = await startSwitchboard(databaseUrl, bench);
  return { run: (seconds) => sleep(seconds * 1000), close: switchboard.close };
}

const KINDS: Kind[] = [
  { key: 'job', name: 'Switchboard job, one at a time', units: UNITS, start: switchboardJobs(false) },
  { key: 'jobBurst', name: `Switchboard job, in a burst at concurrency ${CONCURRENCY}`, units: UNITS, start: switchboardJobs(true) },
  { key: 'turn', name: `Streamed turn (${HISTORY_TURNS} turns of history)`, units: UNITS, start: streamedTurns },
  { key: 'call', name: `Call of ${CALL_LINES} lines, placed to final result`, units: CALL_UNITS, start: calls },
  { key: 'webhook', name: 'Webhook delivery', units: UNITS, start: webhookDeliveries },
  { key: 'graphileNoop', name: 'graphile-worker job, no-op, one at a time', units: UNITS, start: graphileJobs('noop', false) },
  {
    key: 'graphileNoopBurst',
    name: `graphile-worker job, no-op, in a burst at concurrency ${CONCURRENCY}`,
    units: UNITS,
    start: graphileJobs('noop', true),
  },
  { key: 'graphileWork', name: 'graphile-worker job doing the work, one at a time', units: UNITS, start: graphileJobs('work', false) },
  {
    key: 'graphileWorkBurst',
    name: `graphile-worker job doing the work, in a burst at concurrency ${CONCURRENCY}`,
    units: UNITS,
    start: graphileJobs('work', true),
  },
  { key: 'idle', name: 'Switchboard idle (API and controllers), per second', units: 10, perSecond: true, start: idle },
];

/** Rows inserted, updated and deleted so far, by table, in `databaseUrl` (its own tables and the catalog's apart). */
async function rowsByTable(databaseUrl: string): Promise<{ tables: Record<string, number>; catalog: number }> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query(
      `select schemaname in ('pg_catalog', 'information_schema', 'pg_toast') as catalog, schemaname || '.' || relname as name,
              n_tup_ins + n_tup_upd + n_tup_del as n from pg_stat_all_tables`,
    );
    const tables: Record<string, number> = {};
    let catalog = 0;
    for (const r of rows) {
      if (r.catalog) catalog += Number(r.n);
      else tables[r.name] = Number(r.n);
    }
    return { tables, catalog };
  } finally {
    await client.end();
  }
}

interface WalRecordType {
  type: string;
  records: number;
  bytes: number;
  fpiBytes: number;
}

/** The WAL written between two LSNs, read from the WAL itself (pg_walinspect), by record type. */
async function walBetween(admin: pg.Client, from: string, to: string) {
  const { rows } = await admin.query(
    `select "resource_manager/record_type" as type, count, combined_size, fpi_size from pg_get_wal_stats($1, $2, true) where count > 0`,
    [from, to],
  );
  const types: WalRecordType[] = rows.map((r) => ({
    type: r.type,
    records: Number(r.count),
    bytes: Number(r.combined_size),
    fpiBytes: Number(r.fpi_size),
  }));
  const fpi = await admin.query('select count(*) as n from pg_get_wal_block_info($1, $2, false) where block_fpi_length > 0', [from, to]);
  const diff = await admin.query('select pg_wal_lsn_diff($2, $1) as bytes', [from, to]);
  return {
    bytes: Number(diff.rows[0].bytes),
    records: types.reduce((n, t) => n + t.records, 0),
    fpi: Number(fpi.rows[0].n),
    fpiBytes: types.reduce((n, t) => n + t.fpiBytes, 0),
    types: types.sort((a, b) => b.bytes - a.bytes),
  };
}

const lsnNow = async (admin: pg.Client): Promise<string> => (await admin.query('select pg_current_wal_lsn() as lsn')).rows[0].lsn;

const per = (n: number, units: number) => Math.round((n / units) * 100) / 100;

interface StatementLine extends StatementCounts {
  /** The connection's listener: api, controllers, worker, addJob. */
  tag: string;
  sql: string;
}

function statementLines(wire: Record<string, WireCounts>, units: number): StatementLine[] {
  return Object.entries(wire)
    .flatMap(([tag, counts]) =>
      Object.entries(counts.bySql).map(([sql, c]) => ({
        tag,
        sql: sql.length > SQL_SHOWN ? `${sql.slice(0, SQL_SHOWN)}…` : sql,
        executions: per(c.executions, units),
        rowsWritten: per(c.rowsWritten, units),
        errors: per(c.errors, units),
      })),
    )
    .sort((a, b) => b.executions - a.executions);
}

async function measure(kind: Kind, serverUrl: string, admin: pg.Client, bench: Bench) {
  const database = await createScratchDatabase(serverUrl);
  const system = await kind.start(database.url, bench);
  try {
    await system.prepare?.(WARMUP_UNITS + kind.units);
    // Each kind starts alike: the warm-up's first touches of pages after this take the full-page images.
    await admin.query('checkpoint');
    if (!kind.perSecond) await system.run(WARMUP_UNITS);
    await sleep(STATS_FLUSH_MS);
    const rowsBefore = await rowsByTable(database.url);
    const lsnBefore = await lsnNow(admin);
    bench.counter.reset();
    const started = performance.now();
    await system.run(kind.units);
    const seconds = (performance.now() - started) / 1000;
    const wire = bench.counter.counts();
    const lsnAfter = await lsnNow(admin);
    await sleep(STATS_FLUSH_MS);
    const rowsAfter = await rowsByTable(database.url);
    const wal = await walBetween(admin, lsnBefore, lsnAfter);
    const sum = (pick: (c: WireCounts) => number) => Object.values(wire).reduce((n, c) => n + pick(c), 0);
    /** A wire count over every connection, per unit. */
    const perUnit = (pick: (c: WireCounts) => number) => per(sum(pick), kind.units);
    const rows = (r: typeof rowsAfter) => Object.values(r.tables).reduce((a, b) => a + b, 0);
    const rowsByTableWritten = Object.fromEntries(
      Object.entries(rowsAfter.tables)
        .map(([t, n]) => [t, per(n - (rowsBefore.tables[t] ?? 0), kind.units)] as const)
        .filter(([, n]) => n > 0),
    );
    const units = kind.units;
    return {
      key: kind.key,
      name: kind.name,
      units,
      perSecond: kind.perSecond ?? false,
      seconds: Math.round(seconds * 10) / 10,
      statements: perUnit((c) => c.statements),
      roundTrips: perUnit((c) => c.roundTrips),
      rowsWritten: per(rows(rowsAfter) - rows(rowsBefore), units),
      catalogRowsWritten: per(rowsAfter.catalog - rowsBefore.catalog, units),
      /** From the CommandComplete tags the proxy saw: immediate, where pg_stat waits for the flush. */
      rowsWrittenByTags: perUnit((c) => c.rowsWritten),
      walBytes: Math.round(wal.bytes / units),
      walRecords: per(wal.records, units),
      walFpi: per(wal.fpi, units),
      errors: perUnit((c) => c.errors),
      connectionsOpened: perUnit((c) => c.connections),
      wireBytes: Math.round(sum((c) => c.bytesToServer + c.bytesToClient) / units),
      byConnection: Object.fromEntries(
        Object.entries(wire).map(([tag, c]) => [tag, { statements: per(c.statements, units), roundTrips: per(c.roundTrips, units) }]),
      ),
      rowsByTable: rowsByTableWritten,
      walFpiBytes: Math.round(wal.fpiBytes / units),
      walByRecordType: wal.types.map((t) => ({
        type: t.type,
        records: per(t.records, units),
        bytes: Math.round(t.bytes / units),
        fpiBytes: Math.round(t.fpiBytes / units),
      })),
      statementList: statementLines(wire, units),
    };
  } finally {
    await system.close();
    await database.drop();
  }
}

type Measured = Awaited<ReturnType<typeof measure>>;

function markdown(r: Awaited<ReturnType<typeof benchmark>>): string {
  const row = (m: Measured) =>
    `| ${m.name} | ${m.units}${m.perSecond ? ' s' : ''} | **${m.statements}** | **${m.roundTrips}** | **${m.rowsWritten}** | **${m.walBytes}** | ${m.walRecords} | ${m.walFpi} |`;
  const detail = (m: Measured) => {
    const lines = m.statementList
      .slice(0, TOP_STATEMENTS)
      .map((s) => `| ${s.executions} | ${s.rowsWritten || ''} | ${s.tag} | \`${s.sql.replaceAll('|', '\\|')}\` |`);
    const more =
      m.statementList.length > TOP_STATEMENTS ? `\n${m.statementList.length - TOP_STATEMENTS} more statement texts in cost.json.\n` : '';
    const connections = Object.entries(m.byConnection)
      .map(([tag, c]) => `${tag} ${c.statements} statements in ${c.roundTrips} round trips`)
      .join(' · ');
    const tables = Object.entries(m.rowsByTable)
      .map(([t, n]) => `${t.replace(/^public\./, '')} ${n}`)
      .join(' · ');
    return `### ${m.name}

${m.units} ${m.perSecond ? 'seconds' : 'units'} in ${m.seconds} s · ${connections} · rows written by table: ${tables || 'none'} · catalog rows ${m.catalogRowsWritten}
· rows by the statements' tags ${m.rowsWrittenByTags} · errors ${m.errors} · connections opened ${m.connectionsOpened} · bytes on the wire ${m.wireBytes}

| Executions | Rows | Connection | Statement |
|---|---|---|---|
${lines.join('\n')}
${more}`;
  };
  return `# Postgres cost of a unit of work

${r.date} · ${r.machine.cpus} × ${r.machine.cpuModel} · Node ${r.machine.node} · ${r.postgres} (embedded, the benchmark's own cluster)
· graphile-worker ${r.graphileWorkerVersion}

| Unit | Measured | Statements | Round trips | Rows written | WAL bytes | WAL records | Full-page images |
|---|---|---|---|---|---|---|---|
${r.kinds.map(row).join('\n')}

Per unit (the idle row: per second). Each kind runs on a fresh database of a Postgres cluster of the benchmark's own, so WAL
and statistics are its alone; autovacuum is off and checkpoints are not timed (checkpoint_timeout 1 d) so neither falls at
random in a window. Per kind: the system starts, a \`checkpoint\`, ${WARMUP_UNITS} units not counted (the warm-up takes the
full-page images of the pages it touches first), then the units counted, back to back; each figure is the window's total
divided by the units. Every connection of the measured system (Switchboard's API and controllers, as \`switchboard api\` and
\`switchboard controllers\` run, each with ${SWITCHBOARD_POOL_MAX} connections; graphile-worker's worker and the pool addJob uses)
goes through a counting proxy on loopback that reads the wire protocol:
**statements** are the server's CommandComplete and ErrorResponse messages; **round trips** the times a client sent while
nothing it had sent was unanswered (Syncs and simple queries sent minus ReadyForQuery received): how often it waited on
Postgres. **Rows written**: n_tup_ins + n_tup_upd + n_tup_del over the database's own tables (pg_stat_all_tables, the catalog's
apart in cost.json), read ${STATS_FLUSH_MS / 1000} s after the warm-up and after the units, once every backend has flushed its
statistics (an idle backend flushes within 10 s); by table in cost.json, beside the rows the statements' own tags name
(INSERT/UPDATE/DELETE n: fewer, as rows written by triggers and functions such as graphile-worker's add_job are not in them).
**WAL bytes**: pg_wal_lsn_diff of pg_current_wal_lsn() across the units; WAL records and full-page images from the WAL itself
(pg_walinspect's pg_get_wal_stats over the same range, immediate where pg_stat_wal waits for the same flush); by record type in cost.json.
Background work the system does meanwhile (controllers' polls, leases) falls in the window: the idle row shows its rate.

Units: a Switchboard job is POST /api/v1/triggers and GET long polls until \`succeeded\` (as jobs.ts drives it), run by the
controllers at concurrency ${CONCURRENCY}: one at a time (the next created when the last succeeded), and ${UNITS} created at once by
${CONCURRENCY} submitters. A streamed turn is a POST of a message with \`stream: true\` read to its end, each on a conversation of
its own with ${HISTORY_TURNS} turns before it. A call is POST /v1/calls to the simulated network, whose callee answers at once and says
${CALL_LINES} lines, each at once after the agent's reply, and GET long polls of its result until final (summary included). A webhook
delivery is one event written by enqueueEvent in a transaction of the API's and delivered by the controllers to a loopback
HTTPS receiver answering 200, until its outbox row reads \`delivered\`. graphile-worker's jobs: addJob, then its no-op task
or \`work\` (a model call and two rows inserted, jobs-server.ts), at worker concurrency ${CONCURRENCY}.

## Top statements per unit (executions and rows per unit, by connection)

${r.kinds.map(detail).join('\n')}`;
}

async function benchmark() {
  const loadBefore = (await import('node:os')).loadavg()[0]!;
  const dir = mkdtempSync(join(tmpdir(), 'switchboard-bench-cost-pg-'));
  const server = await startEmbeddedPostgres(dir, { persistent: false });
  const admin = new pg.Client({ connectionString: server.url });
  await admin.connect();
  const counter = startWireCounter();
  const model = await startThread<{ url: string }>(new URL('./model-server.js', import.meta.url), {});
  try {
    for (const setting of ["autovacuum = 'off'", "checkpoint_timeout = '1d'", "max_wal_size = '8GB'"]) {
      await admin.query(`alter system set ${setting}`);
    }
    await admin.query('select pg_reload_conf()');
    await admin.query('create extension if not exists pg_walinspect');
    const postgres = (await admin.query('select version()')).rows[0].version.split(' on ')[0] as string;
    const kinds: Measured[] = [];
    for (const kind of KINDS) {
      const measured = await measure(kind, server.url, admin, { counter, modelUrl: model.ready.url });
      const { statementList, walByRecordType, rowsByTable, ...figures } = measured;
      process.stderr.write(`${kind.name}: ${JSON.stringify(figures)}\n`);
      kinds.push(measured);
    }
    const { version } = (await import('graphile-worker/package.json', { with: { type: 'json' } })).default as { version: string };
    return { date: new Date().toISOString(), machine: machineInfo(loadBefore), postgres, graphileWorkerVersion: version, kinds };
  } finally {
    await model.close();
    await counter.close();
    await admin.end();
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

const result = await benchmark();
writeResults('cost', result, markdown(result));
