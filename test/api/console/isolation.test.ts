import { expect } from 'chai';
import type { Router } from 'express';
import { consoleRouter } from '../../../api/console/index.js';
import { finalizeMonth } from '../../../pkg/billing/finalize.js';
import { keepVoicemail } from '../../../pkg/messages/voicemail.js';
import { encodeWav } from '../../../pkg/voice/wav.js';
import { finalResult, NUMBERS } from '../../support/calls.js';
import { startCampaignsApp, type CampaignsApp } from '../../support/campaigns.js';
import { signedInUser } from '../../support/console.js';
import { parkedJob } from '../../support/triggers.js';

interface Route {
  method: string;
  path: string;
}

/** Every route of the console's JSON API, read from the router the server mounts (so a new route is swept too). */
function consoleApiRoutes(router: Router): Route[] {
  const routes: Route[] = [];
  const walk = (stack: any[]) => {
    for (const layer of stack) {
      if (layer.route) {
        for (const path of [layer.route.path].flat())
          for (const method of Object.keys(layer.route.methods)) routes.push({ method: method.toUpperCase(), path });
      } else if (layer.handle?.stack) walk(layer.handle.stack);
    }
  };
  walk((router as any).stack);
  // One-time sign-in links and single sign-on sit beside /console/api; they hold no account's data.
  const outside = new Set(['/sign-in/:token', '/sso', '/sso/callback']);
  return routes.filter((r) => !outside.has(r.path));
}

