import { expect } from 'chai';
import type { Client } from '../../support/app.js';
import { signedInUser, type ConsoleBrowser } from '../../support/console.js';
import { finalResult, NUMBERS, startCallsApp, type CallsApp } from '../../support/calls.js';
import { parkedJob, waitForStatus } from '../../support/triggers.js';
import { startReceiver } from '../../support/webhooks.js';
import { webhookSecret } from '../../../pkg/webhooks/secret.js';

const OTHER_ID = '00000000-0000-4000-8000-000000000000';
const TOOL = {
  name: 'crm',
  description: 'Looks up the customer',
  url: 'https://crm.example.com/customers',
  method: 'GET',
  authType: 'bearer',
  authConfig: { token: 'sk-crm-secret-token-1' },
};

describe('Console jobs, conversations and agents', () => {
  let app: CallsApp;
  before(async () => {
    app = await startCallsApp({ controllers: true });
    [a, b] = [await account(), await account()];
    job = await parked(a);
  });
  after(async () => app.close());

  interface Account {
    tenantId: string;
    agentId: string;
    client: Client;
    owner: ConsoleBrowser;
    member: ConsoleBrowser;
    viewer: ConsoleBrowser;
  }
  async function account(): Promise<Account> {
    const { tenantId, agentId, client } = await app.company();
    const [owner, member, viewer] = await Promise.all(
      ['owner', 'member', 'viewer'].map((role) => signedInUser(app, tenantId, role as 'owner')),
    );
    return { tenantId, agentId, client, owner: owner!.browser, member: member!.browser, viewer: viewer!.browser };
  }

  /** A job of `a` parked waiting for a human reply. */
  const parked = (a: Account) => parkedJob(app, a.client, a.agentId, 'Ship order A-17');

  const auditOf = async (a: Account) =>
    (await a.owner.get('/console/api/audit')).body.entries as { action: string; target: string; user: { email: string }; details: any }[];

  let a: Account;
  let b: Account;
  let job: { conversationId: string; triggerId: string };

  describe('GET /console/api/jobs and /jobs/:id', () => {
    it("lists the account's jobs to every role, filtered by status, and reads one", async () => {
      const other = await parked(b);
      for (const browser of [a.owner, a.member, a.viewer]) {
        const all = await browser.get('/console/api/jobs');
        expect(all.status).to.equal(200);
        expect(all.body.jobs.map((j: any) => j.triggerId))
          .to.include(job.triggerId)
          .and.not.include(other.triggerId);
        const waiting = await browser.get('/console/api/jobs?status=waiting_for_reply');
        expect(waiting.body.jobs.map((j: any) => j.triggerId)).to.include(job.triggerId);
        expect((await browser.get('/console/api/jobs?status=succeeded')).body.jobs.map((j: any) => j.triggerId)).not.to.include(
          job.triggerId,
        );
        const one = await browser.get(`/console/api/jobs/${job.triggerId}`);
        expect(one.body.job).to.include({
          triggerId: job.triggerId,
          status: 'waiting_for_reply',
          task: 'Ship order A-17',
          waitingReason: 'Which warehouse should ship order A-17?',
        });
      }
    });

    it("answers 404 for another account's job and 422 for an unknown status", async () => {
      const other = await parked(b);
      for (const path of [`/jobs/${other.triggerId}`, `/jobs/${OTHER_ID}`, '/jobs/not-a-uuid']) {
        const res = await a.owner.get(`/console/api${path}`);
        expect(res.status, path).to.equal(404);
        expect(res.body.error.code).to.be.a('string');
      }
      expect((await a.owner.post(`/console/api/jobs/${other.triggerId}/reply`, { decision: 'approved' })).status).to.equal(404);
      expect((await a.owner.post(`/console/api/jobs/${other.triggerId}/cancel`, {})).status).to.equal(404);
      expect((await b.client.get(`/api/v1/triggers/${other.triggerId}`)).body.status).to.equal('waiting_for_reply');
      const bad = await a.owner.get('/console/api/jobs?status=lost');
      expect(bad.status).to.equal(422);
      expect(bad.body.error.code).to.equal('invalid_status');
    });

    it('refuses without a session', async () => {
      const res = await fetch(`${app.url}/console/api/jobs`);
      expect(res.status).to.equal(401);
    });
  });

  describe('POST /console/api/jobs/:id/reply', () => {
    it('refuses viewers with 403 and bad decisions with 422, and the job keeps waiting', async () => {
      const res = await a.viewer.post(`/console/api/jobs/${job.triggerId}/reply`, { decision: 'approved' });
      expect(res.status).to.equal(403);
      expect(res.body.error.code).to.equal('forbidden');
      for (const body of [
        {},
        { decision: 'maybe' },
        { decision: 'provided' },
        { decision: 'provided', reason: '  ' },
        { decision: 'approved', reason: 'x'.repeat(4001) },
        { decision: 'approved', extra: 1 },
      ]) {
        const bad = await a.member.post(`/console/api/jobs/${job.triggerId}/reply`, body);
        expect(bad.status, JSON.stringify(body)).to.equal(422);
        expect(bad.body.error.code).to.match(/^invalid_/);
      }
      expect((await a.client.get(`/api/v1/triggers/${job.triggerId}`)).body.status).to.equal('waiting_for_reply');
    });

    it("answers the job as the Agent API's reply does: the agent resumes with the reply, and the change is audited", async () => {
      const own = await parked(a);
      app.model.reply({ content: 'Shipping from Berlin' });
      const before = app.model.requests.length;
      const res = await a.member.post(`/console/api/jobs/${own.triggerId}/reply`, {
        decision: 'provided',
        reason: 'Use the Berlin warehouse',
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.job).to.include({ triggerId: own.triggerId, status: 'queued' });
      await waitForStatus(a.client, own.triggerId, 'succeeded');
      expect((app.model.requests[before] as any).messages).to.deep.include({
        role: 'system',
        content: 'HUMAN REPLY (provided): Use the Berlin warehouse',
      });
      const entry = (await auditOf(a)).find((e) => e.action === 'job.replied' && e.target === own.triggerId);
      expect(entry?.details).to.deep.equal({ decision: 'provided' });
      const again = await a.member.post(`/console/api/jobs/${own.triggerId}/reply`, { decision: 'approved' });
      expect(again.status).to.equal(409);
    });

    it('approves and rejects', async () => {
      for (const decision of ['approved', 'rejected']) {
        const own = await parked(a);
        app.model.reply({ content: `Done after ${decision}` });
        const before = app.model.requests.length;
        expect((await a.owner.post(`/console/api/jobs/${own.triggerId}/reply`, { decision, reason: 'Because' })).status).to.equal(200);
        const done = await waitForStatus(a.client, own.triggerId, 'succeeded');
        expect(done.resultSummary).to.equal(`Done after ${decision}`);
        expect((app.model.requests[before] as any).messages).to.deep.include({
          role: 'system',
          content: `HUMAN REPLY (${decision}): Because`,
        });
      }
    });
  });

  describe('POST /console/api/jobs/:id/cancel', () => {
    it('cancels for members, audited; 403 for viewers; 409 once ended', async () => {
      const own = await parked(a);
      expect((await a.viewer.post(`/console/api/jobs/${own.triggerId}/cancel`, {})).status).to.equal(403);
      expect((await a.member.post(`/console/api/jobs/${own.triggerId}/cancel`, { reason: 7 })).status).to.equal(422);
      const res = await a.member.post(`/console/api/jobs/${own.triggerId}/cancel`, { reason: 'Not needed' });
      expect(res.status).to.equal(200);
      expect(res.body.job).to.include({ status: 'cancelled', errorMessage: 'Not needed' });
      expect((await a.client.get(`/api/v1/triggers/${own.triggerId}`)).body.status).to.equal('cancelled');
      expect((await auditOf(a)).find((e) => e.action === 'job.cancelled' && e.target === own.triggerId)?.details).to.deep.equal({
        reason: 'Not needed',
      });
      expect((await a.member.post(`/console/api/jobs/${own.triggerId}/cancel`, {})).status).to.equal(409);
    });
  });

  describe('conversations', () => {
    const list0 = (res: { body: any }) => res.body.conversations[0].id as string;

    it("lists the account's call conversations, not its API ones, with their calls, and reads one in full", async () => {
      const voice = await app.voiceCompany();
      const [owner, viewer] = await Promise.all([signedInUser(app, voice.tenantId, 'owner'), signedInUser(app, voice.tenantId, 'viewer')]);
      const call = (await voice.client.post('/v1/calls', { to: NUMBERS.answer, task: 'Confirm the delivery slot' })).body;
      await finalResult(voice.client, call.id);
      const apiConversation = await parkedJob(app, voice.client, voice.agentId, 'Ship order B-2');
      for (const browser of [owner.browser, viewer.browser]) {
        const list = await browser.get('/console/api/conversations');
        expect(list.status).to.equal(200);
        expect(list.body).to.include({ total: 1, has_more: false });
        expect(list.body.conversations).to.have.length(1);
        const [listed] = list.body.conversations;
        expect(listed).to.include({ channel: 'voice', callId: call.id, status: 'ended' });
        const one = await browser.get(`/console/api/conversations/${listed.id}`);
        expect(one.status).to.equal(200);
        expect(one.body.conversation).to.include({ conversationId: listed.id, channel: 'voice' });
        expect(one.body.conversation.messages.map((m: any) => m.role)).to.include.members(['user', 'assistant']);
      }
      const manual = await owner.browser.post(
        `/console/api/conversations/${list0(await owner.browser.get('/console/api/conversations'))}/manual`,
        { message: 'Hi' },
      );
      expect(manual.status).to.equal(409);
      expect((await a.owner.get('/console/api/conversations')).body.conversations).to.deep.equal([]);

      // An API conversation is read from its job, tool calls by name, though never listed.
      const read = await owner.browser.get(`/console/api/conversations/${apiConversation.conversationId}`);
      expect(read.body.conversation).to.include({
        conversationId: apiConversation.conversationId,
        channel: 'api',
        jobId: apiConversation.triggerId,
      });
      expect(read.body.conversation.messages.find((m: any) => m.metadata?.toolCalls)?.metadata.toolCalls).to.deep.equal([
        'request_human_input',
      ]);
      const second = await owner.browser.get('/console/api/conversations?limit=1&offset=1');
      expect(second.body).to.include({ total: 1, has_more: false });
      expect(second.body.conversations).to.deep.equal([]);
      expect((await a.owner.get('/console/api/conversations?limit=0')).status).to.equal(422);
    });

    it("answers 404 for another account's conversation on every route", async () => {
      const other = await parked(b);
      for (const id of [other.conversationId, OTHER_ID, 'nope']) {
        expect((await a.owner.get(`/console/api/conversations/${id}`)).status, id).to.equal(404);
        const manual = await a.owner.post(`/console/api/conversations/${id}/manual`, { message: 'Hi' });
        expect(manual.status, id).to.equal(404);
        expect(manual.body.error.code).to.equal('not_found');
      }
      const transcript = (await b.client.get(`/api/v1/conversations/${other.conversationId}`)).body.messages;
      expect(transcript.map((m: any) => m.content)).not.to.include('Hi');
    });

    it('adds a manual message as the signed-in user for members, audited; 403 for viewers; 422 for bad input', async () => {
      expect((await a.viewer.post(`/console/api/conversations/${job.conversationId}/manual`, { message: 'Hi' })).status).to.equal(403);
      for (const body of [{}, { message: '' }, { message: 'Hi', username: 'someone else' }]) {
        expect(
          (await a.member.post(`/console/api/conversations/${job.conversationId}/manual`, body)).status,
          JSON.stringify(body),
        ).to.equal(422);
      }
      const session = (await a.member.get('/console/api/session')).body;
      const res = await a.member.post(`/console/api/conversations/${job.conversationId}/manual`, { message: 'Checked the stock by hand' });
      expect(res.status).to.equal(201);
      expect(res.body).to.include({ conversationId: job.conversationId, addedBy: session.user.name });
      const transcript = (await a.client.get(`/api/v1/conversations/${job.conversationId}`)).body.messages;
      const added = transcript.find((m: any) => m.role === 'admin' && m.content === 'Checked the stock by hand');
      expect(added?.metadata).to.include({ username: session.user.name, source: 'manual' });
      expect((await auditOf(a)).find((e) => e.action === 'conversation.message_added')?.target).to.equal(job.conversationId);
    });
  });

  describe('agents', () => {
    it("lists and reads the account's agents to every role", async () => {
      for (const browser of [a.owner, a.viewer]) {
        const list = await browser.get('/console/api/agents');
        expect(list.body.agents.map((x: any) => x.id)).to.deep.equal([a.agentId]);
        expect((await browser.get(`/console/api/agents/${a.agentId}`)).body.agent).to.include({ id: a.agentId });
      }
    });

    it("answers 404 for another account's agent on every route", async () => {
      for (const id of [b.agentId, OTHER_ID, 'nope']) {
        expect((await a.owner.get(`/console/api/agents/${id}`)).status, id).to.equal(404);
        expect((await a.owner.patch(`/console/api/agents/${id}`, { systemPrompt: 'Hijacked' })).status, id).to.equal(404);
      }
      expect((await b.owner.get(`/console/api/agents/${b.agentId}`)).body.agent.systemPrompt).not.to.equal('Hijacked');
    });

    it('changes an agent for members with its tool secret write-only, kept across edits that omit it, audited without it', async () => {
      expect((await a.viewer.patch(`/console/api/agents/${a.agentId}`, { systemPrompt: 'No' })).status).to.equal(403);
      const res = await a.member.patch(`/console/api/agents/${a.agentId}`, {
        systemPrompt: 'You ship orders.',
        outcomes: ['shipped', 'held'],
        tools: [TOOL],
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.agent).to.include({ systemPrompt: 'You ship orders.' });
      expect(JSON.stringify(res.body)).not.to.include('sk-crm-secret-token-1').and.not.include('sealed');
      const { authConfig: _secret, ...shown } = TOOL;
      expect(res.body.agent.tools).to.deep.equal([{ ...shown, parameters: [] }]);

      // The form sends the tool back as it was shown, without its secret: the stored one is kept.
      const edited = await a.member.patch(`/console/api/agents/${a.agentId}`, { tools: [{ ...shown, description: 'Finds the customer' }] });
      expect(edited.status, JSON.stringify(edited.body)).to.equal(200);
      const read = await a.viewer.get(`/console/api/agents/${a.agentId}`);
      expect(JSON.stringify(read.body)).not.to.include('sk-crm-secret-token-1');
      const stored = await app.runtime.ctx.db('agents').where({ id: a.agentId }).first();
      const { openAuth } = await import('../../../pkg/tools/custom-tools.js');
      expect(openAuth(stored.tools[0], app.runtime.ctx.secrets)).to.deep.equal({ token: 'sk-crm-secret-token-1' });
      expect(stored.tools[0].description).to.equal('Finds the customer');

      const replaced = await a.member.patch(`/console/api/agents/${a.agentId}`, { tools: [{ ...shown, authConfig: { token: 'sk-new' } }] });
      expect(replaced.status).to.equal(200);
      const again = await app.runtime.ctx.db('agents').where({ id: a.agentId }).first();
      expect(openAuth(again.tools[0], app.runtime.ctx.secrets)).to.deep.equal({ token: 'sk-new' });

      const entries = (await auditOf(a)).filter((e) => e.action === 'agent.updated' && e.target === a.agentId);
      expect(entries.map((e) => e.details.fields)).to.deep.include(['systemPrompt', 'outcomes', 'tools']);
      expect(JSON.stringify(entries)).not.to.include('sk-');
    });

    it("sends the agent's own message webhook a signed message.test for members, audited; 409 without one, 403 for a viewer, 404 for another account's agent", async () => {
      const c = await account();
      const none = await c.member.post(`/console/api/agents/${c.agentId}/test-message`);
      expect([none.status, none.body.error.code]).to.deep.equal([409, 'conflict']);
      const receiver = await startReceiver(await webhookSecret(app.runtime.ctx, c.tenantId));
      try {
        expect((await c.member.patch(`/console/api/agents/${c.agentId}`, { messageWebhookUrl: receiver.url })).status).to.equal(200);
        expect((await c.viewer.post(`/console/api/agents/${c.agentId}/test-message`)).status).to.equal(403);
        expect((await c.member.post(`/console/api/agents/${b.agentId}/test-message`)).status).to.equal(404);
        expect(receiver.requests).to.deep.equal([]);

        const sent = await c.member.post(`/console/api/agents/${c.agentId}/test-message`);
        expect(sent.status, JSON.stringify(sent.body)).to.equal(200);
        expect(sent.body).to.include({ url: receiver.url, delivered: true, status: 200, error: null });
        expect(receiver.events.map((e) => [e.id, e.type, e.tenant_id])).to.deep.equal([[sent.body.event_id, 'message.test', c.tenantId]]);
        expect(receiver.rejected).to.deep.equal([]);
        const tested = (await auditOf(c)).find((e) => e.action === 'agent.webhook_tested');
        expect(tested).to.deep.include({ target: c.agentId, details: { event_id: sent.body.event_id, delivered: true } });
      } finally {
        await receiver.close();
      }
    });

    it('refuses bad input with 400/422 and changes nothing', async () => {
      const before = (await a.owner.get(`/console/api/agents/${a.agentId}`)).body.agent;
      for (const [body, status] of [
        [{}, 400],
        [{ model: '' }, 422],
        [{ outcomes: [] }, 422],
        [{ isPublic: true }, 422],
        [{ color: 'red' }, 422],
        [{ tools: [{ ...TOOL, authType: 'basic', authConfig: undefined, name: 'fresh' }] }, 422],
        [{ handoffRoster: [{ roleName: 'sales', agentId: b.agentId }] }, 422],
        [{ messageWebhookUrl: 'http://insecure.example.com' }, 422],
      ] as const) {
        const res = await a.owner.patch(`/console/api/agents/${a.agentId}`, body);
        expect(res.status, JSON.stringify(body)).to.equal(status);
        expect(res.body.error).to.have.keys('code', 'message');
      }
      expect((await a.owner.get(`/console/api/agents/${a.agentId}`)).body.agent).to.deep.equal(before);
    });
  });
});
