// The console's Billing page: the company's billing mode, its invoices and credit notes, the running
// month's draft, each as JSON, CSV and PDF. Owners and admins only (what the company pays).
import { Router, type Response } from 'express';
import type { Ctx } from '../../pkg/context.js';
import { documentName, invoiceCsv, invoicePdf } from '../../pkg/billing/documents.js';
import { draftInvoice, invoiceSummaryView, invoiceView } from '../../pkg/billing/invoices.js';
import { getInvoice } from '../../pkg/store/invoices/get.js';
import { listInvoices } from '../../pkg/store/invoices/list.js';
import type { Invoice } from '../../pkg/store/invoices/row.js';
import { getTenant } from '../../pkg/store/tenants.js';
import { principalOf, requireSession } from './session.js';

function download(res: Response, invoice: Invoice, ext: 'csv' | 'pdf', type: string, body: string | Buffer): void {
  res.type(type).setHeader('Content-Disposition', `attachment; filename="${documentName(invoice)}.${ext}"`);
  res.send(body);
}

export function billingRouter(ctx: Ctx): Router {
  const r = Router();
  const admin = requireSession(ctx, 'admin');
  // The draft is addressed as `draft`; a finalized document by its number.
  const invoiceOf = (tenantId: string, number: string) =>
    number === 'draft' ? draftInvoice(ctx, tenantId) : getInvoice(ctx, number, tenantId);

  r.get('/billing', admin, async (req, res) => {
    const { tenantId } = principalOf(req);
    const tenant = await getTenant(ctx, tenantId);
    const draft = tenant.billing === 'payg' ? await draftInvoice(ctx, tenantId) : null;
    res.json({
      billing: tenant.billing,
      currency: ctx.config.SWITCHBOARD_CURRENCY,
      draft: draft && { month: draft.month, total: draft.total, currency: draft.currency },
      invoices: (await listInvoices(ctx, tenantId)).map(invoiceSummaryView),
    });
  });

  r.get('/billing/invoices/:number.csv', admin, async (req, res) => {
    const invoice = await invoiceOf(principalOf(req).tenantId, req.params.number as string);
    download(res, invoice, 'csv', 'text/csv; charset=utf-8', invoiceCsv(invoice));
  });

  r.get('/billing/invoices/:number.pdf', admin, async (req, res) => {
    const { tenantId } = principalOf(req);
    const invoice = await invoiceOf(tenantId, req.params.number as string);
    download(res, invoice, 'pdf', 'application/pdf', await invoicePdf(invoice, (await getTenant(ctx, tenantId)).name));
  });

  r.get('/billing/invoices/:number', admin, async (req, res) => {
    res.json(invoiceView(await invoiceOf(principalOf(req).tenantId, req.params.number as string)));
  });

  return r;
}
