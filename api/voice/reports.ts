// Usage reports: requests, requests over the limit and calls placed of the caller's own tenant.
import { Router, type Request, type Response } from 'express';
import type { Ctx } from '../../pkg/context.js';
import { usageCsv, usageReport } from '../../pkg/metering/report.js';
import { principalOf } from '../http/authentication.js';
import { parseVoice } from './parse.js';
import { usageQuery } from './tenant-schemas.js';

/** `tenantId`'s usage report for a request's query string (from, to, group_by); the console asks the same. */
export function reportFor(ctx: Ctx, tenantId: string, query: unknown) {
  const q = parseVoice(usageQuery, query, 'query');
  return usageReport(ctx, tenantId, { from: q.from, to: q.to, groupBy: q.group_by });
}

/** A usage report as a CSV download. */
export function sendUsageCsv(res: Response, report: Awaited<ReturnType<typeof usageReport>>): void {
  res.type('text/csv; charset=utf-8').setHeader('Content-Disposition', 'attachment; filename="api-usage.csv"');
  res.send(usageCsv(report));
}

export function reportsRouter(ctx: Ctx): Router {
  const r = Router();
  const report = (req: Request) => reportFor(ctx, principalOf(req).tenant.id, req.query);

  r.get('/reports/api-usage', async (req, res) => {
    res.json(await report(req));
  });

  r.get('/reports/api-usage.csv', async (req, res) => {
    sendUsageCsv(res, await report(req));
  });

  return r;
}
