// Job test helpers: an app on a database of its own (its controllers claim only its own jobs, and
// jobs it leaves behind never reach another file's controllers), waiting for a status, and model
// replies held until a test releases them.
import { expect } from 'chai';
import pg from 'pg';
import type { ModelReply } from '../../pkg/agent/openai-server.js';
import { createDb, migrate } from '../../pkg/db/index.js';
import { startTestApp, type Client, type TestApp } from './app.js';
import { ManualClock } from './clock.js';
import { eventually } from './eventually.js';
import { testDatabaseUrl } from './hooks.js';
import type { ScriptedReply } from './model.js';

let databases = 0;

async function onTestServer(sql: string): Promise<void> {
  const admin = new pg.Client({ connectionString: testDatabaseUrl() });
  await admin.connect();
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
}

/** A fresh, migrated database beside the run's own, on the same server. */
export async function ownDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const url = new URL(testDatabaseUrl());
  const name = `${url.pathname.slice(1)}_jobs_${++databases}`;
  await onTestServer(`create database ${name}`);
  url.pathname = `/${name}`;
  const db = createDb(url.toString(), 2);
  await migrate(db);
  await db.destroy();
  return { url: url.toString(), drop: () => onTestServer(`drop database if exists ${name} with (force)`) };
}

export async function startJobsApp(opts: Omit<NonNullable<Parameters<typeof startTestApp>[0]>, 'databaseUrl'> = {}): Promise<TestApp> {
  const database = await ownDatabase();
  const app = await startTestApp({ ...opts, databaseUrl: database.url });
  return {
    ...app,
    async close() {
      await app.close();
      await database.drop();
    },
  };
}

/**
 * Within a describe: a jobs app, and a connection of the test's own to its database (another replica,
 * another transaction), opened before its tests and closed after them.
 */
export function jobsAppBesideAnother(): { app: () => TestApp; other: () => pg.Client } {
  let app: TestApp;
  let other: pg.Client;
  before(async () => {
    app = await startJobsApp();
    other = new pg.Client({ connectionString: app.runtime.ctx.config.DATABASE_URL });
    await other.connect();
  });
  after(async () => {
    await other?.end();
    await app?.close();
  });
  return { app: () => app, other: () => other };
}

/** The app's ManualClock (startJobsApp({ manualClock: true })). */
export function manualClock(app: TestApp): ManualClock {
  if (!(app.clock instanceof ManualClock)) throw new Error('the app was started without manualClock');
  return app.clock;
}

const TERMINAL = ['succeeded', 'failed', 'expired', 'cancelled'];

/**
 * The job once it reaches `status` (or ends otherwise), by short polls: a long poll waits for a
 * change from the status it first reads, which on a manual clock may never come.
 */
export async function waitForStatus(client: Client, triggerId: string, status: string): Promise<any> {
  const res = await eventually(
    `job ${triggerId} to be ${status}`,
    async () => {
      const current = await client.get(`/api/v1/triggers/${triggerId}`);
      // A slow machine makes many polls: one the key's rate limit refuses is a poll to repeat.
      if (current.status === 429) return false;
      return (current.status !== 200 || current.body.status === status || TERMINAL.includes(current.body.status)) && current;
    },
    // Well under a company's default 300 requests a minute, so the polls leave the test's own requests room.
    { everyMs: 100 },
  );
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  expect(res.body.status, `job ${triggerId} (errorMessage: ${res.body.errorMessage})`).to.equal(status);
  return res.body;
}

/** A model reply that is only given once the test calls release(): the job stays `running` till then. */
export function heldReply(reply: ModelReply): { reply: ScriptedReply; release(): void } {
  let release!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  return {
    reply: async () => {
      await released;
      return reply;
    },
    release,
  };
}

/** The model's reply that parks a job for a human answer. */
export const parkForHuman = {
  toolCalls: [
    { name: 'request_human_input', arguments: { reason: 'Which warehouse should ship order A-17?', payload: { orderId: 'A-17' } } },
  ],
};

/** A job of `client`'s company, created over the Agent API (on `conversationId` when given), parked waiting for a human reply. */
export async function parkedJob(
  app: TestApp,
  client: Client,
  agentId: string,
  task: string,
  conversationId?: string,
): Promise<{ conversationId: string; triggerId: string }> {
  app.model.reply(parkForHuman, { content: 'Waiting for the warehouse decision' });
  const res = conversationId
    ? await client.post(`/api/v1/conversations/${conversationId}/triggers`, { task })
    : await client.post('/api/v1/triggers', { agentId, task });
  expect(res.status).to.equal(202);
  await waitForStatus(client, res.body.triggerId, 'waiting_for_reply');
  return res.body;
}

/** A conversation's whole transcript, job briefs and tool messages included (`?include=all`). */
export async function transcriptOf(client: Client, conversationId: string): Promise<any[]> {
  return (await client.get(`/api/v1/conversations/${conversationId}?include=all`)).body.messages;
}
