// Routes of the account's call queues: create, list, read, change, delete.
import { Router } from 'express';
import type { Ctx } from '../../pkg/context.js';
import { deleteQueue, getQueue, listQueues, type Queue } from '../../pkg/store/queues.js';
import { addQueue, changeQueue } from '../../pkg/voice/routing/configure.js';
import { principalOf } from '../http/authentication.js';
import { parseCreateQueue, parsePatchQueue } from './queue-schemas.js';

export const queueView = (q: Queue) => ({
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
    res.status(201).json(queueView(await addQueue(ctx, tenant, parseCreateQueue(req.body))));
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
    res.json(queueView(await changeQueue(ctx, tenant, String(req.params.id), parsePatchQueue(req.body))));
  });

  r.delete('/queues/:id', async (req, res) => {
    const { tenant } = principalOf(req);
    res.json(queueView(await deleteQueue(ctx, tenant.id, String(req.params.id))));
  });

  return r;
}
