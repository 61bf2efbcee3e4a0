import { expect } from 'chai';
import type { ModelReply } from '../../../pkg/agent/openai-server.js';
import { TRANSITIONS } from '../../../pkg/triggers/state.js';
import type { Client, TestApp } from '../../support/app.js';
import { offeredTools } from '../../support/model.js';
import { itTestsEveryRow, type RowTest } from '../../support/state-table.js';
import { heldReply, manualClock, startJobsApp, transcriptOf, waitForStatus } from '../../support/triggers.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

const retryCall = (delayMinutes: number): ModelReply => ({
  toolCalls: [{ name: 'schedule_trigger_retry', arguments: { delayMinutes, reason: 'The carrier has not answered yet' } }],
});
const parkCall: ModelReply = {
  toolCalls: [
    { name: 'request_human_input', arguments: { reason: 'Approve the refund of 40 EUR?', payload: { orderId: 'A-17', amount: 40 } } },
  ],
};

describe('Trigger transitions: every row of the state table, driven through the API', () => {
  let app: TestApp;
  let client: Client;
  let agentId: string;
  before(async () => {
    // A lease longer than any clock move made while a job runs, so only a stopped heartbeat loses one.
    app = await startJobsApp({ controllers: true, manualClock: true, env: { SWITCHBOARD_LEASE_SEC: '3600' } });
    ({ client, agentId } = await app.company());
  });
  after(async () => app.close());

  const at = (ms = 0) => new Date(app.clock.now().getTime() + ms).toISOString();
  const requestCount = () => app.model.requests.length;
  /** Model requests made while running this job (each run starts with a system line naming it). */
  const runRequests = (triggerId: string) =>
    app.model.requests.filter((r) =>
      r.messages.some((m) => m.role === 'system' && String(m.content).toLowerCase().includes(`job ${triggerId}`)),
    ).length;

  async function create(body: Record<string, unknown> = {}): Promise<{ conversationId: string; triggerId: string; status: string }> {
    const res = await client.post('/api/v1/triggers', {
      ...(body.conversationId ? {} : { agentId }),
      task: 'Settle the refund for order A-17',
      ...body,
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(202);
    return res.body;
  }
  const read = async (triggerId: string) => (await client.get(`/api/v1/triggers/${triggerId}`)).body;
  const cancel = (triggerId: string, reason?: string) => client.post(`/api/v1/triggers/${triggerId}/cancel`, reason ? { reason } : {});

  /**
   * Returns once the controllers have looked at everything due now: a job created now has run to
   * the end, and anything due before it would have been claimed first. Uses the default model reply.
   */
  async function controllersCaughtUp(): Promise<void> {
    const res = await client.post('/api/v1/triggers', { agentId, task: 'Barrier' });
    await waitForStatus(client, res.body.triggerId, 'succeeded');
  }

  /** A new job whose run parks it for a human decision. */
  async function parked(body: Record<string, unknown> = {}) {
    app.model.reply(parkCall, { content: 'Waiting for approval of the refund' });
    const created = await create(body);
    return { created, job: await waitForStatus(client, created.triggerId, 'waiting_for_reply') };
  }

  const rows: Record<string, RowTest> = {
    '(none):create': {
      title: 'POST /api/v1/triggers without delayMinutes or runAt answers 202 with the ids and status queued',
      async run() {
        app.model.reply({ content: 'Refund settled' });
        const res = await client.post('/api/v1/triggers', { agentId, task: 'Settle the refund for order A-17' });
        expect(res.status).to.equal(202);
        expect(res.body).to.have.all.keys('conversationId', 'triggerId', 'status');
        expect(res.body.status).to.equal('queued');
        const job = await waitForStatus(client, res.body.triggerId, 'succeeded');
        expect(job.conversationId).to.equal(res.body.conversationId);
      },
    },

    '(none):create_deferred': {
      title: 'POST /api/v1/triggers with delayMinutes or runAt answers 202 with status waiting and nextRunAt in UTC',
      async run() {
        const delayed = await create({ delayMinutes: 30 });
        expect(delayed).to.deep.equal({
          conversationId: delayed.conversationId,
          triggerId: delayed.triggerId,
          status: 'waiting',
          nextRunAt: at(30 * MINUTE),
        });
        const runAt = at(2 * HOUR);
        const scheduled = await create({ runAt });
        expect(scheduled).to.include({ status: 'waiting', nextRunAt: runAt });
        expect(await read(delayed.triggerId)).to.include({
          status: 'waiting',
          nextRunAt: at(30 * MINUTE),
          attemptCount: 0,
          startedAt: null,
        });
        expect(await read(scheduled.triggerId)).to.include({ status: 'waiting', nextRunAt: runAt, attemptCount: 0 });
        for (const job of [delayed, scheduled]) expect((await cancel(job.triggerId)).status).to.equal(200);
      },
    },

    'queued:claim': {
      title: 'a claimed job is running with attemptCount 1, and a second job of the conversation stays queued meanwhile',
      async run() {
        const first = heldReply({ content: 'First refund settled' });
        app.model.reply(first.reply);
        const a = await create();
        const running = await waitForStatus(client, a.triggerId, 'running');
        expect(running).to.include({ attemptCount: 1, startedAt: at(), lastRunAt: at(), completedAt: null });
        const b = await create({ conversationId: a.conversationId });
        expect(b.status).to.equal('queued');
        await controllersCaughtUp();
        expect(await read(b.triggerId)).to.include({ status: 'queued', attemptCount: 0 });
        app.model.reply({ content: 'Second refund settled' });
        first.release();
        await waitForStatus(client, a.triggerId, 'succeeded');
        const second = await waitForStatus(client, b.triggerId, 'succeeded');
        expect(second).to.include({ attemptCount: 1, resultSummary: 'Second refund settled' });
      },
    },

    'running:complete': {
      title: "a run that ends with a plain answer succeeds, and that answer is the job's resultSummary",
      async run() {
        app.model.reply({ content: 'Refund R-17 issued to the customer' });
        const created = await create();
        const job = await waitForStatus(client, created.triggerId, 'succeeded');
        expect(job).to.include({
          resultSummary: 'Refund R-17 issued to the customer',
          errorMessage: null,
          attemptCount: 1,
          completedAt: at(),
        });
        expect(await transcriptOf(client, created.conversationId)).to.deep.include({
          role: 'assistant',
          content: 'Refund R-17 issued to the customer',
          timestamp: job.completedAt,
        });
      },
    },

    'running:error': {
      title: 'a model error fails the job with errorMessage, and nothing runs it again',
      async run() {
        app.model.reply({ fail: { status: 400, message: 'upstream model exploded' } });
        const created = await create();
        const job = await waitForStatus(client, created.triggerId, 'failed');
        expect(job.errorMessage).to.contain('upstream model exploded');
        expect(job).to.include({ attemptCount: 1, resultSummary: null, completedAt: at() });
        app.advance(2 * HOUR);
        await controllersCaughtUp();
        expect(await read(created.triggerId)).to.include({ status: 'failed', attemptCount: 1 });
        expect(runRequests(created.triggerId)).to.equal(1);

        // A run that spends every tool round without answering has not completed its work: it fails too.
        const rounds = app.runtime.ctx.config.SWITCHBOARD_MAX_TOOL_ROUNDS;
        app.model.reply(
          ...Array.from({ length: rounds }, () => ({ toolCalls: [{ name: 'lookup_order', arguments: { orderId: 'A-17' } }] })),
        );
        const looping = await create();
        const failed = await waitForStatus(client, looping.triggerId, 'failed');
        expect(failed.errorMessage).to.equal(`The run used all ${rounds} tool rounds (SWITCHBOARD_MAX_TOOL_ROUNDS) without a final answer`);
        expect(failed).to.include({ attemptCount: 1, resultSummary: null, completedAt: at() });
        expect(runRequests(looping.triggerId)).to.equal(rounds);
      },
    },

    'running:schedule_retry': {
      title: 'schedule_trigger_retry parks the same job as waiting with nextRunAt, keeping its history',
      async run() {
        app.model.reply(retryCall(10), { content: 'Asked the carrier; checking back in 10 minutes' });
        const created = await create();
        const job = await waitForStatus(client, created.triggerId, 'waiting');
        expect(job).to.include({
          triggerId: created.triggerId,
          attemptCount: 1,
          nextRunAt: at(10 * MINUTE),
          resultSummary: 'Asked the carrier; checking back in 10 minutes',
          completedAt: null,
        });
        const messages = await transcriptOf(client, created.conversationId);
        expect(messages.find((m) => m.role === 'tool')).to.deep.include({ metadata: { name: 'schedule_trigger_retry' } });
        expect(messages.at(-1)).to.include({ role: 'assistant', content: 'Asked the carrier; checking back in 10 minutes' });
        expect((await cancel(created.triggerId)).status).to.equal(200);
      },
    },

    'running:schedule_retry_exhausted': {
      title: 'schedule_trigger_retry when maxAttempts is already reached fails the job',
      async run() {
        const one = await startJobsApp({ controllers: true, env: { SWITCHBOARD_JOB_MAX_ATTEMPTS: '1' } });
        try {
          const company = await one.company();
          one.model.reply(retryCall(10), { content: 'Will ask the carrier again later' });
          const res = await company.client.post('/api/v1/triggers', { agentId: company.agentId, task: 'Track parcel P-9' });
          expect(res.status).to.equal(202);
          const job = await waitForStatus(company.client, res.body.triggerId, 'failed');
          expect(job).to.include({ maxAttempts: 1, attemptCount: 1, nextRunAt: null });
          expect(job.errorMessage).to.contain('maxAttempts (1)');
          // Parking is a wait too: with no attempt left for the resumed run, it fails the same way.
          one.model.reply(
            { toolCalls: [{ name: 'request_human_input', arguments: { reason: 'Approve the refund?' } }] },
            { content: 'Asked a human' },
          );
          const parked = await company.client.post('/api/v1/triggers', { agentId: company.agentId, task: 'Refund order O-1' });
          const refused = await waitForStatus(company.client, parked.body.triggerId, 'failed');
          expect(refused).to.include({ attemptCount: 1, waitingReason: null });
          expect(refused.errorMessage).to.contain('asked for human input but maxAttempts (1)');
        } finally {
          await one.close();
        }
      },
    },

    'waiting:follow_up_due': {
      title: 'when the follow-up time is reached the job runs again: attemptCount 2, stored custom tools reloaded, history kept',
      async run() {
        const tool = (name: string) => ({
          name,
          description: `The ${name} service`,
          url: `https://${name}.example.com/status`,
          method: 'GET',
        });
        app.model.reply(retryCall(10), { content: 'Asked the carrier; checking back in 10 minutes' });
        const idempotencyKey = 'follow-up-parcel-P-10';
        const created = await create({ customTools: [tool('carrier')], idempotencyKey });
        await waitForStatus(client, created.triggerId, 'waiting');
        // Tools merged while the job waits (a replay still merges customTools) must be offered on the follow-up.
        const replay = await client.post('/api/v1/triggers', { agentId, task: 'ignored', idempotencyKey, customTools: [tool('eta')] });
        expect(replay.body).to.include({ triggerId: created.triggerId, idempotent: true });

        app.advance(10 * MINUTE - 1);
        await controllersCaughtUp();
        expect(await read(created.triggerId)).to.include({ status: 'waiting', attemptCount: 1 });
        const followUp = heldReply({ content: 'Parcel delivered' });
        app.model.reply(followUp.reply);
        const before = requestCount();
        app.advance(1);
        const running = await waitForStatus(client, created.triggerId, 'running');
        expect(running).to.include({ attemptCount: 2, lastRunAt: at(), nextRunAt: null });
        followUp.release();
        const job = await waitForStatus(client, created.triggerId, 'succeeded');
        expect(job).to.include({ attemptCount: 2, resultSummary: 'Parcel delivered' });

        expect(requestCount() - before).to.equal(1);
        const request = app.model.requests[before] as any;
        const id = created.conversationId;
        expect(offeredTools(request)).to.include.members([
          `custom_${id}_carrier`,
          `custom_${id}_eta`,
          'schedule_trigger_retry',
          'request_human_input',
        ]);
        expect(request.messages).to.deep.include({ role: 'assistant', content: 'Asked the carrier; checking back in 10 minutes' });
        expect(request.messages.at(-1).content).to.match(/^FOLLOW-UP RUN of job .* \(attempt 2 of 3\)/);
      },
    },

    'waiting:follow_up_past_deadline': {
      title: 'a follow-up scheduled past expiresAt expires the job',
      async run() {
        app.model.reply(retryCall(25 * 60), { content: 'Checking again tomorrow' });
        const created = await create();
        const job = await waitForStatus(client, created.triggerId, 'expired');
        expect(job.errorMessage).to.match(/past the job deadline/);
        expect(job).to.include({ attemptCount: 1, nextRunAt: null, completedAt: at() });

        // A follow-up due at the deadline itself could only start past it: it expires the job as well.
        app.model.reply(
          () => ({
            toolCalls: [{ name: 'schedule_trigger_retry', arguments: { runAt: at(24 * HOUR), reason: 'Last look at the deadline' } }],
          }),
          { content: 'Checking again at the deadline' },
        );
        const atDeadline = await create();
        const ended = await waitForStatus(client, atDeadline.triggerId, 'expired');
        expect(ended.errorMessage).to.equal(`The follow-up (${ended.expiresAt}) is at or past the job deadline (expiresAt)`);
        expect(ended).to.include({ attemptCount: 1, nextRunAt: null });
      },
    },

    'running:park': {
      title: 'request_human_input parks the job as waiting_for_reply with its reason and payload, never claimed on a timer',
      async run() {
        const { created, job } = await parked({ metadata: { source: 'crm' } });
        expect(job).to.include({
          waitingReason: 'Approve the refund of 40 EUR?',
          waitingSince: at(),
          nextRunAt: null,
          attemptCount: 1,
          resultSummary: 'Waiting for approval of the refund',
        });
        expect(job.waitPayload).to.deep.equal({ orderId: 'A-17', amount: 40 });
        expect(job.metadata).to.deep.equal({ source: 'crm', waitPayload: { orderId: 'A-17', amount: 40 } });
        const runs = runRequests(created.triggerId);
        app.advance(23 * HOUR);
        await controllersCaughtUp();
        expect(await read(created.triggerId)).to.include({ status: 'waiting_for_reply', attemptCount: 1 });
        expect(runRequests(created.triggerId)).to.equal(runs);
        expect((await cancel(created.triggerId)).status).to.equal(200);
      },
    },

    'waiting_for_reply:reply': {
      title: 'POST /reply queues the job with the reply as a system message, and the worker resumes it',
      async run() {
        const { created } = await parked();
        app.model.reply({ content: 'Refund issued' });
        const before = requestCount();
        const res = await client.post(`/api/v1/triggers/${created.triggerId}/reply`, {
          decision: 'approved',
          reason: 'Finance approved the refund',
        });
        expect(res.status).to.equal(200);
        expect(res.body).to.include({ status: 'queued', waitingReason: null, waitingSince: null });
        const job = await waitForStatus(client, created.triggerId, 'succeeded');
        expect(job).to.include({ attemptCount: 2, resultSummary: 'Refund issued' });
        const reply = { role: 'system', content: 'HUMAN REPLY (approved): Finance approved the refund' };
        expect(await transcriptOf(client, created.conversationId)).to.deep.include({ ...reply, timestamp: res.body.updatedAt });
        expect((app.model.requests[before] as any).messages).to.deep.include(reply);
      },
    },

    'waiting_for_reply:deadline_passed': {
      title: 'a job still waiting for a reply when expiresAt passes expires',
      async run() {
        const { created, job } = await parked();
        app.advance(new Date(job.expiresAt).getTime() - app.clock.now().getTime() - MINUTE);
        await controllersCaughtUp();
        expect(await read(created.triggerId)).to.include({ status: 'waiting_for_reply' });
        app.advance(2 * MINUTE);
        const expired = await waitForStatus(client, created.triggerId, 'expired');
        expect(expired.errorMessage).to.match(/No reply arrived/);
        expect(expired).to.include({ waitingReason: null, completedAt: at(), attemptCount: 1 });

        // A reply or cancel that comes after the deadline, before the controllers' sweep, meets the expired job.
        const late = [(await parked()).created, (await parked()).created];
        await controllersCaughtUp();
        manualClock(app).advance(25 * HOUR);
        const reply = await client.post(`/api/v1/triggers/${late[0]!.triggerId}/reply`, { decision: 'approved' });
        expect(reply.status).to.equal(409);
        expect(reply.body.error).to.equal('Trigger is not waiting for a reply (status expired)');
        expect((await cancel(late[1]!.triggerId, 'Too late')).status).to.equal(409);
        for (const { triggerId } of late) {
          expect(await read(triggerId)).to.include({
            status: 'expired',
            errorMessage: "No reply arrived before the job's deadline (expiresAt)",
          });
        }
      },
    },

    'queued:cancel': {
      title: 'cancelling a queued job stores the reason in errorMessage, and the job never runs',
      async run() {
        const first = heldReply({ content: 'First refund settled' });
        app.model.reply(first.reply);
        const a = await create();
        await waitForStatus(client, a.triggerId, 'running');
        const b = await create({ conversationId: a.conversationId });
        const res = await cancel(b.triggerId, 'The customer withdrew the request');
        expect(res.status).to.equal(200);
        expect(res.body).to.include({ status: 'cancelled', errorMessage: 'The customer withdrew the request', completedAt: at() });
        first.release();
        await waitForStatus(client, a.triggerId, 'succeeded');
        await controllersCaughtUp();
        expect(await read(b.triggerId)).to.include({ status: 'cancelled', attemptCount: 0 });
        expect(runRequests(b.triggerId)).to.equal(0);
      },
    },

    'waiting:cancel': {
      title: 'cancelling a waiting job stores the reason in errorMessage, and its follow-up never runs',
      async run() {
        const created = await create({ delayMinutes: 15 });
        const res = await cancel(created.triggerId, 'No longer needed');
        expect(res.status).to.equal(200);
        expect(res.body).to.include({ status: 'cancelled', errorMessage: 'No longer needed', nextRunAt: null });
        app.advance(20 * MINUTE);
        await controllersCaughtUp();
        expect(await read(created.triggerId)).to.include({ status: 'cancelled', attemptCount: 0 });
        expect(runRequests(created.triggerId)).to.equal(0);
      },
    },

    'waiting_for_reply:cancel': {
      title: 'cancelling a job waiting for a reply stores the reason in errorMessage',
      async run() {
        const { created } = await parked();
        const res = await cancel(created.triggerId, 'Refund handled by phone');
        expect(res.status).to.equal(200);
        expect(res.body).to.include({
          status: 'cancelled',
          errorMessage: 'Refund handled by phone',
          waitingReason: null,
          completedAt: at(),
        });
        expect((await client.post(`/api/v1/triggers/${created.triggerId}/reply`, { decision: 'approved' })).status).to.equal(409);
      },
    },

    'running:deadline_passed': {
      title: 'a run that ends past expiresAt is not interrupted, and the job ends expired rather than succeeded',
      async run() {
        // The follow-up starts a minute before the deadline; its model call takes two minutes.
        app.model.reply(retryCall(24 * 60 - 1), { content: 'Checking back just before the deadline' }, () => {
          manualClock(app).advance(2 * MINUTE);
          return { content: 'Report finally compiled' };
        });
        const created = await create();
        const waiting = await waitForStatus(client, created.triggerId, 'waiting');
        app.advance(new Date(waiting.nextRunAt).getTime() - app.clock.now().getTime());
        const job = await waitForStatus(client, created.triggerId, 'expired');
        expect(job.errorMessage).to.match(/after the job deadline/);
        expect(job).to.include({ attemptCount: 2, resultSummary: 'Report finally compiled', completedAt: at() });

        // A run that parks past the deadline ends the job expired too: there is no wait left to answer.
        app.model.reply(
          () => {
            manualClock(app).advance(25 * HOUR);
            return parkCall;
          },
          { content: 'Waiting for approval of the refund' },
        );
        const late = await create();
        const expired = await waitForStatus(client, late.triggerId, 'expired');
        expect(expired.errorMessage).to.equal('The run finished after the job deadline (expiresAt)');
        expect(expired).to.include({ waitingReason: null, waitingSince: null, attemptCount: 1, completedAt: at() });
      },
    },

    'running:interrupted': {
      title: 'a run whose worker stopped heartbeating fails with an interruption errorMessage and is never run again',
      async run() {
        const created = await create({ delayMinutes: 60 });
        // A replica that died mid-run leaves this row behind; nothing public can produce it, so it is arranged here.
        const now = app.clock.now();
        await app.runtime.ctx
          .db('triggers')
          .where({ id: created.triggerId })
          .update({
            status: 'running',
            attempt_count: 1,
            started_at: now,
            last_run_at: now,
            next_run_at: null,
            lease_owner: 'replica-that-died',
            lease_until: new Date(now.getTime() - 1000),
            due_at: new Date(now.getTime() - 1000),
          });
        app.advance(1000);
        const job = await waitForStatus(client, created.triggerId, 'failed');
        expect(job.errorMessage).to.match(/interrupted/);
        expect(job).to.include({ attemptCount: 1, completedAt: at() });
        await controllersCaughtUp();
        expect(await read(created.triggerId)).to.include({ status: 'failed', attemptCount: 1 });
        expect(runRequests(created.triggerId)).to.equal(0);
      },
    },
  };

  itTestsEveryRow('TRANSITIONS', TRANSITIONS, rows);
});
