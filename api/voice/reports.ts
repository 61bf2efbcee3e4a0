// Usage reports: requests, requests over the limit and calls placed of the caller's own tenant.
import { Router, type Request } from 'express';
import type { Ctx } from '../../pkg/context.js';
import { usageCsv, usageReport } from '../../pkg/metering/report.js';
import { principalOf } from '../http/authentication.js';
import { parseVoice } from './parse.js';
import { usageQuery } from './tenant-schemas.js';

export function reportsRouter(ctx: Ctx): Router {
  const r = Router();
  const report = (req: Request) => {
    const q = parseVoice(usageQuery, req.query, 'query');
    return usageReport(ctx, principalOf(req).tenant.id, { from: q.from, to: q.to, groupBy: q.group_by });
  };

  r.get('/reports/api-usage', async (req, res) => {
    res.json(await report(req));
  });

  r.get('/reports/api-usage.csv', async (req, res) => {
    const body = usageCsv(await report(req));
    res.type('text/csv; charset=utf-8').setHeader('Content-Disposition', 'attachment; filename="api-usage.csv"');
    res.send(body);
  });

  return r;
}
