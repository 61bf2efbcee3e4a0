import { expect } from 'chai';
import { systemClock } from '../../../pkg/clock.js';
import type { Ctx } from '../../../pkg/context.js';
import { createDb, type Db } from '../../../pkg/db/index.js';
import { callById } from '../../../pkg/store/calls/get.js';
import { sweepCalls } from '../../../pkg/store/calls/sweep.js';
import { CALL_SWEEP } from '../../../pkg/voice/sweep.js';
import { countLeft } from '../../../pkg/store/campaigns/contacts.js';
import { countResults } from '../../../pkg/store/campaigns/deliveries.js';
import { numbersAtLimit } from '../../../pkg/store/campaigns/number-checks.js';
import { runsEndedSince } from '../../../pkg/store/campaigns/runs.js';
import type { Queue } from '../../../pkg/store/queues.js';
import { countPending } from '../../../pkg/store/triggers/count-pending.js';
import { mirroredTriggers } from '../../../pkg/store/triggers/mirror.js';
import { PENDING } from '../../../pkg/triggers/state.js';
import { loadConfig } from '../../../pkg/config.js';
import { enterQueue } from '../../../pkg/voice/routing/queue-events.js';
import { createScratchDatabase, type ScratchDatabase } from '../../support/database.js';
import { TEST_ENCRYPTION_KEY } from '../../support/app.js';

/** Finished rows of each kind: the account's history, which no repeated read may walk. */
const HISTORY = 3000;
const AGENT = '00000000-0000-4000-8000-000000000001';
const CONVERSATION = '00000000-0000-4000-8000-000000000002';
const NUMBER = '+15550100';

/** Seeds, with plain SQL, an account that has run for months: finished jobs, calls, campaign runs and people, and a little live work. */
async function seedHistory(db: Db): Promise<void> {
  const old = `now() - interval '30 days'`;
  await db.raw(`insert into tenants (id, name, created_at, updated_at) values ('t', 'T', ${old}, now())`);
  await db.raw(`insert into agents (id, tenant_id, name, created_at, updated_at) values ('${AGENT}', 't', 'A', ${old}, now())`);
  await db.raw(
    `insert into conversations (id, tenant_id, agent_id, created_at, updated_at) values ('${CONVERSATION}', 't', '${AGENT}', ${old}, now())`,
  );
  const job = `insert into triggers (id, tenant_id, conversation_id, agent_id, trigger_type, task, input_message, max_attempts, expires_at, created_at, updated_at, status, completed_at)`;
  await db.raw(
    `${job} select gen_random_uuid(), 't', '${CONVERSATION}', '${AGENT}', 'api', 'T', 'M', 3, ${old}, ${old}, ${old}, 'succeeded', ${old} from generate_series(1, ${HISTORY})`,
  );
  await db.raw(
    `${job} values (gen_random_uuid(), 't', '${CONVERSATION}', '${AGENT}', 'api', 'T', 'M', 3, now() + interval '1 day', now(), now(), 'waiting_for_reply', null)`,
  );
  const call = `insert into calls (id, tenant_id, direction, from_number, to_number, created_at, updated_at, status, final, answered_at, queue, lease_owner, lease_until, max_duration_sec)`;
  const queued = `'{"id": "que_1", "name": "Q", "position": 1, "entered_at": "2026-01-01T00:00:00Z"}'::jsonb`;
  // Finished calls to one number a month ago, every tenth having waited in the queue.
  await db.raw(`${call} select 'old' || i, 't', 'outbound', '+15550199', '${NUMBER}', ${old}, ${old}, 'completed', true, ${old},
    case when i % 10 = 0 then ${queued} end, null, null, 600 from generate_series(1, ${HISTORY}) i`);
  // On the line now: one past its max duration, one waiting in the queue.
  await db.raw(`${call} values
    ('live1', 't', 'outbound', '+15550199', '${NUMBER}', now(), now(), 'in-progress', false, now() - interval '1 minute', null, 'replica', now() + interval '1 minute', 30),
    ('live2', 't', 'inbound', '+15550199', '+15550198', now(), now(), 'in-progress', false, now() - interval '1 minute', ${queued}, 'replica', now() + interval '1 minute', 600),
    ('entering', 't', 'inbound', '+15550197', '+15550198', now(), now(), 'in-progress', false, now(), null, 'replica', now() + interval '1 minute', 600)`);
  await db.raw(
    `insert into connections (id, tenant_id, name, base_url, list_path, results_path, created_at, updated_at) values ('con', 't', 'C', 'https://crm.example', '/l', '/r', ${old}, now())`,
  );
  await db.raw(`insert into campaigns (id, tenant_id, name, agent_id, connection_id, timezone, calling_hours, max_attempts, retry_after_minutes, concurrency, leave_voicemail, created_at, updated_at)
    values ('cmp', 't', 'C', '${AGENT}', 'con', 'UTC', '{}', 3, 60, 10, false, ${old}, now())`);
  await db.raw(`insert into campaign_runs (id, tenant_id, campaign_id, status, started_at, ended_at)
    select 'run' || i, 't', 'cmp', 'done', ${old}, ${old} from generate_series(1, ${HISTORY}) i`);
  await db.raw(`insert into campaign_runs (id, tenant_id, campaign_id, status, started_at) values ('live', 't', 'cmp', 'running', now())`);
  // The live run's people: most called already, their results sent; one still to call, one on a call, one result being sent.
  await db.raw(`insert into campaign_contacts (run_id, contact_id, position, timezone, status)
    select 'live', 'p' || i, i, 'UTC', case i when 1 then 'pending' when 2 then 'calling' else 'done' end from generate_series(1, ${HISTORY}) i`);
  await db.raw(`insert into webhook_outbox (id, tenant_id, type, target, url, ordering_key, payload, max_attempts, created_at, status, run_id)
    select 'res' || i, 't', 'campaign.result', 'campaign', 'https://crm.example/r', 'live', '{}', 5, now(), case when i = 1 then 'pending' else 'delivered' end, 'live'
    from generate_series(1, ${HISTORY}) i`);
  // Another run's results, all still being sent: the deployment's pending deliveries, none of them this run's.
  await db.raw(`insert into webhook_outbox (id, tenant_id, type, target, url, ordering_key, payload, max_attempts, created_at, status, run_id)
    select 'other' || i, 't', 'campaign.result', 'campaign', 'https://crm.example/r', 'other', '{}', 5, now(), 'pending', 'other'
    from generate_series(1, ${HISTORY}) i`);
  await db.raw('analyze');
}

