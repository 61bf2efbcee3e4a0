// The account's jobs for the console: listed by status, read, cancelled and answered through the
// Agent API's own functions (cancelTrigger, replyToTrigger); members change them, viewers read.
import { Router } from 'express';
import { z } from 'zod';
import type { Ctx } from '../../pkg/context.js';
import { audit, inTransaction } from '../../pkg/console/audit.js';
import { getTenant } from '../../pkg/store/tenants.js';
import { getTrigger } from '../../pkg/store/triggers/get.js';
import { listTenantTriggers } from '../../pkg/store/triggers/list.js';
import { rawJobView, triggerView } from '../../pkg/store/triggers/views.js';
import { cancelTrigger, replyToTrigger } from '../../pkg/triggers/actions.js';
import { STATUSES } from '../../pkg/store/triggers/row.js';
import { parseInput } from '../../pkg/validate.js';
import { cancelBody } from '../agents/trigger-schemas.js';
import { principalOf, requireSession } from './session.js';

const listQuery = z
  .object({
    status: z.enum(STATUSES).optional(),
    limit: z.coerce.number().int().min(1).max(100).default(50),
    offset: z.coerce.number().int().min(0).default(0),
  })
  .strict();

// The Agent API's approve/reject, and a free-text answer (`provided`, as a chat reply gives) which needs its text.
const consoleReplyBody = z.discriminatedUnion('decision', [
  z.object({ decision: z.enum(['approved', 'rejected']), reason: z.string().min(1).max(4000).optional() }).strict(),
  z.object({ decision: z.literal('provided'), reason: z.string().trim().min(1).max(4000) }).strict(),
]);

export function jobsRouter(ctx: Ctx): Router {
  const r = Router();

  r.get('/jobs', requireSession(ctx), async (req, res) => {
    const page = parseInput(listQuery, req.query, 'query');
    const { rows, total, hasMore } = await listTenantTriggers(ctx, principalOf(req).tenantId, page);
    res.json({ jobs: rows.map(triggerView), total, has_more: hasMore });
  });

  r.get('/jobs/:id', requireSession(ctx), async (req, res) => {
    res.json({ job: rawJobView(await getTrigger(ctx, principalOf(req).tenantId, req.params.id as string)) });
  });

  r.post('/jobs/:id/cancel', requireSession(ctx, 'member'), async (req, res) => {
    const who = principalOf(req);
    const { reason } = parseInput(cancelBody, req.body, 'body');
    const tenant = await getTenant(ctx, who.tenantId);
    const row = await inTransaction(ctx, async (tx) => {
      const cancelled = await cancelTrigger(tx, tenant, req.params.id as string, reason);
      await audit(tx, who, 'job.cancelled', cancelled.id, reason ? { reason } : {});
      return cancelled;
    });
    res.json({ job: rawJobView(row) });
  });

  r.post('/jobs/:id/reply', requireSession(ctx, 'member'), async (req, res) => {
    const who = principalOf(req);
    const { decision, reason } = parseInput(consoleReplyBody, req.body, 'body');
    const tenant = await getTenant(ctx, who.tenantId);
    const row = await inTransaction(ctx, async (tx) => {
      const answered = await replyToTrigger(tx, tenant, req.params.id as string, decision, reason);
      await audit(tx, who, 'job.replied', answered.id, { decision });
      return answered;
    });
    res.json({ job: rawJobView(row) });
  });
  return r;
}
