// The account's conversations for the console: its call (non-`api`) conversations listed, any one read in
// full (a job's from its job page), and a manual message added to an API one as the signed-in user.
import { Router } from 'express';
import { z } from 'zod';
import type { Ctx } from '../../pkg/context.js';
import { audit, inTransaction } from '../../pkg/console/audit.js';
import { addManualMessage, readConversation } from '../../pkg/conversations/manage.js';
import { Conflict } from '../../pkg/errors.js';
import { accountConversation, listConversations } from '../../pkg/store/conversations.js';
import { getTenant } from '../../pkg/store/tenants.js';
import { parseInput } from '../../pkg/validate.js';
import { principalOf, requireSession } from './session.js';

const listQuery = z
  .object({
    limit: z.coerce.number().int().min(1).max(100).default(50),
    offset: z.coerce.number().int().min(0).default(0),
  })
  .strict();

// The Agent API's manual message without `username`: the console names the signed-in user.
const manualBody = z.object({ message: z.string().min(1).max(32000) }).strict();

export function conversationsRouter(ctx: Ctx): Router {
  const r = Router();

  r.get('/conversations', requireSession(ctx), async (req, res) => {
    const page = parseInput(listQuery, req.query, 'query');
    const { conversations, total, hasMore } = await listConversations(ctx, principalOf(req).tenantId, page);
    const list = conversations.map(({ id, agentId, contactId, channel, status, callId, createdAt, updatedAt }) => ({
      id,
      agentId,
      contactId,
      channel,
      status,
      callId,
      createdAt,
      updatedAt,
    }));
    res.json({ conversations: list, total, has_more: hasMore });
  });

  r.get('/conversations/:id', requireSession(ctx), async (req, res) => {
    const c = await accountConversation(ctx, principalOf(req).tenantId, req.params.id as string);
    res.json({ conversation: { ...(await readConversation(ctx, c, true)), channel: c.channel } });
  });

  r.post('/conversations/:id/manual', requireSession(ctx, 'member'), async (req, res) => {
    const who = principalOf(req);
    const id = req.params.id as string;
    const { message } = parseInput(manualBody, req.body, 'body');
    // Another account's conversation is unknown here (404), as every console read answers.
    const c = await accountConversation(ctx, who.tenantId, id);
    if (c.channel !== 'api') throw new Conflict('A call conversation takes no manual message: steer the live call from its page');
    const tenant = await getTenant(ctx, who.tenantId);
    const added = await inTransaction(ctx, async (tx) => {
      const m = await addManualMessage(tx, tenant, id, { message, username: who.user.name || who.user.email });
      await audit(tx, who, 'conversation.message_added', id, { messageId: m.messageId });
      return m;
    });
    res.status(201).json(added);
  });
  return r;
}
