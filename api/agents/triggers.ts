// Routes of the autonomous-job half of the Agent API.
import { Router, type RequestHandler } from 'express';
import type { z } from 'zod';
import type { Ctx } from '../../pkg/context.js';
import { conversationTrigger, createTrigger, createTriggerForKey, isQuick, type Created, type CreateTriggerInput } from '../../pkg/triggers/create.js';
import type { RateLimits } from '../../pkg/limits/rate-limit.js';
import { authenticate } from '../../pkg/store/keys.js';
import { cancelTrigger, replyToTrigger } from '../../pkg/triggers/actions.js';
import { waitForStatusChange } from '../../pkg/triggers/wait.js';
import { getConversation } from '../../pkg/store/conversations.js';
import { getTrigger, listItemView, listTriggers, rawJobView, triggerView } from '../../pkg/store/triggers.js';
import { admitKnown, admitRequest, bearerKey, principalOf, type KnownKeys } from '../http/auth.js';
import { parse, readBody } from '../http/validate.js';
import { unstorableTextAt } from '../../pkg/validate.js';
import {
  cancelBody,
  conversationTriggerBody,
  createTriggerBody,
  getTriggerQuery,
  listTriggersQuery,
  replyBody,
} from './trigger-schemas.js';

function accepted({ created, trigger }: Created) {
  return {
    status: created ? 202 : 200,
    body: {
      conversationId: trigger.conversation_id,
      triggerId: trigger.id,
      status: trigger.status,
      ...(trigger.next_run_at && trigger.status === 'waiting' ? { nextRunAt: trigger.next_run_at.toISOString() } : {}),
      ...(created ? {} : { idempotent: true as const }),
    },
  };
}

/** POST /triggers's body as a job to create. */
const apiTrigger = (body: z.infer<typeof createTriggerBody>): CreateTriggerInput => ({ ...body, inputMessage: body.task, triggerType: 'api' });

/**
 * POST /triggers with a key this process knows (KnownKeys) and a quick job (isQuick): the key is
 * confirmed by the statement that makes the job, one round trip in all. Mounted before the API's
 * requireApiKey; any other request goes on to it and to triggersRouter, its body already read.
 * Errors keep the API's order: 401, 429, the body's 400, then the job's own.
 */
export function quickTriggerRouter(ctx: Ctx, limits: RateLimits, known: KnownKeys, json: RequestHandler): Router {
  const r = Router();
  r.post('/triggers', async (req, res, next) => {
    const apiKey = bearerKey(req.headers.authorization);
    const identity = known.get(apiKey);
    if (!identity) return next();
    try {
      await readBody(json, req, res);
    } catch (err) {
      // A body that cannot be read is told of only to a live key within its limits.
      await admitRequest(ctx, limits, req, await authenticate(ctx, apiKey));
      throw err;
    }
    const body = createTriggerBody.safeParse(req.body);
    // A body the regular route refuses goes on to it, which says why.
    const input = body.success && !unstorableTextAt(req.body) ? apiTrigger(body.data) : null;
    if (!input || !isQuick(input)) return next();
    const created = await admitKnown(ctx, limits, known, req, apiKey, identity, () => createTriggerForKey(ctx, apiKey, identity.tenantId, input));
    const { status, body: out } = accepted(created());
    res.status(status).json(out);
  });
  return r;
}

export function triggersRouter(ctx: Ctx): Router {
  const r = Router();

  r.post('/triggers', async (req, res) => {
    const { tenant } = principalOf(req);
    const { status, body: out } = accepted(await createTrigger(ctx, tenant, apiTrigger(parse(createTriggerBody, req.body))));
    res.status(status).json(out);
  });

  r.post('/conversations/:conversationId/triggers', async (req, res) => {
    const { tenant } = principalOf(req);
    const body = parse(conversationTriggerBody, req.body);
    const result = await createTrigger(ctx, tenant, conversationTrigger(req.params.conversationId!, body));
    const { status, body: out } = accepted(result);
    res.status(status).json(out);
  });

  r.get('/triggers/:triggerId', async (req, res) => {
    const { tenant } = principalOf(req);
    const { wait } = parse(getTriggerQuery, req.query, 'query');
    res.json(triggerView(await waitForStatusChange(ctx, tenant.id, req.params.triggerId!, wait ?? 0)));
  });

  r.get('/conversations/:conversationId/triggers', async (req, res) => {
    const { tenant } = principalOf(req);
    const { limit, offset } = parse(listTriggersQuery, req.query, 'query');
    const c = await getConversation(ctx, tenant.id, req.params.conversationId!);
    const { rows, total } = await listTriggers(ctx, c.id, limit, offset);
    res.json({ conversationId: c.id, triggers: rows.map(listItemView), total, hasMore: offset + rows.length < total });
  });

  r.get('/jobs/:jobId', async (req, res) => {
    const { tenant } = principalOf(req);
    res.json(rawJobView(await getTrigger(ctx, tenant.id, req.params.jobId!)));
  });

  r.post('/triggers/:triggerId/cancel', async (req, res) => {
    const { tenant } = principalOf(req);
    const { reason } = parse(cancelBody, req.body);
    res.json(triggerView(await cancelTrigger(ctx, tenant, req.params.triggerId!, reason)));
  });

  r.post('/triggers/:triggerId/reply', async (req, res) => {
    const { tenant } = principalOf(req);
    const { decision, reason } = parse(replyBody, req.body);
    res.json(triggerView(await replyToTrigger(ctx, tenant, req.params.triggerId!, decision, reason)));
  });

  return r;
}
