// The account's queues in the console: read by everyone with each member's live state, set up and
// changed by members through the Voice API's functions, and one member's availability switched alone.
import { Router } from 'express';
import { z } from 'zod';
import type { Ctx } from '../../pkg/context.js';
import { audit, inTransaction } from '../../pkg/console/audit.js';
import { deleteQueue, getQueue, listQueues, setMemberAvailable, type Queue } from '../../pkg/store/queues.js';
import { getTenant } from '../../pkg/store/tenants.js';
import { addQueue, changeQueue } from '../../pkg/voice/routing/configure.js';
import { busyMembers } from '../../pkg/voice/routing/queue-members.js';
import { parseVoice } from '../voice/parse.js';
import { parseCreateQueue, parsePatchQueue } from '../voice/queue-schemas.js';
import { queueView } from '../voice/queues.js';
import { principalOf, requireSession } from './session.js';

const availabilityBody = z.object({ available: z.boolean() }).strict();

/** The Voice API's queue, each member with the call they are on from the queue (null: not on one). */
async function queueWithLiveMembers(ctx: Ctx, queue: Queue) {
  const busy = await busyMembers(ctx, queue.id);
  const view = queueView(queue);
  return { ...view, members: view.members.map((m) => ({ ...m, busy_call_id: busy.get(m.id) ?? null })) };
}

export function queuesRouter(ctx: Ctx): Router {
  const r = Router();

  r.get('/queues', requireSession(ctx), async (req, res) => {
    const queues = await listQueues(ctx, principalOf(req).tenantId);
    res.json({ data: await Promise.all(queues.map((q) => queueWithLiveMembers(ctx, q))) });
  });

  r.post('/queues', requireSession(ctx, 'member'), async (req, res) => {
    const who = principalOf(req);
    const tenant = await getTenant(ctx, who.tenantId);
    const input = parseCreateQueue(req.body);
    const queue = await inTransaction(ctx, async (tx) => {
      const made = await addQueue(tx, tenant, input);
      await audit(tx, who, 'queue.created', made.id, { name: made.name });
      return made;
    });
    res.status(201).json(queueView(queue));
  });

  r.patch('/queues/:id', requireSession(ctx, 'member'), async (req, res) => {
    const who = principalOf(req);
    const tenant = await getTenant(ctx, who.tenantId);
    // Another account's queue answers 404 whatever the body says.
    const { id } = await getQueue(ctx, tenant.id, req.params.id as string);
    const patch = parsePatchQueue(req.body);
    const queue = await inTransaction(ctx, async (tx) => {
      const changed = await changeQueue(tx, tenant, id, patch);
      await audit(tx, who, 'queue.updated', id, { fields: Object.keys(patch).sort() });
      return changed;
    });
    res.json(queueView(queue));
  });

  r.delete('/queues/:id', requireSession(ctx, 'member'), async (req, res) => {
    const who = principalOf(req);
    const queue = await inTransaction(ctx, async (tx) => {
      const deleted = await deleteQueue(tx, who.tenantId, req.params.id as string);
      await audit(tx, who, 'queue.deleted', deleted.id, { name: deleted.name });
      return deleted;
    });
    res.json(queueView(queue));
  });

  r.patch('/queues/:id/members/:memberId', requireSession(ctx, 'member'), async (req, res) => {
    const who = principalOf(req);
    const { id } = await getQueue(ctx, who.tenantId, req.params.id as string);
    const { available } = parseVoice(availabilityBody, req.body, 'member');
    const memberId = req.params.memberId as string;
    const queue = await inTransaction(ctx, async (tx) => {
      const changed = await setMemberAvailable(tx, who.tenantId, id, memberId, available);
      await audit(tx, who, 'queue.member_availability_changed', id, { member_id: memberId, available });
      return changed;
    });
    res.json(queueView(queue));
  });

  return r;
}
