import { expect } from 'chai';
import { DateTime } from 'luxon';
import { createAgent } from '../../../pkg/agent/settings.js';
import { updateTenant } from '../../../pkg/tenants/settings.js';
import { openConversation, type Client, type TestApp } from '../../support/app.js';
import { eventually } from '../../support/eventually.js';
import { offeredTools } from '../../support/model.js';
import { heldReply, manualClock, startJobsApp, transcriptOf, waitForStatus } from '../../support/triggers.js';

// Controllers off: every job stays where the request put it. The clock starts at NOW and moves
// only when a test moves it (a few seconds in all), so the fixed dates below stay within 7 days.
const NOW = '2030-07-01T12:00:00.000Z';
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

const tool = (name: string) => ({ name, description: `The ${name} service`, url: `https://${name}.example.com/lookup`, method: 'GET' });
const paths = (res: { body: any }): string[] => (res.body.details ?? []).map((d: { path: string }) => d.path);

describe('Trigger endpoints', () => {
  let app: TestApp;
  before(async () => {
    app = await startJobsApp({ manualClock: true });
    manualClock(app).set(new Date(NOW));
  });
  after(async () => app.close());

  const at = (ms = 0) => new Date(app.clock.now().getTime() + ms).toISOString();

  /** A company of its own for the calling describe block, made in its before hook. */
  function company() {
    const c = {} as { client: Client; agentId: string; tenantId: string };
    // biome-ignore lint/suspicious/noDuplicateTestHooks: the hook is the calling describe's, one per company.
    before(async () => {
      Object.assign(c, await app.company());
    });
    return c;
  }

  describe('POST /api/v1/triggers', () => {
    const c = company();
    const trigger = (body: Record<string, unknown>) =>
      c.client.post('/api/v1/triggers', { agentId: c.agentId, task: 'Check the invoice', ...body });

    it('answers 400 for a task that is missing, empty or longer than 32000 characters, and accepts 32000', async () => {
      for (const task of [undefined, '', 'x'.repeat(32_001)]) {
        const res = await trigger({ task });
        expect(res.status, String(task?.length)).to.equal(400);
        expect(paths(res)).to.deep.equal(['task']);
      }
      expect((await trigger({ task: 'x'.repeat(32_000) })).status).to.equal(202);
    });

    it('answers 400 for successCriteria over 8000 characters, an idempotencyKey over 255, or more than 5 customTools', async () => {
      expect(paths(await trigger({ successCriteria: 'x'.repeat(8001) }))).to.deep.equal(['successCriteria']);
      expect(paths(await trigger({ idempotencyKey: 'k'.repeat(256) }))).to.deep.equal(['idempotencyKey']);
      const six = ['a', 'b', 'c', 'd', 'e', 'f'].map(tool);
      expect(paths(await trigger({ customTools: six }))).to.deep.equal(['customTools']);
      const ok = await trigger({ successCriteria: 'x'.repeat(8000), idempotencyKey: 'k'.repeat(255), customTools: six.slice(0, 5) });
      expect(ok.status).to.equal(202);
    });

    it('answers 400 for delayMinutes outside 1–10080 or not an integer, and starts a job waiting for 10080 minutes', async () => {
      for (const delayMinutes of [0, 10_081, 1.5, '5']) {
        const res = await trigger({ delayMinutes });
        expect(res.status, String(delayMinutes)).to.equal(400);
        expect(paths(res)).to.deep.equal(['delayMinutes']);
      }
      const res = await trigger({ delayMinutes: 10_080 });
      expect(res.status).to.equal(202);
      expect(res.body).to.include({ status: 'waiting', nextRunAt: at(10_080 * MINUTE) });
    });

    it('reads a runAt without offset in the company timezone and answers nextRunAt in UTC', async () => {
      const utc = await trigger({ runAt: '2030-07-03T09:30' });
      expect(utc.body).to.include({ status: 'waiting', nextRunAt: '2030-07-03T09:30:00.000Z' });
      await updateTenant(app.runtime.ctx, c.tenantId, { timezone: 'America/New_York' });
      try {
        const local = await trigger({ runAt: '2030-07-03T09:30' });
        expect(local.status).to.equal(202);
        expect(local.body).to.include({ status: 'waiting', nextRunAt: '2030-07-03T13:30:00.000Z' });
        const job = (await c.client.get(`/api/v1/triggers/${local.body.triggerId}`)).body;
        expect(job).to.include({ status: 'waiting', nextRunAt: '2030-07-03T13:30:00.000Z' });
      } finally {
        await updateTenant(app.runtime.ctx, c.tenantId, { timezone: 'UTC' });
      }
    });

    it('takes a runAt with an offset or Z as the instant it names', async () => {
      expect((await trigger({ runAt: '2030-07-03T09:30:00+02:00' })).body).to.include({ nextRunAt: '2030-07-03T07:30:00.000Z' });
      expect((await trigger({ runAt: '2030-07-03T09:30:00Z' })).body).to.include({ nextRunAt: '2030-07-03T09:30:00.000Z' });
      expect((await trigger({ runAt: '2030-07-03T09:30+02' })).body).to.include({ nextRunAt: '2030-07-03T07:30:00.000Z' });
      expect((await trigger({ runAt: '2030-07-03T09:30-0130' })).body).to.include({ nextRunAt: '2030-07-03T11:00:00.000Z' });
      expect((await trigger({ runAt: at(7 * 24 * 60 * MINUTE) })).status).to.equal(202);
    });

    it('answers 400 for a runAt in the past, more than 7 days ahead, or not a time', async () => {
      for (const runAt of ['2030-07-01T11:59:00Z', at(), at(7 * 24 * 60 * MINUTE + 1000), 'next tuesday', '2030-07-03', '2030-07-03+02']) {
        const res = await trigger({ runAt });
        expect(res.status, runAt).to.equal(400);
        expect(paths(res), runAt).to.deep.equal(['runAt']);
      }
    });

    it('answers 400 when both delayMinutes and runAt are given', async () => {
      const res = await trigger({ delayMinutes: 5, runAt: '2030-07-03T09:30:00Z' });
      expect(res.status).to.equal(400);
      expect(paths(res)).to.deep.equal(['runAt']);
    });

    it('answers 400 when neither agentId nor conversationId is given', async () => {
      const res = await c.client.post('/api/v1/triggers', { task: 'Check the invoice' });
      expect(res.status).to.equal(400);
      expect(paths(res)).to.deep.equal(['agentId']);
    });

    it("answers 404 for an unknown agent or another company's agent, creating no conversation", async () => {
      const other = await app.company();
      const conversations = () => app.runtime.ctx.db('conversations').where({ tenant_id: c.tenantId }).count({ n: '*' }).first();
      const before = await conversations();
      for (const agentId of ['00000000-0000-4000-8000-000000000000', other.agentId]) {
        const res = await trigger({ agentId });
        expect(res.status, agentId).to.equal(404);
        expect(res.body.error).to.equal(`Unknown agent ${agentId}`);
      }
      expect(await conversations()).to.deep.equal(before);
    });

    it("answers 403 for another company's conversation and 404 for an unknown one", async () => {
      const other = await app.company();
      const theirs = await openConversation(other.client, other.agentId);
      expect((await c.client.post('/api/v1/triggers', { conversationId: theirs, task: 'Peek' })).status).to.equal(403);
      expect((await c.client.post(`/api/v1/conversations/${theirs}/triggers`, { task: 'Peek' })).status).to.equal(403);
      const unknown = '00000000-0000-4000-8000-000000000000';
      expect((await c.client.post('/api/v1/triggers', { conversationId: unknown, task: 'Peek' })).status).to.equal(404);
      expect((await c.client.post(`/api/v1/conversations/${unknown}/triggers`, { task: 'Peek' })).status).to.equal(404);
    });

    it('answers 409 when the conversation has ended', async () => {
      const id = await openConversation(c.client, c.agentId);
      expect((await c.client.post(`/api/v1/conversations/${id}/end`)).status).to.equal(200);
      const res = await c.client.post('/api/v1/triggers', { conversationId: id, task: 'Too late' });
      expect(res.status).to.equal(409);
      expect(res.body.error).to.match(/ended/);
      expect((await c.client.post(`/api/v1/conversations/${id}/triggers`, { task: 'Too late' })).status).to.equal(409);
      expect((await c.client.get(`/api/v1/conversations/${id}/triggers`)).body.total).to.equal(0);
    });

    it("answers 409 when agentId does not match the conversation's agent", async () => {
      const second = await createAgent(app.runtime.ctx, c.tenantId, { name: 'Billing agent', systemPrompt: 'You handle billing.' });
      const id = await openConversation(c.client, c.agentId);
      const res = await c.client.post('/api/v1/triggers', { conversationId: id, agentId: second.id, task: 'Check the invoice' });
      expect(res.status).to.equal(409);
      expect(res.body.error).to.match(/agentId/);
      const same = await c.client.post('/api/v1/triggers', { conversationId: id, agentId: c.agentId, task: 'Check the invoice' });
      expect(same.status).to.equal(202);
      expect(same.body.conversationId).to.equal(id);
    });

    it('answers 409 when the conversation has no agent', async () => {
      const id = await openConversation(c.client, c.agentId);
      // Conversations from other channels can lack an agent; the API cannot make one, so it is arranged here.
      await app.runtime.ctx.db('conversations').where({ id }).update({ agent_id: null });
      const res = await c.client.post(`/api/v1/conversations/${id}/triggers`, { task: 'Check the invoice' });
      expect(res.status).to.equal(409);
      expect(res.body.error).to.match(/no agent/);
    });

    it("stores the metadata of a job that creates a conversation as the conversation's metadata, but not on an existing one", async () => {
      const created = await trigger({ metadata: { orderId: 'A-17' } });
      expect(created.status).to.equal(202);
      expect((await c.client.get(`/api/v1/conversations/${created.body.conversationId}`)).body.metadata).to.deep.equal({ orderId: 'A-17' });
      expect((await c.client.get(`/api/v1/triggers/${created.body.triggerId}`)).body.metadata).to.deep.equal({ orderId: 'A-17' });

      const again = await c.client.post('/api/v1/triggers', {
        conversationId: created.body.conversationId,
        task: 'Next step',
        metadata: { step: 2 },
      });
      expect((await c.client.get(`/api/v1/triggers/${again.body.triggerId}`)).body.metadata).to.deep.equal({ step: 2 });
      expect((await c.client.get(`/api/v1/conversations/${created.body.conversationId}`)).body.metadata).to.deep.equal({ orderId: 'A-17' });
    });
  });

  describe('pending-job cap', () => {
    const c = company();

    it('answers 409 when the conversation already has 3 pending jobs (queued or waiting), and accepts again once one ends', async () => {
      const first = await c.client.post('/api/v1/triggers', { agentId: c.agentId, task: 'Job 1' });
      const id = first.body.conversationId;
      expect((await c.client.post(`/api/v1/conversations/${id}/triggers`, { task: 'Job 2' })).status).to.equal(202);
      expect((await c.client.post(`/api/v1/conversations/${id}/triggers`, { task: 'Job 3', delayMinutes: 30 })).status).to.equal(202);
      const over = await c.client.post('/api/v1/triggers', { conversationId: id, task: 'Job 4' });
      expect(over.status).to.equal(409);
      expect(over.body.error).to.match(/pending-job cap/);
      expect((await c.client.post(`/api/v1/conversations/${id}/triggers`, { task: 'Job 4' })).status).to.equal(409);

      expect((await c.client.post(`/api/v1/triggers/${first.body.triggerId}/cancel`)).status).to.equal(200);
      expect((await c.client.post(`/api/v1/conversations/${id}/triggers`, { task: 'Job 4' })).status).to.equal(202);
    });

    it("follows the company's maxPendingJobs setting", async () => {
      await updateTenant(app.runtime.ctx, c.tenantId, { maxPendingJobs: 1 });
      try {
        const first = await c.client.post('/api/v1/triggers', { agentId: c.agentId, task: 'Job 1' });
        const second = await c.client.post(`/api/v1/conversations/${first.body.conversationId}/triggers`, { task: 'Job 2' });
        expect(second.status).to.equal(409);
      } finally {
        await updateTenant(app.runtime.ctx, c.tenantId, { maxPendingJobs: 3 });
      }
    });
  });

  describe('idempotencyKey', () => {
    const c = company();

    it('replays 200 with the original ids and idempotent: true even when the job has finished, without comparing the payload or re-queueing it', async () => {
      const created = await c.client.post('/api/v1/triggers', {
        agentId: c.agentId,
        task: 'Charge order A-17',
        idempotencyKey: 'charge-A-17',
      });
      expect(created.status).to.equal(202);
      expect((await c.client.post(`/api/v1/triggers/${created.body.triggerId}/cancel`, { reason: 'Paid by card' })).status).to.equal(200);

      const elsewhere = await openConversation(c.client, c.agentId);
      const replay = await c.client.post('/api/v1/triggers', {
        conversationId: elsewhere,
        task: 'Something else entirely',
        delayMinutes: 5,
        idempotencyKey: 'charge-A-17',
      });
      expect(replay.status).to.equal(200);
      expect(replay.body).to.deep.equal({
        conversationId: created.body.conversationId,
        triggerId: created.body.triggerId,
        status: 'cancelled',
        idempotent: true,
      });

      const job = (await c.client.get(`/api/v1/triggers/${created.body.triggerId}`)).body;
      expect(job).to.include({ status: 'cancelled', task: 'Charge order A-17', errorMessage: 'Paid by card', attemptCount: 0 });
      expect((await c.client.get(`/api/v1/conversations/${elsewhere}/triggers`)).body.total).to.equal(0);

      const viaConversation = await c.client.post(`/api/v1/conversations/${elsewhere}/triggers`, {
        task: 'Other',
        idempotencyKey: 'charge-A-17',
      });
      expect(viaConversation.status).to.equal(200);
      expect(viaConversation.body).to.include({ triggerId: created.body.triggerId, idempotent: true });
    });

    it('replays a deferred job after its runAt has passed: the repeated start is not checked again', async () => {
      const request = { agentId: c.agentId, task: 'Send the reminder', runAt: at(5 * MINUTE), idempotencyKey: 'reminder-5' };
      const created = await c.client.post('/api/v1/triggers', request);
      expect(created.status).to.equal(202);
      app.advance(10 * MINUTE);
      // The create's response was lost; the client repeats it as it was.
      const replay = await c.client.post('/api/v1/triggers', request);
      expect(replay.status).to.equal(200);
      expect(replay.body).to.include({ triggerId: created.body.triggerId, idempotent: true });
      // A new key with that runAt is refused as before.
      const late = await c.client.post('/api/v1/triggers', { ...request, idempotencyKey: 'reminder-5-late' });
      expect(late.status).to.equal(400);
      expect(paths(late)).to.deep.equal(['runAt']);
    });

    it('is unique per company: the same key in another company creates an independent job', async () => {
      const other = await app.company();
      const ours = await c.client.post('/api/v1/triggers', { agentId: c.agentId, task: 'Sync', idempotencyKey: 'sync-2030-07' });
      const theirs = await other.client.post('/api/v1/triggers', { agentId: other.agentId, task: 'Sync', idempotencyKey: 'sync-2030-07' });
      expect(ours.status).to.equal(202);
      expect(theirs.status).to.equal(202);
      expect(theirs.body.triggerId).to.not.equal(ours.body.triggerId);
      expect((await other.client.get(`/api/v1/triggers/${ours.body.triggerId}`)).status).to.equal(404);
    });

    it('still merges the customTools of a replay onto the conversation', async () => {
      const created = await c.client.post('/api/v1/triggers', {
        agentId: c.agentId,
        task: 'Track',
        idempotencyKey: 'track-P-9',
        customTools: [tool('carrier')],
      });
      const replay = await c.client.post('/api/v1/triggers', {
        agentId: c.agentId,
        task: 'Track',
        idempotencyKey: 'track-P-9',
        customTools: [tool('eta')],
      });
      expect(replay.status).to.equal(200);
      const id = created.body.conversationId;
      const before = app.model.requests.length;
      expect((await c.client.post(`/api/v1/conversations/${id}/messages`, { message: 'Any news?' })).status).to.equal(200);
      expect(offeredTools(app.model.requests[before]!)).to.include.members([`custom_${id}_carrier`, `custom_${id}_eta`]);
    });
  });

  describe('POST /api/v1/conversations/:conversationId/triggers', () => {
    const c = company();
    let id: string;
    beforeEach(async () => {
      id = await openConversation(c.client, c.agentId);
    });
    const raw = async (res: { body: any }) => (await c.client.get(`/api/v1/jobs/${res.body.triggerId}`)).body;

    it('creates a job from task; when task and message are both given, task wins', async () => {
      const res = await c.client.post(`/api/v1/conversations/${id}/triggers`, {
        task: 'Refund order A-17',
        message: 'Legacy text',
        metadata: { orderId: 'A-17' },
      });
      expect(res.status).to.equal(202);
      expect(res.body).to.deep.equal({ conversationId: id, triggerId: res.body.triggerId, status: 'queued' });
      expect(await raw(res)).to.include({ task: 'Refund order A-17', inputMessage: 'Refund order A-17', triggerType: 'api' });
    });

    it('accepts the legacy message alias up to 8000 characters as the task', async () => {
      expect(paths(await c.client.post(`/api/v1/conversations/${id}/triggers`, { message: 'x'.repeat(8001) }))).to.deep.equal(['message']);
      const res = await c.client.post(`/api/v1/conversations/${id}/triggers`, { message: 'Refund order A-17' });
      expect(res.status).to.equal(202);
      expect(await raw(res)).to.include({ task: 'Refund order A-17', inputMessage: 'Refund order A-17', triggerType: 'api' });
    });

    it('creates an event job from eventType alone: the task reads "External event: <eventType>" and the payload is in metadata', async () => {
      const res = await c.client.post(`/api/v1/conversations/${id}/triggers`, {
        eventType: 'order.shipped',
        metadata: { orderId: 'A-17', carrier: 'DHL' },
      });
      expect(res.status).to.equal(202);
      const job = await raw(res);
      expect(job).to.include({ task: 'External event: order.shipped', triggerType: 'event', eventType: 'order.shipped' });
      expect(job.metadata).to.deep.equal({ orderId: 'A-17', carrier: 'DHL' });
    });

    it('answers 400 for an eventType that is not 1–100 characters of [A-Za-z0-9_.:-], or when task, message and eventType are all missing', async () => {
      for (const eventType of ['', 'order shipped', 'order/shipped', 'e'.repeat(101)]) {
        expect(paths(await c.client.post(`/api/v1/conversations/${id}/triggers`, { eventType })), eventType).to.include('eventType');
      }
      expect((await c.client.post(`/api/v1/conversations/${id}/triggers`, { eventType: 'e'.repeat(100) })).status).to.equal(202);
      expect(paths(await c.client.post(`/api/v1/conversations/${id}/triggers`, { metadata: { a: 1 } }))).to.deep.equal(['task']);
    });

    it('starts the job waiting with delayMinutes or runAt, and answers 400 for both', async () => {
      expect((await c.client.post(`/api/v1/conversations/${id}/triggers`, { task: 'Later', delayMinutes: 45 })).body).to.include({
        status: 'waiting',
        nextRunAt: at(45 * MINUTE),
      });
      expect((await c.client.post(`/api/v1/conversations/${id}/triggers`, { task: 'Later', runAt: '2030-07-02T08:00' })).body).to.include({
        status: 'waiting',
        nextRunAt: '2030-07-02T08:00:00.000Z',
      });
      expect(
        paths(await c.client.post(`/api/v1/conversations/${id}/triggers`, { task: 'Later', delayMinutes: 5, runAt: '2030-07-02T08:00' })),
      ).to.deep.equal(['runAt']);
    });
  });

  describe('GET /api/v1/conversations/:conversationId/triggers', () => {
    const c = company();

    it('lists jobs newest first with total and hasMore, paged by limit and offset', async () => {
      await updateTenant(app.runtime.ctx, c.tenantId, { maxPendingJobs: 10 });
      const id = await openConversation(c.client, c.agentId);
      const ids: string[] = [];
      for (let i = 1; i <= 5; i++) {
        ids.push((await c.client.post(`/api/v1/conversations/${id}/triggers`, { task: `Job ${i}` })).body.triggerId);
        app.advance(1000);
      }
      await c.client.post(`/api/v1/triggers/${ids[0]}/cancel`, { reason: 'Duplicate' });
      const newestFirst = [...ids].reverse();

      const all = (await c.client.get(`/api/v1/conversations/${id}/triggers`)).body;
      expect(all).to.include({ conversationId: id, total: 5, hasMore: false });
      expect(all.triggers.map((t: any) => t.triggerId)).to.deep.equal(newestFirst);
      expect(all.triggers[4]).to.deep.equal({
        triggerId: ids[0],
        status: 'cancelled',
        attemptCount: 0,
        resultSummary: null,
        completedAt: at(),
      });

      const page1 = (await c.client.get(`/api/v1/conversations/${id}/triggers?limit=2`)).body;
      expect(page1).to.include({ total: 5, hasMore: true });
      expect(page1.triggers.map((t: any) => t.triggerId)).to.deep.equal(newestFirst.slice(0, 2));
      const last = (await c.client.get(`/api/v1/conversations/${id}/triggers?limit=2&offset=4`)).body;
      expect(last).to.include({ total: 5, hasMore: false });
      expect(last.triggers.map((t: any) => t.triggerId)).to.deep.equal([ids[0]]);
    });

    it('returns at most 50 jobs when no limit is given', async () => {
      await updateTenant(app.runtime.ctx, c.tenantId, { maxPendingJobs: 51 });
      const id = await openConversation(c.client, c.agentId);
      for (let i = 1; i <= 51; i++) {
        expect((await c.client.post(`/api/v1/conversations/${id}/triggers`, { task: `Job ${i}` })).status).to.equal(202);
      }
      const page = (await c.client.get(`/api/v1/conversations/${id}/triggers`)).body;
      expect(page).to.include({ total: 51, hasMore: true });
      expect(page.triggers).to.have.length(50);
    });

    it('answers 400 for limit 0 or 101 or a negative offset', async () => {
      const id = await openConversation(c.client, c.agentId);
      for (const query of ['limit=0', 'limit=101', 'offset=-1', 'limit=ten']) {
        expect((await c.client.get(`/api/v1/conversations/${id}/triggers?${query}`)).status, query).to.equal(400);
      }
      expect((await c.client.get(`/api/v1/conversations/${id}/triggers?limit=100`)).body).to.deep.equal({
        conversationId: id,
        triggers: [],
        total: 0,
        hasMore: false,
      });
    });
  });

  describe('GET /api/v1/triggers/:triggerId and GET /api/v1/jobs/:jobId', () => {
    const c = company();

    it('returns the trigger object', async () => {
      const created = await c.client.post('/api/v1/triggers', {
        agentId: c.agentId,
        task: 'Reconcile invoices',
        successCriteria: 'All invoices matched',
        businessKeys: { invoiceBatch: 'B-7' },
        metadata: { source: 'erp' },
      });
      const res = await c.client.get(`/api/v1/triggers/${created.body.triggerId}`);
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal({
        triggerId: created.body.triggerId,
        conversationId: created.body.conversationId,
        agentId: c.agentId,
        status: 'queued',
        task: 'Reconcile invoices',
        successCriteria: 'All invoices matched',
        businessKeys: { invoiceBatch: 'B-7' },
        metadata: { source: 'erp' },
        approvalId: null,
        approvalUrl: null,
        waitPayload: null,
        resultSummary: null,
        errorMessage: null,
        attemptCount: 0,
        maxAttempts: 3,
        nextRunAt: null,
        waitingReason: null,
        waitingSince: null,
        expiresAt: at(24 * 60 * MINUTE),
        lastRunAt: null,
        startedAt: null,
        completedAt: null,
        createdAt: at(),
        updatedAt: at(),
      });
    });

    it('GET /api/v1/jobs/:jobId returns the legacy raw object with triggerType, inputMessage and idempotencyKey', async () => {
      const created = await c.client.post('/api/v1/triggers', {
        agentId: c.agentId,
        task: 'Reconcile invoices',
        idempotencyKey: 'reconcile-B-7',
      });
      const res = await c.client.get(`/api/v1/jobs/${created.body.triggerId}`);
      expect(res.status).to.equal(200);
      expect(res.body).to.include({
        triggerId: created.body.triggerId,
        triggerType: 'api',
        inputMessage: 'Reconcile invoices',
        idempotencyKey: 'reconcile-B-7',
        status: 'queued',
      });
    });

    it("answers 404 for another company's job, an unknown id or one that is not a UUID", async () => {
      const other = await app.company();
      const theirs = (await other.client.post('/api/v1/triggers', { agentId: other.agentId, task: 'Private' })).body.triggerId;
      for (const path of [
        `/api/v1/triggers/${theirs}`,
        `/api/v1/jobs/${theirs}`,
        '/api/v1/triggers/00000000-0000-4000-8000-000000000000',
        '/api/v1/triggers/not-a-uuid',
      ]) {
        expect((await c.client.get(path)).status, path).to.equal(404);
      }
      expect((await c.client.post(`/api/v1/triggers/${theirs}/cancel`)).status).to.equal(404);
      expect((await c.client.post(`/api/v1/triggers/${theirs}/reply`, { decision: 'approved' })).status).to.equal(404);
      expect((await other.client.get(`/api/v1/triggers/${theirs}`)).body.status).to.equal('queued');
    });

    it('with ?wait= answers as soon as the status changes', async () => {
      const created = await c.client.post('/api/v1/triggers', { agentId: c.agentId, task: 'Reconcile invoices' });
      const poll = c.client.get(`/api/v1/triggers/${created.body.triggerId}?wait=30`);
      // One round trip on another connection, so the poll has read the job before it changes.
      expect((await c.client.get(`/api/v1/triggers/${created.body.triggerId}`)).body.status).to.equal('queued');
      await c.client.post(`/api/v1/triggers/${created.body.triggerId}/cancel`, { reason: 'Not needed' });
      const res = await poll;
      expect(res.status).to.equal(200);
      expect(res.body).to.include({ status: 'cancelled', errorMessage: 'Not needed' });
    });

    it('with ?wait= answers the current object when the time runs out without a change', async () => {
      const created = await c.client.post('/api/v1/triggers', { agentId: c.agentId, task: 'Reconcile invoices' });
      const answer = c.client.get(`/api/v1/triggers/${created.body.triggerId}?wait=1`);
      // This app runs no controllers: the long poll's is the only timer on the clock.
      await eventually('the long poll to wait for the clock', () => manualClock(app).waiting > 0);
      app.advance(1000);
      const res = await answer;
      expect(res.status).to.equal(200);
      expect(res.body).to.include({ triggerId: created.body.triggerId, status: 'queued' });
    });

    it('answers 400 for a wait over 60 seconds or not a number', async () => {
      const created = await c.client.post('/api/v1/triggers', { agentId: c.agentId, task: 'Reconcile invoices' });
      for (const wait of ['61', '-1', 'soon']) {
        expect((await c.client.get(`/api/v1/triggers/${created.body.triggerId}?wait=${wait}`)).status, wait).to.equal(400);
      }
    });
  });

  describe('POST /api/v1/triggers/:triggerId/cancel', () => {
    const c = company();

    it('answers 409 when the job is terminal, and 400 for a reason over 1000 characters', async () => {
      const created = await c.client.post('/api/v1/triggers', { agentId: c.agentId, task: 'Reconcile invoices' });
      const path = `/api/v1/triggers/${created.body.triggerId}/cancel`;
      expect((await c.client.post(path, { reason: 'x'.repeat(1001) })).status).to.equal(400);
      expect((await c.client.post(path, { reason: 'x'.repeat(1000) })).status).to.equal(200);
      const again = await c.client.post(path, { reason: 'Twice' });
      expect(again.status).to.equal(409);
      expect((await c.client.get(`/api/v1/triggers/${created.body.triggerId}`)).body.errorMessage).to.equal('x'.repeat(1000));
    });

    it('stores no errorMessage when no reason is given', async () => {
      const created = await c.client.post('/api/v1/triggers', { agentId: c.agentId, task: 'Reconcile invoices' });
      const res = await c.client.post(`/api/v1/triggers/${created.body.triggerId}/cancel`);
      expect(res.body).to.include({ status: 'cancelled', errorMessage: null });
    });
  });

  describe('GET /api/v1/conversations/:conversationId jobId and jobStatus', () => {
    const c = company();

    it('mirrors the latest job of the conversation', async () => {
      const id = await openConversation(c.client, c.agentId);
      expect((await c.client.get(`/api/v1/conversations/${id}`)).body).to.include({ jobId: null, jobStatus: null });
      await c.client.post(`/api/v1/conversations/${id}/triggers`, { task: 'First' });
      app.advance(1000);
      const second = (await c.client.post(`/api/v1/conversations/${id}/triggers`, { task: 'Second', delayMinutes: 10 })).body;
      expect((await c.client.get(`/api/v1/conversations/${id}`)).body).to.include({ jobId: second.triggerId, jobStatus: 'waiting' });
      await c.client.post(`/api/v1/triggers/${second.triggerId}/cancel`);
      expect((await c.client.get(`/api/v1/conversations/${id}`)).body).to.include({ jobId: second.triggerId, jobStatus: 'cancelled' });
    });
  });

  describe('create_background_task in a chat turn', () => {
    const c = company();

    it('enqueues a job of triggerType agent on the same conversation', async () => {
      const id = await openConversation(c.client, c.agentId);
      app.model.reply(
        {
          toolCalls: [
            {
              name: 'create_background_task',
              arguments: { task: 'Send the invoice copy', successCriteria: 'Customer has the copy', delayMinutes: 60 },
            },
          ],
        },
        { content: 'I will send the copy in an hour.' },
      );
      const before = app.model.requests.length;
      const res = await c.client.post(`/api/v1/conversations/${id}/messages`, { message: 'Please send me the invoice copy later' });
      expect(res.status).to.equal(200);
      expect(res.body.toolCalls).to.deep.equal(['create_background_task']);

      const list = (await c.client.get(`/api/v1/conversations/${id}/triggers`)).body;
      expect(list.total).to.equal(1);
      const job = (await c.client.get(`/api/v1/jobs/${list.triggers[0].triggerId}`)).body;
      expect(job).to.include({
        conversationId: id,
        triggerType: 'agent',
        task: 'Send the invoice copy',
        successCriteria: 'Customer has the copy',
        status: 'waiting',
        nextRunAt: at(60 * MINUTE),
      });
      const toolMessage = (app.model.requests[before + 1] as any).messages.find((m: any) => m.role === 'tool');
      expect(JSON.parse(toolMessage.content)).to.deep.equal({ triggerId: job.triggerId, status: 'waiting' });
    });
  });
});

