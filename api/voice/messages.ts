// Routes of the account's messages: list, read, change status, and a voicemail's recording.
import { Router, type Response } from 'express';
import type { Ctx } from '../../pkg/context.js';
import { changeMessageStatus, listMessagesPage, messageRecording, readMessage } from '../../pkg/messages/manage.js';
import { principalOf } from '../http/authentication.js';
import { parseVoice } from './parse.js';
import { listMessagesQuery, parsePatchMessage } from './message-schemas.js';

/** Answers with the WAV of the account's voicemail `messageId`; 404 for another account's or one without audio. */
export async function sendRecording(
  ctx: Pick<Ctx, 'db' | 'recordings'>,
  res: Response,
  tenantId: string,
  messageId: string,
): Promise<void> {
  res.type('audio/wav').send(await messageRecording(ctx, tenantId, messageId));
}

export function messagesRouter(ctx: Ctx): Router {
  const r = Router();

  r.get('/messages', async (req, res) => {
    const { tenant } = principalOf(req);
    res.json(await listMessagesPage(ctx, tenant.id, parseVoice(listMessagesQuery, req.query, 'query')));
  });

  r.get('/messages/:id', async (req, res) => {
    const { tenant } = principalOf(req);
    res.json(await readMessage(ctx, tenant.id, String(req.params.id)));
  });

  r.get('/messages/:id/recording', async (req, res) => {
    const { tenant } = principalOf(req);
    await sendRecording(ctx, res, tenant.id, String(req.params.id));
  });

  r.patch('/messages/:id', async (req, res) => {
    const { tenant } = principalOf(req);
    const { status } = parsePatchMessage(req.body);
    res.json(await changeMessageStatus(ctx, tenant.id, String(req.params.id), status));
  });

  return r;
}
