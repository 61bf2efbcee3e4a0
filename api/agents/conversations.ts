// Routes of the conversation half of the Agent API. Each parses, calls one domain function, answers.
import { Router } from 'express';
import type { Ctx } from '../../pkg/context.js';
import { domainErrorOf } from '../../pkg/db/unavailable.js';
import { conversationSummary, openConversation } from '../../pkg/conversations/open.js';
import { sendMessage, type MessageResult } from '../../pkg/conversations/message.js';
import { replyWithinTimeout } from '../../pkg/conversations/reply-timeout.js';
import { addManualMessage, endConversation, readConversation, replaceMetadata } from '../../pkg/conversations/manage.js';
import { verifyConversation } from '../../pkg/conversations/verification.js';
import { principalOf } from '../http/authentication.js';
import { parse } from '../http/validate.js';
import { openSse, type SseStream } from '../http/sse.js';
import { createConversationBody, endBody, manualBody, metadataBody, readQuery, sendMessageBody, verifyBody } from './schemas.js';
import { getConversation } from '../../pkg/store/conversations.js';

function replyBody(result: MessageResult) {
  const { turn, conversation } = result;
  const messages = turn.messages.map((content) => ({ role: 'assistant' as const, content }));
  return {
    conversationId: conversation.id,
    contactId: conversation.contactId,
    message: { role: 'assistant' as const, content: turn.messages.join('\n\n') },
    messages,
    toolCalls: turn.toolCalls,
    usage: turn.usage,
    ...(turn.handoff ? { handoff: turn.handoff, agentId: turn.handoff.agentId } : {}),
    ...result.resumed,
  };
}

export function conversationsRouter(ctx: Ctx): Router {
  const r = Router();

  r.post('/conversations', async (req, res) => {
    const { tenant } = principalOf(req);
    const { created, conversation } = await openConversation(ctx, tenant, parse(createConversationBody, req.body));
    res.status(created ? 201 : 200).json(conversationSummary(conversation));
  });

  r.patch('/conversations/:conversationId/metadata', async (req, res) => {
    const { tenant } = principalOf(req);
    const c = await replaceMetadata(ctx, tenant, req.params.conversationId!, parse(metadataBody, req.body));
    res.json({ conversationId: c.id, metadata: c.metadata, updatedAt: c.updatedAt });
  });

  r.post('/conversations/:conversationId/manual', async (req, res) => {
    const { tenant } = principalOf(req);
    res.status(201).json(await addManualMessage(ctx, tenant, req.params.conversationId!, parse(manualBody, req.body)));
  });

  r.get('/conversations/:conversationId', async (req, res) => {
    const { tenant } = principalOf(req);
    const query = parse(readQuery, req.query, 'query');
    res.json(await readConversation(ctx, await getConversation(ctx, tenant.id, req.params.conversationId!), query.include === 'all'));
  });

  r.post('/conversations/:conversationId/verify', async (req, res) => {
    const { tenant } = principalOf(req);
    parse(verifyBody, req.body);
    const c = await verifyConversation(ctx, tenant, req.params.conversationId!);
    res.json({ conversationId: c.id, contactId: c.contactId, verified: true, verifiedAt: c.verifiedAt });
  });

  r.post('/conversations/:conversationId/end', async (req, res) => {
    const { tenant } = principalOf(req);
    parse(endBody, req.body);
    const c = await endConversation(ctx, tenant, req.params.conversationId!);
    res.json({ conversationId: c.id, status: c.status });
  });

  return r;
}

/** POST /conversations/:id/messages: the user's message and the agent's turn, answered as JSON or streamed. */
export function turnRouter(ctx: Ctx): Router {
  const r = Router();
  r.post('/conversations/:conversationId/messages', async (req, res) => {
    const { tenant } = principalOf(req);
    const id = req.params.conversationId!;
    const input = parse(sendMessageBody, req.body);
    let stream: SseStream | undefined;
    const turn = sendMessage(ctx, tenant, id, input, {
      mark: (phase) => req.timing?.mark(phase),
      onStart: () => {
        if (input.stream) stream = openSse(res);
      },
      emit: (event) => stream?.send(event),
    });
    if (input.stream) return streamTurn(ctx, id, turn, () => stream);

    const result = await replyWithinTimeout(ctx, id, turn);
    req.timing?.mark('turn');
    if (req.timing) res.setHeader('Server-Timing', req.timing.header);
    res.json(replyBody(result));
  });
  return r;
}

/** Errors before the turn starts are ordinary JSON errors; once streaming, an `error` event ends it. */
async function streamTurn(ctx: Ctx, id: string, turn: Promise<MessageResult>, opened: () => SseStream | undefined): Promise<void> {
  try {
    const result = await turn;
    const stream = opened()!;
    stream.send({
      type: 'done',
      conversationId: result.conversation.id,
      contactId: result.conversation.contactId,
      usage: result.turn.usage,
      ...result.resumed,
    });
    stream.end();
  } catch (err) {
    const stream = opened();
    if (!stream) throw err;
    const domain = domainErrorOf(err);
    if (!domain) ctx.log.error({ err, conversationId: id }, 'streamed turn failed');
    // Same words as the synchronous 500: internal details stay in the log.
    stream.send({ type: 'error', error: domain ? domain.message : 'Unexpected processing failure' });
    stream.end();
  }
}
