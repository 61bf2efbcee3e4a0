import { expect } from 'chai';
import { finalizeDueInvoices } from '../../pkg/billing/due.js';
import { finalizeMonth } from '../../pkg/billing/finalize.js';
import { updateTenant } from '../../pkg/tenants/settings.js';
import { deliveryPolicy } from '../../pkg/webhooks/policy.js';
import { webhookSecret } from '../../pkg/webhooks/secret.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { signedInUser } from '../support/console.js';
import { eventually } from '../support/eventually.js';
import { manualClock, startJobsApp } from '../support/triggers.js';
import { signatureProblem, startReceiver } from '../support/webhooks.js';

const PRICES = { SWITCHBOARD_PRICE_PER_CREDIT: '7', SWITCHBOARD_PRICE_PER_CALL_MINUTE: '3', SWITCHBOARD_CURRENCY: 'EUR' };

describe('Pay-as-you-go invoices, finalized by the controllers', function () {
  this.timeout(120_000);

  describe('a company in Europe/Berlin across the change to summer time (March 2025)', () => {
    let app: TestApp;
    before(async () => {
      app = await startJobsApp({ controllers: true, manualClock: true, startAt: new Date('2025-02-20T12:00:00Z'), env: PRICES });
    });
    after(async () => app.close());

    /** A chat turn of `company` at `at` that spends `tokens` (a credit per 1,000). */
    async function turnAt(company: Awaited<ReturnType<TestApp['company']>>, conversationId: string, at: string, tokens: number) {
      manualClock(app).set(new Date(at));
      app.model.reply({ content: 'Noted.', usage: { promptTokens: tokens, completionTokens: 0 } });
      const reply = await company.client.post(`/api/v1/conversations/${conversationId}/messages`, { message: `It is ${at}` });
      expect(reply.status, JSON.stringify(reply.body)).to.equal(200);
    }

    const invoiceOf = (tenantId: string, month: string) =>
      eventually(`the ${month} invoice`, () => app.runtime.ctx.db('invoices').where({ tenant_id: tenantId, month }).first());

    it('puts usage just before and after each local month boundary in its month, finalized within an hour after the month ends', async () => {
      const company = await app.company({ name: 'Berlin GmbH' });
      await updateTenant(app.runtime.ctx, company.tenantId, { timezone: 'Europe/Berlin' });
      const conversation = (await company.client.post('/api/v1/conversations', { agentId: company.agentId })).body.conversationId;

      await turnAt(company, conversation, '2025-02-28T22:59:00Z', 1000); // 23:59 CET, 28 February
      await turnAt(company, conversation, '2025-02-28T23:00:30Z', 2000); // 00:00:30 CET, 1 March
      const february = await invoiceOf(company.tenantId, '2025-02');
      await turnAt(company, conversation, '2025-03-30T01:30:00Z', 500); // 03:30 CEST, just after the change
      await turnAt(company, conversation, '2025-03-31T21:59:00Z', 3000); // 23:59 CEST, 31 March

      // The running month's draft, read in the console before the month ends: computed, not stored.
      const { browser } = await signedInUser(app, company.tenantId, 'owner');
      const draft = await browser.get('/console/api/billing/invoices/draft');
      expect(draft.status, JSON.stringify(draft.body)).to.equal(200);
      expect(draft.body).to.include({ number: null, status: 'draft', month: '2025-03', total: 39, currency: 'EUR' });
      expect(await app.runtime.ctx.db('invoices').where({ tenant_id: company.tenantId, month: '2025-03' }).first()).to.equal(undefined);

      await turnAt(company, conversation, '2025-03-31T22:00:30Z', 4000); // 00:00:30 CEST, 1 April
      const march = await invoiceOf(company.tenantId, '2025-03');

      expect(february.period_start.toISOString()).to.equal('2025-01-31T23:00:00.000Z');
      expect(february.period_end.toISOString()).to.equal('2025-02-28T23:00:00.000Z');
      expect(march.period_start.toISOString()).to.equal('2025-02-28T23:00:00.000Z');
      expect(march.period_end.toISOString()).to.equal('2025-03-31T22:00:00.000Z');
      for (const invoice of [february, march]) {
        const late = invoice.issued_at.getTime() - invoice.period_end.getTime();
        expect(late).to.be.at.least(0).and.below(3_600_000);
      }

      const view = (number: string) => browser.get(`/console/api/billing/invoices/${number}`);
      const feb = (await view(february.number)).body;
      expect(feb.number).to.match(/^INV-2025-\d{6}$/);
      expect(feb.lines).to.deep.equal([
        {
          description: 'AI credits · chat · Berlin GmbH assistant',
          item: 'credits',
          reference_type: 'chat',
          agent_id: company.agentId,
          direction: null,
          quantity: 1,
          unit_price: 7,
          amount: 7,
        },
      ]);
      expect(feb).to.include({ kind: 'invoice', status: 'finalized', total: 7, currency: 'EUR', timezone: 'Europe/Berlin' });
      const mar = (await view(march.number)).body;
      expect(mar.lines.map((l: any) => [l.description, l.quantity, l.unit_price, l.amount])).to.deep.equal([
        ['AI credits · chat · Berlin GmbH assistant', 5.5, 7, 39],
      ]);
      expect(mar.total).to.equal(39);
      // Numbered in the order finalized, without a gap.
      expect(Number(march.number.slice(-6))).to.equal(Number(february.number.slice(-6)) + 1);
    });

    it('refuses in the database to change or delete a finalized invoice or its lines', async () => {
      const company = await app.company({ name: 'Immutable AG' });
      // Payg since the clock's now (31 March 2025, UTC): its March invoice once March ends there.
      manualClock(app).set(new Date('2025-04-01T00:10:00Z'));
      const { db } = app.runtime.ctx;
      const invoice = await eventually('the March invoice', () => db('invoices').where({ tenant_id: company.tenantId }).first());
      expect(invoice.month).to.equal('2025-03');
      expect(await finalizeMonth(app.runtime.ctx, company.tenantId, invoice.month)).to.equal(null);
      for (const attempt of [
        db('invoices').where({ number: invoice.number }).update({ total: 0 }),
        db('invoices').where({ number: invoice.number }).del(),
        db.raw(`truncate invoices cascade`),
      ]) {
        const refused = await attempt.then(
          () => null,
          (err: { code?: string; message: string }) => err,
        );
        expect(refused?.code, refused?.message).to.equal('SBI01');
      }
      expect((await db('invoices').where({ number: invoice.number }).first()).total).to.equal(invoice.total);
    });

    it('invoices the days of a month a company was pay-as-you-go, when it turns prepaid within it, and nothing after', async () => {
      const company = await app.company({ name: 'Switcher Ltd', credits: 100 });
      const { ctx } = app.runtime;
      const conversation = (await company.client.post('/api/v1/conversations', { agentId: company.agentId })).body.conversationId;
      manualClock(app).set(new Date('2025-04-02T09:00:00Z'));
      await updateTenant(ctx, company.tenantId, { billing: 'payg' });
      await turnAt(company, conversation, '2025-04-05T09:00:00Z', 2000);
      manualClock(app).set(new Date('2025-04-10T09:00:00Z'));
      await updateTenant(ctx, company.tenantId, { billing: 'prepaid' });
      await turnAt(company, conversation, '2025-04-20T09:00:00Z', 3000); // prepaid: paid from its credits

      manualClock(app).set(new Date('2025-05-01T00:10:00Z'));
      const april = await invoiceOf(company.tenantId, '2025-04');

      const lines = await ctx.db('invoice_lines').where({ number: april.number });
      expect(lines.map((l) => [Number(l.quantity), Number(l.amount)])).to.deep.equal([[2, 14]]);
      manualClock(app).set(new Date('2025-06-01T00:10:00Z'));
      await finalizeDueInvoices(ctx);
      expect(await ctx.db('invoices').where({ tenant_id: company.tenantId }).pluck('month')).to.deep.equal(['2025-04']);
    });

    it('starts the month after a change of timezone where the last invoice ended, leaving no hour out or in twice', async () => {
      const company = await app.company({ name: 'Moving Inc' }); // pay-as-you-go, in UTC, from 1 June 2025
      const { ctx } = app.runtime;
      const conversation = (await company.client.post('/api/v1/conversations', { agentId: company.agentId })).body.conversationId;
      await turnAt(company, conversation, '2025-06-15T09:00:00Z', 1000);
      manualClock(app).set(new Date('2025-07-01T00:10:00Z'));
      const june = await invoiceOf(company.tenantId, '2025-06');
      await updateTenant(ctx, company.tenantId, { timezone: 'America/Los_Angeles' });

      await turnAt(company, conversation, '2025-07-31T23:00:00Z', 2000); // 16:00 PDT, 31 July
      await turnAt(company, conversation, '2025-08-01T08:00:00Z', 3000); // 01:00 PDT, 1 August
      const july = await invoiceOf(company.tenantId, '2025-07');

      expect(july.period_start.toISOString()).to.equal(june.period_end.toISOString());
      expect(july.period_end.toISOString()).to.equal('2025-08-01T07:00:00.000Z');
      const lines = await ctx.db('invoice_lines').where({ number: july.number });
      expect(lines.map((l) => Number(l.quantity))).to.deep.equal([2]);
    });
  });

  describe('two controller replicas at once', () => {
    let app: TestApp;
    let other: TestApp;
    const START = new Date('2025-05-10T12:00:00Z');
    before(async () => {
      app = await startJobsApp({ manualClock: true, startAt: START, env: PRICES });
      other = await startTestApp({ databaseUrl: app.runtime.ctx.config.DATABASE_URL, manualClock: true, startAt: START, env: PRICES });
    });
    after(async () => {
      await other.close();
      await app.close();
    });

    it('finalize each month once, numbered without gaps, however they interleave', async () => {
      const companies = await Promise.all([1, 2, 3, 4, 5].map((n) => app.company({ name: `Twice Co ${n}` })));
      // Three months end: each company has three invoices to catch up on.
      for (const a of [app, other]) manualClock(a).set(new Date('2025-08-01T00:00:01Z'));
      await Promise.all([
        finalizeDueInvoices(app.runtime.ctx),
        finalizeDueInvoices(other.runtime.ctx),
        finalizeDueInvoices(app.runtime.ctx),
      ]);
      // And the same month finalized by both at once: one of them does it.
      const both = await Promise.all([
        finalizeMonth(app.runtime.ctx, companies[0]!.tenantId, '2025-05'),
        finalizeMonth(other.runtime.ctx, companies[0]!.tenantId, '2025-05'),
      ]);
      expect(both).to.deep.equal([null, null]);

      const rows = await app.runtime.ctx.db('invoices').orderBy('number').select('tenant_id', 'month', 'number');
      expect(rows).to.have.length(15);
      for (const c of companies)
        expect(
          rows
            .filter((r) => r.tenant_id === c.tenantId)
            .map((r) => r.month)
            .sort(),
        ).to.deep.equal(['2025-05', '2025-06', '2025-07']);
      expect(rows.map((r) => r.number)).to.deep.equal(rows.map((_, i) => `INV-2025-${String(i + 1).padStart(6, '0')}`));
    });

    it('one of two finalizing the same month at once writes it', async () => {
      const company = await app.company({ name: 'Race Co' });
      expect(await finalizeMonth(app.runtime.ctx, company.tenantId, '2025-08'), 'a month not ended').to.equal(null);
      for (const a of [app, other]) manualClock(a).set(new Date('2025-09-01T00:00:01Z'));
      const made = await Promise.all([
        finalizeMonth(app.runtime.ctx, company.tenantId, '2025-08'),
        finalizeMonth(other.runtime.ctx, company.tenantId, '2025-08'),
      ]);
      expect(made.filter(Boolean)).to.have.length(1);
      expect(await app.runtime.ctx.db('invoices').where({ tenant_id: company.tenantId })).to.have.length(1);
    });
  });

  describe('invoice.finalized', () => {
    it("is sent to the account's events address, signed, with the call events' delivery policy", async () => {
      const app = await startJobsApp({ controllers: true, manualClock: true, startAt: new Date('2025-06-20T12:00:00Z'), env: PRICES });
      try {
        const company = await app.company({ name: 'Hooked Ltd' });
        const receiver = await startReceiver(await webhookSecret(app.runtime.ctx, company.tenantId));
        try {
          await updateTenant(app.runtime.ctx, company.tenantId, { eventsUrl: receiver.url, timezone: 'America/New_York' });
          manualClock(app).set(new Date('2025-07-01T04:00:05Z')); // 00:00:05 EDT, 1 July
          const request = await eventually('the invoice.finalized request', () => receiver.requests[0]);
          // The receiver checks the signature against the app's clock (June 2025), as it would at that time.
          expect(signatureProblem(receiver.secret, request.headers, request.body, app.clock.now().getTime())).to.equal(null);
          const envelope = JSON.parse(request.body);
          expect(envelope).to.include({ type: 'invoice.finalized', tenant_id: company.tenantId });
          expect(envelope.data).to.include({ kind: 'invoice', status: 'finalized', month: '2025-06', total: 0, currency: 'EUR' });
          expect(envelope.data.number).to.match(/^INV-2025-\d{6}$/);
          const row = await app.runtime.ctx.db('webhook_outbox').where({ id: envelope.id }).first();
          expect(row.max_attempts).to.equal(deliveryPolicy(app.runtime.ctx.config, 'call.ended').tries);
          expect(deliveryPolicy(app.runtime.ctx.config, 'invoice.finalized')).to.deep.equal(
            deliveryPolicy(app.runtime.ctx.config, 'call.ended'),
          );
        } finally {
          await receiver.close();
        }
      } finally {
        await app.close();
      }
    });
  });
});
