// Routes of the autonomous-job half of the Agent API.
import { Router } from 'express';
import type { z } from 'zod';
import type { Ctx } from '../../pkg/context.js';
import { conversationTrigger, createTrigger, type Created, type CreateTriggerInput } from '../../pkg/triggers/create.js';
import { cancelTrigger, replyToTrigger } from '../../pkg/triggers/actions.js';
import { waitForStatusChange } from '../../pkg/triggers/wait.js';
import { getConversation } from '../../pkg/store/conversations.js';
import { getTrigger } from '../../pkg/store/triggers/get.js';
import { listTriggers } from '../../pkg/store/triggers/list.js';
import { listItemView, rawJobView, triggerView } from '../../pkg/store/triggers/views.js';
import { principalOf } from '../http/authentication.js';
import { parse } from '../http/validate.js';
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
const apiTrigger = (body: z.infer<typeof createTriggerBody>): CreateTriggerInput => ({
  ...body,
  inputMessage: body.task,
  triggerType: 'api',
});

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
    const { rows, total, hasMore } = await listTriggers(ctx, c.id, limit, offset);
    res.json({ conversationId: c.id, triggers: rows.map(listItemView), total, hasMore });
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
