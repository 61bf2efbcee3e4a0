// Routes of the account's messages: list, read, change status (the recording is served with calls).
import { Router } from 'express';
import type { Ctx } from '../../pkg/context.js';
import { changeMessageStatus, listMessagesPage } from '../../pkg/messages/manage.js';
import { messageView } from '../../pkg/messages/view.js';
import { getMessage } from '../../pkg/store/voice-messages.js';
import { principalOf } from '../http/authentication.js';
import { parseVoice } from './parse.js';
import { listMessagesQuery, parsePatchMessage } from './message-schemas.js';

export function messagesRouter(ctx: Ctx): Router {
  const r = Router();

  r.get('/messages', async (req, res) => {
    const { tenant } = principalOf(req);
    res.json(await listMessagesPage(ctx, tenant.id, parseVoice(listMessagesQuery, req.query, 'query')));
  });

  r.get('/messages/:id', async (req, res) => {
    const { tenant } = principalOf(req);
    res.json(messageView(await getMessage(ctx, tenant.id, String(req.params.id))));
  });

  r.patch('/messages/:id', async (req, res) => {
    const { tenant } = principalOf(req);
    const { status } = parsePatchMessage(req.body);
    res.json(await changeMessageStatus(ctx, tenant.id, String(req.params.id), status));
  });

  return r;
}
