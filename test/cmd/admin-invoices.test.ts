import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { finalizeDueInvoices } from '../../pkg/billing/due.js';
import type { TestApp } from '../support/app.js';
import { finalResult, NUMBERS, startCallsApp, type CallsApp } from '../support/calls.js';
import { adminOn, expectSuccess, switchboard } from '../support/cli.js';
import { manualClock, startJobsApp } from '../support/triggers.js';

const PRICES = { SWITCHBOARD_PRICE_PER_CREDIT: '7', SWITCHBOARD_PRICE_PER_CALL_MINUTE: '3', SWITCHBOARD_CURRENCY: 'EUR' };

/** The text pdftotext (poppler-utils) reads from a PDF, laid out as printed. */
async function pdfText(file: string): Promise<string> {
  const { stdout } = await promisify(execFile)('pdftotext', ['-layout', file, '-']);
  return stdout;
}

describe('switchboard admin invoice', function () {
  // Each test spawns the CLI, a full node start; on a busy machine that takes seconds.
  this.timeout(120_000);

  describe('a finalized month', () => {
    let app: TestApp;
    let admin: ReturnType<typeof adminOn>;
    let dir: string;
    let tenantId: string;
    let number: string;
    before(async () => {
      app = await startJobsApp({ manualClock: true, startAt: new Date('2025-01-10T09:00:00Z'), env: PRICES });
      admin = adminOn(app, PRICES);
      dir = await mkdtemp(join(tmpdir(), 'switchboard-invoices-'));
      const company = await app.company({ name: 'Printed Ltd' });
      tenantId = company.tenantId;
      const conversation = (await company.client.post('/api/v1/conversations', { agentId: company.agentId })).body.conversationId;
      app.model.reply({ content: 'Noted.', usage: { promptTokens: 2000, completionTokens: 500 } });
      expect((await company.client.post(`/api/v1/conversations/${conversation}/messages`, { message: 'Hello' })).status).to.equal(200);
      manualClock(app).set(new Date('2025-02-01T00:30:00Z'));
      await finalizeDueInvoices(app.runtime.ctx);
      number = (await app.runtime.ctx.db('invoices').where({ tenant_id: tenantId }).first()).number;
    });
    after(async () => {
      await rm(dir, { recursive: true, force: true });
      await app.close();
    });

    it("list gives the company's invoices; show gives one with its lines, in integer minor units", async () => {
      const listed = expectSuccess(await admin('invoice', 'list', '--tenant', tenantId));
      expect(listed).to.deep.equal({
        tenantId,
        billing: 'payg',
        invoices: [
          {
            number: 'INV-2025-000001',
            kind: 'invoice',
            month: '2025-01',
            currency: 'EUR',
            total: 18,
            issued_at: '2025-02-01T00:30:00.000Z',
            credits_number: null,
          },
        ],
      });
      const shown = expectSuccess(await admin('invoice', 'show', '--invoice', number));
      expect(shown).to.include({ number, kind: 'invoice', status: 'finalized', month: '2025-01', total: 18 });
      expect(shown.lines).to.deep.equal([
        {
          description: 'AI credits · chat · Printed Ltd assistant',
          item: 'credits',
          reference_type: 'chat',
          agent_id: shown.lines[0].agent_id,
          direction: null,
          quantity: 2.5,
          unit_price: 7,
          amount: 18,
        },
      ]);
      const text = await switchboard(['admin', 'invoice', 'show', '--invoice', number], {
        DATABASE_URL: app.runtime.ctx.config.DATABASE_URL!,
      });
      expect(text.stdout).to.include('AI credits · chat · Printed Ltd assistant  2.5 x €0.07 = €0.18').and.include('total €0.18');
    });

    it('pdf writes the invoice as a PDF whose text shows each line and the total', async () => {
      const out = join(dir, `${number}.pdf`);
      const written = expectSuccess(await admin('invoice', 'pdf', '--invoice', number, '--out', out));
      expect(written).to.include({ number, file: out });
      const text = await pdfText(out);
      expect(text).to.include(`Invoice ${number}`).and.include('Company: Printed Ltd').and.include('Period: 2025-01 (UTC)');
      expect(text).to.match(/AI credits · chat · Printed Ltd assistant\s+2\.5\s+€0\.07\s+€0\.18/);
      expect(text).to.match(/Total \(EUR\)\s+€0\.18/);
    });

    it('credit-note corrects the invoice by a credit note referencing it, at most what is left of its total', async () => {
      // Numbered in the year it is issued (the CLI's clock is the wall clock).
      const cn = `CN-${new Date().getUTCFullYear()}-000001`;
      const note = expectSuccess(
        await admin('invoice', 'credit-note', '--invoice', number, '--amount', '5', '--reason', 'Model outage on 3 January'),
      );
      expect(note).to.include({
        number: cn,
        kind: 'credit_note',
        credits_number: number,
        reason: 'Model outage on 3 January',
        total: 5,
        month: '2025-01',
      });
      expect(note.lines.map((l: any) => [l.description, l.amount])).to.deep.equal([
        [`Correction of ${number}: Model outage on 3 January`, 5],
      ]);
      expect(expectSuccess(await admin('invoice', 'show', '--invoice', number)).credit_notes).to.deep.equal([{ number: cn, total: 5 }]);

      const tooMuch = await admin('invoice', 'credit-note', '--invoice', number, '--amount', '14', '--reason', 'Again');
      expect(tooMuch.code).to.equal(2);
      expect(tooMuch.stderr).to.match(/amount: must be at most 13/);
      const unknown = await admin('invoice', 'credit-note', '--invoice', 'INV-2025-999999', '--amount', '1', '--reason', 'No such');
      expect(unknown.code).to.equal(1);
      expect(unknown.stderr).to.include('No invoice INV-2025-999999');
      // The invoice itself is unchanged.
      expect(expectSuccess(await admin('invoice', 'show', '--invoice', number)).total).to.equal(18);
      const cnPdf = join(dir, 'cn.pdf');
      expectSuccess(await admin('invoice', 'pdf', '--invoice', cn, '--out', cnPdf));
      expect(await pdfText(cnPdf))
        .to.include(`Credit note ${cn}`)
        .and.include(`Corrects: ${number}`)
        .and.match(/Total \(EUR\)\s+€0\.05/);
    });

    it('exits 2 without --out, 1 for an unknown invoice', async () => {
      expect((await admin('invoice', 'pdf', '--invoice', number)).code).to.equal(2);
      expect((await admin('invoice', 'show', '--invoice', 'INV-1999-000001')).code).to.equal(1);
    });
  });

  it('admin --help lists the invoice commands and their flags', async () => {
    const r = await switchboard(['admin', '--help']);
    expect(r.code).to.equal(0);
    for (const command of ['invoice list', 'invoice show', 'invoice pdf', 'invoice credit-note'])
      expect(r.stdout).to.include(`  ${command} `);
    for (const flag of ['--invoice', '--out', '--reason']) expect(r.stdout).to.include(flag);
  });

  describe('billing mode', () => {
    let app: TestApp;
    before(async () => {
      app = await startJobsApp();
    });
    after(async () => app.close());

    it('is prepaid unless the operator sets --billing payg: a payg company is never credit-blocked, a prepaid one is', async () => {
      const admin = adminOn(app, PRICES);
      const made = expectSuccess(await admin('tenant', 'create', '--name', 'Default Co'));
      expect(made.billing).to.equal('prepaid');

      const company = await app.company({ credits: 0 });
      const conversation = (await company.client.post('/api/v1/conversations', { agentId: company.agentId })).body.conversationId;
      const talk = () => {
        app.model.reply({ content: 'Hi.' });
        return company.client.post(`/api/v1/conversations/${conversation}/messages`, { message: 'Hi' });
      };
      expect((await talk()).status).to.equal(402);
      expect(expectSuccess(await admin('tenant', 'update', '--tenant', company.tenantId, '--billing', 'payg')).billing).to.equal('payg');
      expect((await talk()).status).to.equal(200);
      // Payg, its running month has a draft; prepaid again, it has none.
      expect(expectSuccess(await admin('invoice', 'show', '--tenant', company.tenantId))).to.include({ status: 'draft', number: null });
      expectSuccess(await admin('tenant', 'update', '--tenant', company.tenantId, '--billing', 'prepaid'));
      expect((await talk()).status).to.equal(402);
      const draft = await admin('invoice', 'show', '--tenant', company.tenantId);
      expect(draft.code).to.equal(1);
      expect(draft.stderr).to.include('prepaid: it is not invoiced');
    });
  });

  describe("the running month's draft", () => {
    let app: CallsApp;
    before(async () => {
      app = await startCallsApp({ controllers: true, env: PRICES });
    });
    after(async () => app.close());

    it('shows the call minutes by direction so far, priced per minute begun', async () => {
      const company = await app.voiceCompany();
      for (const task of ['First call', 'Second call']) {
        const placed = await company.client.post('/v1/calls', { to: NUMBERS.answer, task });
        expect(placed.status, JSON.stringify(placed.body)).to.equal(201);
        await finalResult(company.client, placed.body.id);
      }
      const draft = expectSuccess(await adminOn(app, PRICES)('invoice', 'show', '--tenant', company.tenantId));
      expect(draft).to.include({ status: 'draft', number: null, currency: 'EUR' });
      const minutes = draft.lines.filter((l: any) => l.item === 'call_minutes');
      expect(minutes).to.deep.equal([
        {
          description: 'Call minutes · outbound',
          item: 'call_minutes',
          reference_type: null,
          agent_id: null,
          direction: 'outbound',
          quantity: 2,
          unit_price: 3,
          amount: 6,
        },
      ]);
      expect(draft.total).to.equal(draft.lines.reduce((sum: number, l: any) => sum + l.amount, 0));
    });
  });
});