describe("The console keeps each account's data to itself, on every route", function () {
  this.timeout(120_000);
  let app: CampaignsApp;
  before(async () => {
    app = await startCampaignsApp({ controllers: true });
  });
  after(() => app?.close());

  it("answers 404 to every route given another account's ids, changes none of its data, and lists none of it", async () => {
    const NUMBER_B = '+12025557301';
    const BLOCKED_B = '+12025557302';
    const b = await app.campaignCompany({ numbers: [NUMBER_B] });
    const bOwner = await signedInUser(app, b.tenantId, 'owner');
    const bViewer = await signedInUser(app, b.tenantId, 'viewer');
    const call = (await b.client.post('/v1/calls', { to: NUMBERS.answer, task: 'Isolation call' })).body;
    await finalResult(b.client, call.id);
    const job = await parkedJob(app, b.client, b.agentId, 'Isolation job');
    expect((await bOwner.browser.post('/console/api/do-not-call', { number: BLOCKED_B })).status).to.equal(201);
    const connection = (await b.client.post('/v1/connections', { name: 'CRM', base_url: b.system.url })).body;
    const campaign = (await b.client.post('/v1/campaigns', { name: 'Renewals', connection_id: connection.id, task: 'Renewal call' })).body;
    const run = (await b.client.post(`/v1/campaigns/${campaign.id}/runs`, {})).body;
    const conversation = (await bOwner.browser.get('/console/api/conversations')).body.conversations[0].id;
    const key = (await bOwner.browser.get('/console/api/keys')).body.keys[0].id;
    const queue = (await b.client.post('/v1/queues', { name: 'Front desk', members: [{ id: 'al', name: 'Al', phone: NUMBERS.answer }] }))
      .body;
    const mailbox = (await b.client.post('/v1/mailboxes', { name: 'After hours', greeting: 'Leave a message.' })).body;
    // B's invoice for a month it was pay-as-you-go in.
    const january = new Date('2025-01-01T00:00:00Z');
    await app.runtime.ctx.db('tenants').where({ id: b.tenantId }).update({ billing: 'payg', payg_since: january, updated_at: january });
    const invoice = (await finalizeMonth(app.runtime.ctx, b.tenantId, '2025-01'))!.number!;
    const voicemail = await keepVoicemail(
      app.runtime.ctx,
      { tenant_id: b.tenantId, call_id: null, caller: NUMBERS.answer, summary: 'Call me', mailbox_id: mailbox.id },
      encodeWav(new Int16Array(800), 8000),
    );

    // What a route's parameter names, in account B.
    const ids: Record<string, Record<string, string>> = {
      '/agents/:id': { id: b.agentId },
      '/agents/:id/test-message': { id: b.agentId },
      '/calls/:id': { id: call.id },
      '/calls/:id/hangup': { id: call.id },
      '/calls/:id/steer': { id: call.id },
      '/calls/:id/messages/:messageId/recording': { id: call.id, messageId: 'msg_0' },
      '/campaign-runs/:id': { id: run.id },
      '/campaign-runs/:id/results': { id: run.id },
      '/campaign-runs/:id/stop': { id: run.id },
      '/campaigns/:id': { id: campaign.id },
      '/campaigns/:id/runs': { id: campaign.id },
      '/connections/:id': { id: connection.id },
      '/conversations/:id': { id: conversation },
      '/conversations/:id/manual': { id: job.conversationId },
      '/do-not-call/:number': { number: BLOCKED_B },
      '/jobs/:id': { id: job.triggerId },
      '/jobs/:id/cancel': { id: job.triggerId },
      '/jobs/:id/reply': { id: job.triggerId },
      '/keys/:id': { id: key },
      '/numbers/:e164': { e164: NUMBER_B },
      '/users/:id': { id: bViewer.id },
      '/queues/:id': { id: queue.id },
      '/queues/:id/members/:memberId': { id: queue.id, memberId: 'al' },
      '/mailboxes/:id': { id: mailbox.id },
      '/mailboxes/:id/messages': { id: mailbox.id },
      '/mailboxes/:id/messages/:messageId': { id: mailbox.id, messageId: voicemail.id },
      '/mailboxes/:id/messages/:messageId/recording': { id: mailbox.id, messageId: voicemail.id },
      '/billing/invoices/:number': { number: invoice },
      '/billing/invoices/:number.csv': { number: invoice },
      '/billing/invoices/:number.pdf': { number: invoice },
    };
    const secretsOfB = [
      b.tenantId,
      b.agentId,
      call.id,
      run.id,
      campaign.id,
      connection.id,
      conversation,
      job.triggerId,
      job.conversationId,
      key,
      NUMBER_B,
      BLOCKED_B,
      bOwner.email,
      bViewer.email,
      queue.id,
      mailbox.id,
      voicemail.id,
      invoice,
    ];
    const before = await stateOfB();

    const a = await app.campaignCompany();
    const aOwner = await signedInUser(app, a.tenantId, 'owner');
    const routes = consoleApiRoutes(consoleRouter(app.runtime.ctx, { limits: {} as never }));
    expect(routes.length).to.be.greaterThan(50);
    const swept: string[] = [];
    for (const { method, path } of routes) {
      const params = [...path.matchAll(/:(\w+)/g)].map((m) => m[1]!);
      const name = `${method} ${path}`;
      if (params.length) {
        expect(ids, `B's ids for ${name}`).to.have.property(path);
        const url = `/console/api${path.replace(/:(\w+)/g, (_, p: string) => encodeURIComponent(ids[path]![p]!))}`;
        const res = await aOwner.browser.request(method, url, method === 'GET' || method === 'DELETE' ? undefined : {});
        // A change may be refused for its body before the account is looked at; it still changes nothing (checked below).
        const allowed = method === 'GET' || method === 'DELETE' ? [404] : [404, 400, 422];
        expect(allowed, `${name} answered ${res.status} ${JSON.stringify(res.body)}`).to.include(res.status);
        expect(res.body?.error?.code, name).to.be.a('string');
      } else if (method === 'GET' && path !== '/calls/stream') {
        const res = await aOwner.browser.request('GET', `/console/api${path}`);
        const text = typeof res.body === 'string' ? res.body : JSON.stringify(res.body);
        for (const secret of secretsOfB) expect(text, `${name} shows B's ${secret}`).to.not.include(secret);
      } else continue;
      swept.push(name);
    }
    expect(swept.length).to.be.greaterThan(40);
    expect(await stateOfB()).to.deep.equal(before);

    /** What A's requests could have changed in B, read through B's own session. */
    async function stateOfB() {
      const read = async (path: string) => (await bOwner.browser.get(`/console/api${path}`)).body;
      const [agent, keys, users, blocked, conn, camp, jobNow, numbers, webhooks, queues, mailboxes, messages] = await Promise.all(
        [
          `/agents/${b.agentId}`,
          '/keys',
          '/users',
          '/do-not-call',
          `/connections/${connection.id}`,
          `/campaigns/${campaign.id}`,
          `/jobs/${job.triggerId}`,
          '/numbers',
          '/webhooks',
          '/queues',
          '/mailboxes',
          `/mailboxes/${mailbox.id}/messages`,
        ].map(read),
      );
      return { agent, keys, users, blocked, conn, camp, job: jobNow.job.status, numbers, webhooks, queues, mailboxes, messages };
    }
  });
});