describe('Trigger endpoints with the controllers running', () => {
  let app: TestApp;
  let client: Client;
  let agentId: string;
  before(async () => {
    app = await startJobsApp({ controllers: true });
    ({ client, agentId } = await app.company());
  });
  after(async () => app.close());

  it('counts running and waiting_for_reply jobs as pending, and answers 409 to cancelling a running job', async () => {
    app.model.reply(
      { toolCalls: [{ name: 'request_human_input', arguments: { reason: 'Which warehouse?' } }] },
      { content: 'Waiting for the warehouse' },
    );
    const parked = (await client.post('/api/v1/triggers', { agentId, task: 'Ship order A-17' })).body;
    await waitForStatus(client, parked.triggerId, 'waiting_for_reply');
    const id = parked.conversationId;
    const held = heldReply({ content: 'Invoice sent' });
    app.model.reply(held.reply);
    const running = (await client.post(`/api/v1/conversations/${id}/triggers`, { task: 'Send the invoice' })).body;
    await waitForStatus(client, running.triggerId, 'running');
    const queued = await client.post(`/api/v1/conversations/${id}/triggers`, { task: 'Archive the order' });
    expect(queued.body.status).to.equal('queued');

    const over = await client.post(`/api/v1/conversations/${id}/triggers`, { task: 'One more' });
    expect(over.status).to.equal(409);
    const cancelRunning = await client.post(`/api/v1/triggers/${running.triggerId}/cancel`, { reason: 'Stop' });
    expect(cancelRunning.status).to.equal(409);
    expect(cancelRunning.body.error).to.match(/running/);

    held.release();
    await waitForStatus(client, running.triggerId, 'succeeded');
    await waitForStatus(client, queued.body.triggerId, 'succeeded');
    expect((await client.post(`/api/v1/triggers/${parked.triggerId}/cancel`)).status).to.equal(200);
  });

  it('fails a job whose prepaid company is below its minimum credits when the run starts, without calling the model', async () => {
    const prepaid = await app.company({ credits: 0.5 });
    const before = app.model.requests.length;
    const job = (await prepaid.client.post('/api/v1/triggers', { agentId: prepaid.agentId, task: 'Draft the quarterly report' })).body;
    const failed = await waitForStatus(prepaid.client, job.triggerId, 'failed');
    expect(failed).to.include({ errorMessage: 'Insufficient AI credits', attemptCount: 1, resultSummary: null });
    expect(app.model.requests.length).to.equal(before);
  });

  /** A company topped up with 5 credits was charged `credits` once, under reference type api, naming the run's brief (as a chat turn's charge names its user message). */
  async function expectChargedToBrief(tenantId: string, conversationId: string, credits: number): Promise<void> {
    const ledger = await app.runtime.ctx.db('credit_ledger').where({ tenant_id: tenantId }).orderBy('id');
    expect(ledger.map((r) => [r.reference_type, Number(r.amount)])).to.deep.equal([
      ['topup', 5],
      ['api', -credits],
    ]);
    const brief = await app.runtime.ctx.db('messages').where({ conversation_id: conversationId, role: 'system' }).first('id');
    expect(ledger[1].reference_id).to.equal(brief.id);
  }

  it("charges the tokens of a failed run's finished model calls, against its brief", async () => {
    const prepaid = await app.company({ credits: 5 });
    app.model.reply(
      { toolCalls: [{ name: 'lookup_order', arguments: { orderId: 'A-17' } }], usage: { promptTokens: 800, completionTokens: 200 } },
      { fail: { status: 400, message: 'upstream model exploded' } },
    );
    const job = (await prepaid.client.post('/api/v1/triggers', { agentId: prepaid.agentId, task: 'Find order A-17' })).body;
    const failed = await waitForStatus(prepaid.client, job.triggerId, 'failed');
    expect(failed.errorMessage).to.contain('upstream model exploded');
    await expectChargedToBrief(prepaid.tenantId, job.conversationId, 1);
  });

  it("charges a run's tokens to a prepaid company under reference type api, as a chat turn", async () => {
    const prepaid = await app.company({ credits: 5 });
    app.model.reply({ content: 'Invoice checked.', usage: { promptTokens: 1200, completionTokens: 300 } });

    const job = (await prepaid.client.post('/api/v1/triggers', { agentId: prepaid.agentId, task: 'Check the invoice' })).body;
    const done = await waitForStatus(prepaid.client, job.triggerId, 'succeeded');

    expect(done.resultSummary).to.equal('Invoice checked.');
    await expectChargedToBrief(prepaid.tenantId, job.conversationId, 1.5);
    const conversation = (await prepaid.client.get(`/api/v1/conversations/${job.conversationId}`)).body;
    expect(conversation.messages.at(-1)).to.deep.include({ role: 'assistant', content: 'Invoice checked.' });
  });

  describe('a job run', () => {
    /** Returns once a turn waits for a conversation's lock (held by a running job). */
    async function turnWaitingForLock(): Promise<void> {
      await eventually('a turn waiting for the lock', () => app.runtime.ctx.locks.waiting > 0);
    }

    it("gives the model its brief: the task, successCriteria, businessKeys and the job's metadata", async () => {
      app.model.reply({ content: 'Refund settled' });
      const before = app.model.requests.length;
      const job = (
        await client.post('/api/v1/triggers', {
          agentId,
          task: 'Settle the refund',
          successCriteria: 'The customer has the money back',
          businessKeys: { orderId: 'A-17' },
          metadata: { source: 'crm' },
        })
      ).body;
      await waitForStatus(client, job.triggerId, 'succeeded');
      const brief = (app.model.requests[before] as any).messages.find(
        (m: any) => m.role === 'system' && m.content.startsWith('AUTONOMOUS JOB'),
      );
      expect(brief.content.split('\n')).to.deep.equal([
        `AUTONOMOUS JOB ${job.triggerId} (attempt 1 of 3)`,
        'Task: Settle the refund',
        'Success criteria: The customer has the money back',
        'Business keys: {"orderId":"A-17"}',
        'Job metadata: {"source":"crm"}',
      ]);
    });

    it('refuses a schedule_trigger_retry without a time, with both delayMinutes and runAt, or more than 7 days ahead, telling the model why', async () => {
      const retry = (args: Record<string, unknown>) => ({
        name: 'schedule_trigger_retry',
        arguments: { reason: 'Waiting on the bank', ...args },
      });
      const at = (ms: number) => new Date(app.clock.now().getTime() + ms).toISOString();
      app.model.reply(
        { toolCalls: [retry({}), retry({ delayMinutes: 5, runAt: at(HOUR) }), retry({ runAt: at(8 * 24 * HOUR) })] },
        { content: 'No follow-up needed after all' },
      );
      const before = app.model.requests.length;
      const job = (await client.post('/api/v1/triggers', { agentId, task: 'Check the transfer' })).body;
      const done = await waitForStatus(client, job.triggerId, 'succeeded');
      expect(done).to.include({ nextRunAt: null, resultSummary: 'No follow-up needed after all' });
      const told = (app.model.requests[before + 1] as any).messages.filter((m: any) => m.role === 'tool').map((m: any) => m.content);
      expect(told).to.deep.equal([
        'Refused: give delayMinutes or runAt',
        'Refused: runAt: delayMinutes and runAt are mutually exclusive',
        'Refused: runAt: must be within 7 days',
      ]);
    });

    it('enqueues a job of triggerType agent on its conversation by create_background_task, at a runAt read in the company timezone or with its offset', async () => {
      const company = await app.company();
      await updateTenant(app.runtime.ctx, company.tenantId, { timezone: 'America/New_York' });
      const local = DateTime.now().setZone('America/New_York').plus({ days: 1 }).set({ hour: 9, minute: 30, second: 0, millisecond: 0 });
      const later = local.plus({ hours: 2 });
      const create = (args: Record<string, unknown>) => ({ name: 'create_background_task', arguments: args });
      app.model.reply(
        {
          toolCalls: [
            create({ task: 'Call the customer back', runAt: local.toFormat("yyyy-MM-dd'T'HH:mm") }),
            create({
              task: 'Send the summary',
              successCriteria: 'The summary is sent',
              runAt: later.toISO({ suppressMilliseconds: true }),
            }),
            create({ task: 'Too late', runAt: '2020-01-01T00:00:00Z' }),
          ],
        },
        { content: 'Follow-ups planned' },
      );
      const before = app.model.requests.length;
      const job = (await company.client.post('/api/v1/triggers', { agentId: company.agentId, task: 'Plan the follow-ups' })).body;
      expect(await waitForStatus(company.client, job.triggerId, 'succeeded')).to.include({ resultSummary: 'Follow-ups planned' });

      const list = (await company.client.get(`/api/v1/conversations/${job.conversationId}/triggers`)).body;
      expect(list.total).to.equal(3);
      const made = await Promise.all(
        list.triggers
          .filter((t: any) => t.triggerId !== job.triggerId)
          .map(async (t: any) => (await company.client.get(`/api/v1/jobs/${t.triggerId}`)).body),
      );
      const byTask = Object.fromEntries(made.map((j: any) => [j.task, j]));
      expect(byTask['Call the customer back']).to.include({
        conversationId: job.conversationId,
        triggerType: 'agent',
        status: 'waiting',
        nextRunAt: local.toJSDate().toISOString(),
      });
      expect(byTask['Send the summary']).to.include({
        triggerType: 'agent',
        status: 'waiting',
        successCriteria: 'The summary is sent',
        nextRunAt: later.toJSDate().toISOString(),
      });
      const told = (app.model.requests[before + 1] as any).messages.filter((m: any) => m.role === 'tool').map((m: any) => m.content);
      expect(told.slice(0, 2).map((t: string) => JSON.parse(t))).to.deep.equal([
        { triggerId: byTask['Call the customer back'].triggerId, status: 'waiting' },
        { triggerId: byTask['Send the summary'].triggerId, status: 'waiting' },
      ]);
      expect(told[2]).to.match(/^Refused: runAt: /);
    });

    it('stores its brief first, then the answer', async () => {
      app.model.reply({ content: 'Ledger reconciled' });
      const job = (await client.post('/api/v1/triggers', { agentId, task: 'Reconcile the ledger' })).body;
      await waitForStatus(client, job.triggerId, 'succeeded');
      const messages = await transcriptOf(client, job.conversationId);
      expect(messages.map((m) => m.role)).to.deep.equal(['system', 'assistant']);
      expect(messages[0]!.content).to.match(new RegExp(`^AUTONOMOUS JOB ${job.triggerId} .*\\nTask: Reconcile the ledger`));
      expect(messages[1]!.content).to.equal('Ledger reconciled');
    });

    it('asks the model for whole answers, not streams (nobody reads a job as it is written)', async () => {
      app.model.reply(
        { toolCalls: [{ name: 'lookup_invoice', arguments: { number: 'I-4' } }] },
        { content: 'Invoice I-4 is open', usage: { promptTokens: 90, completionTokens: 10 } },
      );
      const before = app.model.requests.length;
      const job = (await client.post('/api/v1/triggers', { agentId, task: 'Check invoice I-4' })).body;
      const done = await waitForStatus(client, job.triggerId, 'succeeded');
      const asked = app.model.requests.slice(before);
      expect(asked.map((r) => Boolean(r.stream))).to.deep.equal([false, false]);
      expect(asked[1]!.messages.at(-1)).to.include({ role: 'tool', content: 'Unknown tool lookup_invoice' });
      expect(done.resultSummary).to.equal('Invoice I-4 is open');
    });

    it('stores its brief before the messages of a tool round', async () => {
      app.model.reply({ toolCalls: [{ name: 'lookup_invoice', arguments: { number: 'I-9' } }] }, { content: 'Invoice I-9 is paid' });
      const job = (await client.post('/api/v1/triggers', { agentId, task: 'Check invoice I-9' })).body;
      await waitForStatus(client, job.triggerId, 'succeeded');
      const messages = await transcriptOf(client, job.conversationId);
      expect(messages.map((m) => m.role)).to.deep.equal(['system', 'assistant', 'tool', 'assistant']);
      expect(messages[0]!.content).to.match(/^AUTONOMOUS JOB /);
      expect(messages[2]!.content).to.equal('Unknown tool lookup_invoice');
      expect(messages[3]!.content).to.equal('Invoice I-9 is paid');
    });

    it("makes a chat message sent meanwhile wait for the run's end, and the chat turn sees the run's answer", async () => {
      const held = heldReply({ content: 'Refund R-3 issued' });
      app.model.reply(held.reply);
      const job = (await client.post('/api/v1/triggers', { agentId, task: 'Issue refund R-3' })).body;
      await waitForStatus(client, job.triggerId, 'running');
      app.model.reply({ content: 'Yes, R-3 went out' });
      const chat = client.post(`/api/v1/conversations/${job.conversationId}/messages`, { message: 'Was the refund issued?' });
      await turnWaitingForLock();
      held.release();
      expect((await chat).status).to.equal(200);
      const asked = app.model.requests.at(-1)!.messages.map((m) => m.content);
      expect(asked.slice(-2)).to.deep.equal(['Refund R-3 issued', 'Was the refund issued?']);
    });

    it('ends failed when its last write fails, and leaves the conversation to the next turn', async () => {
      // Postgres stores no NUL character in text, so the statement storing this answer fails.
      app.model.reply({ content: 'Broken \u0000 answer' });
      const job = (await client.post('/api/v1/triggers', { agentId, task: 'Write the summary' })).body;
      const failed = await waitForStatus(client, job.triggerId, 'failed');
      expect(failed.errorMessage).to.equal('Unexpected processing failure');
      app.model.reply({ content: 'Here is the summary' });
      const chat = await client.post(`/api/v1/conversations/${job.conversationId}/messages`, { message: 'Summary please' });
      expect(chat.status).to.equal(200);
      expect(chat.body.message.content).to.equal('Here is the summary');
    });
  });
});
