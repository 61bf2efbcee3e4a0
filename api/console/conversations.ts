// The account's API conversations for the console: listed, read in full (tool calls by name), and a
// manual message added as the signed-in user, through the Agent API's own functions.
import { Router } from 'express';
import { z } from 'zod';
import type { Ctx } from '../../pkg/context.js';
import { audit, inTransaction } from '../../pkg/console/audit.js';
import { addManualMessage, readConversation } from '../../pkg/conversations/manage.js';
import { Forbidden, NotFound } from '../../pkg/errors.js';
import { getConversation, listConversations } from '../../pkg/store/conversations.js';
import { getTenant, type Tenant } from '../../pkg/store/tenants.js';
import { parseInput } from '../../pkg/validate.js';
import { principalOf, requireSession, type ConsolePrincipal } from './session.js';

const listQuery = z
  .object({
    limit: z.coerce.number().int().min(1).max(100).default(50),
    offset: z.coerce.number().int().min(0).default(0),
  })
  .strict();

// The Agent API's manual message without `username`: the console names the signed-in user.
const manualBody = z.object({ message: z.string().min(1).max(32000) }).strict();

/** The session's account, once the conversation is known to be its own: another account's is unknown here (404), not forbidden. */
async function ownConversation(ctx: Ctx, who: ConsolePrincipal, id: string): Promise<Tenant> {
  try {
    await getConversation(ctx, who.tenantId, id);
  } catch (err) {
    if (err instanceof Forbidden) throw new NotFound(`Unknown conversation ${id}`);
    throw err;
  }
  return getTenant(ctx, who.tenantId);
}

export function conversationsRouter(ctx: Ctx): Router {
  const r = Router();

  r.get('/conversations', requireSession(ctx), async (req, res) => {
    const page = parseInput(listQuery, req.query, 'query');
    const { conversations, total, hasMore } = await listConversations(ctx, principalOf(req).tenantId, page);
    const list = conversations.map(({ id, agentId, contactId, status, createdAt, updatedAt }) => ({ id, agentId, contactId, status, createdAt, updatedAt }));
    res.json({ conversations: list, total, has_more: hasMore });
  });

  r.get('/conversations/:id', requireSession(ctx), async (req, res) => {
    const id = req.params.id as string;
    const tenant = await ownConversation(ctx, principalOf(req), id);
    res.json({ conversation: await readConversation(ctx, tenant, id, true) });
  });

  r.post('/conversations/:id/manual', requireSession(ctx, 'member'), async (req, res) => {
    const who = principalOf(req);
    const id = req.params.id as string;
    const { message } = parseInput(manualBody, req.body, 'body');
    const tenant = await ownConversation(ctx, who, id);
    const added = await inTransaction(ctx, async (tx) => {
      const m = await addManualMessage(tx, tenant, id, { message, username: who.user.name || who.user.email });
      await audit(tx, who, 'conversation.message_added', id, { messageId: m.messageId });
      return m;
    });
    res.status(201).json(added);
  });
  return r;
}