describe('Reads repeated by the controllers, turns, dials and queues, on an account with a long history', () => {
  let scratch: ScratchDatabase;
  let db: Db;
  before(async () => {
    scratch = await createScratchDatabase();
    db = createDb(scratch.url, 2);
    await seedHistory(db);
  });
  after(async () => {
    await db?.destroy();
    await scratch?.drop();
  });

  /** Runs `read` in a transaction, which it leaves undone; returns its answer and the rows of `table` it visited. */
  async function visiting<T>(table: string, read: (ctx: Ctx) => Promise<T>): Promise<{ answer: T; visited: number }> {
    const trx = await db.transaction();
    try {
      // Scanning the table is then the planner's last resort: taken only when no index serves the statement.
      await trx.raw('set local enable_seqscan = off');
      // The backend's counts not yet reported, which may hold an earlier transaction's: read before and after.
      const visitedSoFar = async () =>
        Number(
          (await trx.raw(`select seq_tup_read + coalesce(idx_tup_fetch, 0) as n from pg_stat_xact_user_tables where relname = ?`, [table]))
            .rows[0].n,
        );
      const before = await visitedSoFar();
      const ctx = {
        db: trx,
        clock: systemClock,
        config: loadConfig({ DATABASE_URL: scratch.url, SWITCHBOARD_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY }),
      } as unknown as Ctx;
      const answer = await read(ctx);
      return { answer, visited: (await visitedSoFar()) - before };
    } finally {
      await trx.rollback();
    }
  }

  it('the calls sweep reads the calls not yet final, and still hangs up the one past its max duration', async () => {
    const { answer, visited } = await visiting('calls', (ctx) => sweepCalls(ctx, CALL_SWEEP));
    expect(answer.overtime.map((c) => c.id)).to.deep.equal(['live1']);
    expect(visited, 'calls visited').to.be.below(HISTORY / 10);
  });

  it('a caller entering a queue is counted behind those waiting now, not those who waited before', async () => {
    const queue: Queue = {
      id: 'que_1',
      tenantId: 't',
      name: 'Q',
      members: [],
      maxWaitSec: 60,
      holdMessage: null,
      createdAt: '',
      updatedAt: '',
    };
    const { answer, visited } = await visiting('calls', async (ctx) => enterQueue(ctx, (await callById(ctx.db, 'entering'))!, queue));
    expect(answer?.queue?.position).to.equal(2);
    expect(visited, 'calls visited').to.be.below(HISTORY / 10);
  });

  it("a campaign's contact policy reads the number's calls of the last week", async () => {
    const policy = { allowedCountries: ['US'], maxPerDay: 1, maxPerWeek: 3 };
    const { answer, visited } = await visiting('calls', (ctx) => numbersAtLimit(ctx, 't', [NUMBER], policy, new Date()));
    // Called once today (live1): at its daily limit; the calls of a month ago do not count.
    expect([...answer]).to.deep.equal([NUMBER]);
    expect(visited, 'calls visited').to.be.below(HISTORY / 10);
  });

  it("a conversation's pending jobs are counted from its live jobs, not its finished ones", async () => {
    const { answer, visited } = await visiting('triggers', (ctx) => countPending(ctx.db, CONVERSATION, PENDING));
    expect(answer).to.equal(1);
    expect(visited, 'jobs visited').to.be.below(HISTORY / 10);
  });

  it("a campaign run's step counts the people left and the results still being sent, not those done", async () => {
    const left = await visiting('campaign_contacts', (ctx) => countLeft(ctx, 'live'));
    expect(left.answer).to.equal(2);
    expect(left.visited, 'people visited').to.be.below(HISTORY / 10);
    const sending = await visiting('webhook_outbox', (ctx) => countResults(ctx, 'live', 'pending'));
    expect(sending.answer).to.equal(1);
    expect(sending.visited, 'results visited').to.be.below(HISTORY / 10);
  });

  it("the mirror's jobs and campaign runs are the live ones and those ended lately", async () => {
    const since = new Date(Date.now() - 3_600_000);
    const jobs = await visiting('triggers', (ctx) => mirroredTriggers(ctx, since, PENDING));
    expect(jobs.answer.map((j) => j.status)).to.deep.equal(['waiting_for_reply']);
    expect(jobs.visited, 'jobs visited').to.be.below(HISTORY / 10);
    const runs = await visiting('campaign_runs', (ctx) => runsEndedSince(ctx, since));
    expect(runs.answer.map((r) => r.id)).to.deep.equal(['live']);
    expect(runs.visited, 'runs visited').to.be.below(HISTORY / 10);
  });
});
