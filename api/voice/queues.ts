// Routes of the account's call queues: create, list, read, change, delete.
import { Router } from 'express';
import type { Ctx } from '../../pkg/context.js';
import { createQueue, deleteQueue, getQueue, listQueues, updateQueue, type Queue } from '../../pkg/store/queues.js';
import { membersInE164 } from '../../pkg/voice/routing/configure.js';
import { principalOf } from '../http/authentication.js';
import { parseCreateQueue, parsePatchQueue } from './queue-schemas.js';

const queueView = (q: Queue) => ({
  id: q.id,
  name: q.name,
  members: q.members,
  max_wait_sec: q.maxWaitSec,
  hold_message: q.holdMessage,
  created_at: q.createdAt,
  updated_at: q.updatedAt,
});

export function queuesRouter(ctx: Ctx): Router {
  const r = Router();

  r.post('/queues', async (req, res) => {
    const { tenant } = principalOf(req);
    const body = parseCreateQueue(req.body);
    res.status(201).json(queueView(await createQueue(ctx, tenant.id, { ...body, members: membersInE164(tenant, body.members) })));
  });

  r.get('/queues', async (req, res) => {
    const { tenant } = principalOf(req);
    res.json({ data: (await listQueues(ctx, tenant.id)).map(queueView) });
  });

  r.get('/queues/:id', async (req, res) => {
    const { tenant } = principalOf(req);
    res.json(queueView(await getQueue(ctx, tenant.id, String(req.params.id))));
  });

  r.patch('/queues/:id', async (req, res) => {
    const { tenant } = principalOf(req);
    await getQueue(ctx, tenant.id, String(req.params.id));
    const body = parsePatchQueue(req.body);
    const members = body.members && membersInE164(tenant, body.members);
    res.json(queueView(await updateQueue(ctx, tenant.id, String(req.params.id), { ...body, members })));
  });

  r.delete('/queues/:id', async (req, res) => {
    const { tenant } = principalOf(req);
    res.json(queueView(await deleteQueue(ctx, tenant.id, String(req.params.id))));
  });

  return r;
}
