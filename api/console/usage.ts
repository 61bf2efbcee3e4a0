// The account's usage and limits for the console's Overview and Usage pages: the Voice API's usage
// reports (same query, same rows, same CSV), the credits its turns spent, its jobs and its limits.
import { Router } from 'express';
import type { Ctx } from '../../pkg/context.js';
import type { RateLimits } from '../../pkg/limits/rate-limit.js';
import { listKeys } from '../../pkg/store/keys.js';
import { keyRequestsThisMinute } from '../http/limits.js';
import { usageReport } from '../../pkg/metering/report.js';
import { balance, creditsUsedByDay } from '../../pkg/store/credits.js';
import { allowedCountriesOf, getTenant } from '../../pkg/store/tenants.js';
import { triggersByStatus } from '../../pkg/store/triggers/count-by-status.js';
import { PENDING } from '../../pkg/triggers/state.js';
import { reportFor, sendUsageCsv } from '../voice/reports.js';
import { principalOf, requireSession } from './session.js';

export function usageRouter(ctx: Ctx, limits: RateLimits): Router {
  const r = Router();

  r.get('/usage', requireSession(ctx), async (req, res) => {
    res.json(await reportFor(ctx, principalOf(req).tenantId, req.query));
  });

  r.get('/usage.csv', requireSession(ctx), async (req, res) => {
    sendUsageCsv(res, await reportFor(ctx, principalOf(req).tenantId, req.query));
  });

  r.get('/overview', requireSession(ctx), async (req, res) => {
    const { tenantId } = principalOf(req);
    const tenant = await getTenant(ctx, tenantId);
    const [usage, credits, jobs, keys, calls] = await Promise.all([
      usageReport(ctx, tenantId, { groupBy: ['day'] }),
      balance(ctx, tenantId),
      triggersByStatus(ctx.db, tenantId, PENDING),
      listKeys(ctx, tenantId),
      ctx.callLimits.inUse(tenant),
    ]);
    const live = keys.filter((k) => !k.revoked);
    const perKey = await Promise.all(live.map((k) => keyRequestsThisMinute(limits, k.id, tenant.requestsPerMinute)));
    const spent = new Map((await creditsUsedByDay(ctx, tenantId, usage.from, usage.to)).map((d) => [d.day, d.credits_used]));
    const usageDays = new Map(usage.data.map((d) => [d.day, d]));
    // Every day of the period, days without use as zeros, so charts show the gaps.
    const days = [];
    for (let t = Date.parse(`${usage.from}T00:00:00Z`); t <= Date.parse(`${usage.to}T00:00:00Z`); t += 86_400_000) {
      const day = new Date(t).toISOString().slice(0, 10);
      const u = usageDays.get(day);
      days.push({ day, requests: Number(u?.requests ?? 0), calls_placed: Number(u?.calls_placed ?? 0), credits_used: spent.get(day) ?? 0 });
    }
    res.json({
      from: usage.from,
      to: usage.to,
      days,
      jobs_by_status: jobs.byStatus,
      limits: {
        requests_per_minute: { limit: tenant.requestsPerMinute, busiest_key_this_minute: Math.max(0, ...perKey) },
        max_concurrent_calls: { limit: tenant.maxConcurrentCalls, live: calls.slots },
        calls_per_minute: { limit: tenant.callsPerMinute, this_minute: calls.placementsThisMinute },
        max_pending_jobs: { limit: tenant.maxPendingJobs, most_pending_in_one_conversation: jobs.mostPendingInOneConversation },
        max_concurrent_jobs: { limit: tenant.maxConcurrentJobs, running: jobs.byStatus.running },
        calls_per_number: { per_day: tenant.maxCallsPerNumberPerDay, per_week: tenant.maxCallsPerNumberPerWeek },
        allowed_countries: allowedCountriesOf(tenant),
        credits: { balance: credits, min_credits: tenant.minCredits, billing: tenant.billing },
      },
    });
  });

  return r;
}
