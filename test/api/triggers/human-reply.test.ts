import { expect } from 'chai';
import type { Client, TestApp } from '../../support/app.js';
import { heldReply, parkedJob, startJobsApp, transcriptOf, waitForStatus } from '../../support/triggers.js';

describe('Human replies to parked jobs', () => {
  let app: TestApp;
  let client: Client;
  let agentId: string;
  before(async () => {
    app = await startJobsApp({ controllers: true });
    ({ client, agentId } = await app.company());
  });
  after(async () => app.close());

  /** A job parked as waiting_for_reply, on a new conversation or on `conversationId`. */
  const parked = (conversationId?: string) => parkedJob(app, client, agentId, 'Ship order A-17', conversationId);
  const reply = (triggerId: string, body: Record<string, unknown>) => client.post(`/api/v1/triggers/${triggerId}/reply`, body);

  describe('POST /api/v1/triggers/:triggerId/reply', () => {
    it('queues a rejected job with the reason as a system message, and the agent resumes with it', async () => {
      const job = await parked();
      app.model.reply({ content: 'Order A-17 will not ship' });
      const before = app.model.requests.length;
      const res = await reply(job.triggerId, { decision: 'rejected', reason: 'The customer cancelled' });
      expect(res.status).to.equal(200);
      expect(res.body).to.include({ triggerId: job.triggerId, status: 'queued', waitingReason: null });
      const done = await waitForStatus(client, job.triggerId, 'succeeded');
      expect(done.resultSummary).to.equal('Order A-17 will not ship');
      const line = { role: 'system', content: 'HUMAN REPLY (rejected): The customer cancelled' };
      expect((app.model.requests[before] as any).messages).to.deep.include(line);
      expect((await transcriptOf(client, job.conversationId)).map(({ role, content }) => ({ role, content }))).to.deep.include(line);
      expect((await client.get(`/api/v1/jobs/${job.triggerId}`)).body.humanReply).to.include({
        decision: 'rejected',
        reason: 'The customer cancelled',
      });
    });

    it('clears waitPayload, and metadata.waitPayload with it, when the resumed job parks again without a payload', async () => {
      const job = await parked();
      const first = (await client.get(`/api/v1/triggers/${job.triggerId}`)).body;
      expect(first.waitPayload).to.deep.equal({ orderId: 'A-17' });
      expect(first.metadata).to.deep.equal({ waitPayload: { orderId: 'A-17' } });
      app.model.reply(
        { toolCalls: [{ name: 'request_human_input', arguments: { reason: 'Which carrier?' } }] },
        { content: 'Waiting for the carrier choice' },
      );
      expect((await reply(job.triggerId, { decision: 'approved', reason: 'Ship from Berlin' })).status).to.equal(200);
      const again = await waitForStatus(client, job.triggerId, 'waiting_for_reply');
      expect(again).to.include({ waitingReason: 'Which carrier?', waitPayload: null, attemptCount: 2 });
      expect(again.metadata).to.deep.equal({});
    });

    it('answers 400 for a decision other than approved or rejected, or a reason over 4000 characters, and the job keeps waiting', async () => {
      const job = await parked();
      for (const body of [
        {},
        { decision: 'maybe' },
        { decision: 'provided' },
        { decision: 'approved', reason: 'x'.repeat(4001) },
        { decision: 'approved', reason: '' },
      ]) {
        expect((await reply(job.triggerId, body)).status, JSON.stringify(body).slice(0, 60)).to.equal(400);
      }
      expect((await client.get(`/api/v1/triggers/${job.triggerId}`)).body.status).to.equal('waiting_for_reply');
      app.model.reply({ content: 'Shipping from Berlin' });
      expect((await reply(job.triggerId, { decision: 'approved', reason: 'x'.repeat(4000) })).status).to.equal(200);
      await waitForStatus(client, job.triggerId, 'succeeded');
    });

    it('answers 409 when the job is queued, running, waiting or finished', async () => {
      const held = heldReply({ content: 'Done' });
      app.model.reply(held.reply);
      const running = (await client.post('/api/v1/triggers', { agentId, task: 'Long task' })).body;
      await waitForStatus(client, running.triggerId, 'running');
      const queued = (await client.post(`/api/v1/conversations/${running.conversationId}/triggers`, { task: 'Next task' })).body;
      const waiting = (await client.post('/api/v1/triggers', { agentId, task: 'Later task', delayMinutes: 60 })).body;
      for (const job of [queued, running, waiting]) {
        const res = await reply(job.triggerId, { decision: 'approved' });
        expect(res.status, job.status).to.equal(409);
        expect(res.body.error).to.match(/not waiting for a reply/);
      }
      expect((await client.post(`/api/v1/triggers/${queued.triggerId}/cancel`)).status).to.equal(200);
      expect((await client.post(`/api/v1/triggers/${waiting.triggerId}/cancel`)).status).to.equal(200);
      held.release();
      await waitForStatus(client, running.triggerId, 'succeeded');
      for (const job of [queued, running, waiting]) expect((await reply(job.triggerId, { decision: 'approved' })).status).to.equal(409);
    });
  });

  describe('POST /api/v1/conversations/:conversationId/messages with asHumanReply', () => {
    const send = (conversationId: string, body: Record<string, unknown>) =>
      client.post(`/api/v1/conversations/${conversationId}/messages`, body);

    it('runs the chat turn, then resumes the single waiting job with the message as a provided reply', async () => {
      const job = await parked();
      app.model.reply({ content: 'Thanks, I will pass that on' }, { content: 'Shipped from Berlin' });
      const before = app.model.requests.length;
      const res = await send(job.conversationId, { message: 'Use the Berlin warehouse', asHumanReply: true });
      expect(res.status).to.equal(200);
      expect(res.body).to.include({ resumedTriggerId: job.triggerId, resumedStatus: 'queued' });
      expect(res.body.message).to.deep.equal({ role: 'assistant', content: 'Thanks, I will pass that on' });
      expect(res.body).to.not.have.property('resumeError');

      const done = await waitForStatus(client, job.triggerId, 'succeeded');
      expect(done).to.include({ attemptCount: 2, resultSummary: 'Shipped from Berlin' });
      expect((app.model.requests[before + 1] as any).messages).to.deep.include({
        role: 'system',
        content: 'HUMAN REPLY (provided): Use the Berlin warehouse',
      });
      expect((await client.get(`/api/v1/jobs/${job.triggerId}`)).body.humanReply).to.include({
        decision: 'provided',
        reason: 'Use the Berlin warehouse',
      });
    });

    it('reports the resumed job in the done event of a streamed turn', async () => {
      const job = await parked();
      app.model.reply({ content: 'Noted' }, { content: 'Shipped from Hamburg' });
      const res = await client.stream(`/api/v1/conversations/${job.conversationId}/messages`, {
        message: 'Use Hamburg',
        asHumanReply: true,
        stream: true,
      });
      expect(res.status).to.equal(200);
      const done = res.events.at(-1);
      expect(done).to.include({
        type: 'done',
        conversationId: job.conversationId,
        resumedTriggerId: job.triggerId,
        resumedStatus: 'queued',
      });
      await waitForStatus(client, job.triggerId, 'succeeded');
    });

    it('answers 409 without a chat turn when no job of the conversation is waiting for a reply', async () => {
      await parked();
      const id = (await client.post('/api/v1/conversations', { agentId })).body.conversationId;
      const before = app.model.requests.length;
      const res = await send(id, { message: 'Use Berlin', asHumanReply: true });
      expect(res.status).to.equal(409);
      expect(res.body.error).to.match(/exactly one job waiting/);
      expect(app.model.requests.length).to.equal(before);
      expect(await transcriptOf(client, id)).to.deep.equal([]);
    });

    it('answers 409 without a chat turn when two jobs of the conversation are waiting for a reply', async () => {
      const first = await parked();
      const second = await parked(first.conversationId);
      const stored = (await transcriptOf(client, first.conversationId)).length;
      const before = app.model.requests.length;
      for (const stream of [false, true]) {
        const res = await send(first.conversationId, { message: 'Use Berlin', asHumanReply: true, stream });
        expect(res.status).to.equal(409);
        expect(res.headers.get('content-type')).to.match(/^application\/json/);
      }
      expect(app.model.requests.length).to.equal(before);
      expect(await transcriptOf(client, first.conversationId)).to.have.length(stored);
      for (const job of [first, second]) {
        expect((await client.get(`/api/v1/triggers/${job.triggerId}`)).body.status).to.equal('waiting_for_reply');
        await client.post(`/api/v1/triggers/${job.triggerId}/cancel`);
      }
    });

    it('answers 200 with resumeError {status, error} when the job stops waiting during the chat turn', async () => {
      const job = await parked();
      app.model.reply(async () => {
        expect((await client.post(`/api/v1/triggers/${job.triggerId}/cancel`, { reason: 'Handled by phone' })).status).to.equal(200);
        return { content: 'Thanks for letting me know' };
      });
      const res = await send(job.conversationId, { message: 'Use Berlin', asHumanReply: true });
      expect(res.status).to.equal(200);
      expect(res.body.message.content).to.equal('Thanks for letting me know');
      expect(res.body.resumeError).to.deep.equal({ status: 409, error: 'Trigger is not waiting for a reply (status cancelled)' });
      expect(res.body).to.not.have.property('resumedTriggerId');
      expect((await client.get(`/api/v1/triggers/${job.triggerId}`)).body).to.include({
        status: 'cancelled',
        errorMessage: 'Handled by phone',
      });
      expect((await transcriptOf(client, job.conversationId)).map((m) => m.content)).to.include.members([
        'Use Berlin',
        'Thanks for letting me know',
      ]);
    });

    it('answers 200 with resumeError when storing the reply fails, and the job stays parked so /reply can recover it', async () => {
      const job = await parked();
      // A storage failure has no public trigger: this database refuses human-reply lines until the test lifts it.
      const db = app.runtime.ctx.db;
      await db.raw(`create function refuse_human_reply() returns trigger language plpgsql as $$
        begin
          if new.content like 'HUMAN REPLY%' then raise exception 'disk full'; end if;
          return new;
        end $$`);
      await db.raw('create trigger refuse_human_reply before insert on messages for each row execute function refuse_human_reply()');
      try {
        app.model.reply({ content: 'Noted' });
        const res = await send(job.conversationId, { message: 'Use Berlin', asHumanReply: true });
        expect(res.status).to.equal(200);
        expect(res.body.resumeError).to.deep.equal({ status: 500, error: 'Unexpected processing failure' });
        expect((await client.get(`/api/v1/triggers/${job.triggerId}`)).body.status).to.equal('waiting_for_reply');
      } finally {
        await db.raw('drop trigger refuse_human_reply on messages');
        await db.raw('drop function refuse_human_reply()');
      }
      app.model.reply({ content: 'Shipped from Berlin' });
      expect((await reply(job.triggerId, { decision: 'approved', reason: 'Use Berlin' })).status).to.equal(200);
      await waitForStatus(client, job.triggerId, 'succeeded');
    });
  });
});
