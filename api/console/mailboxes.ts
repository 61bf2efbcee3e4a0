// The account's mailboxes in the console: read by everyone with their voicemails and recordings,
// made by members, and a message moved new → read → archived, through the Voice API's functions.
import { Router } from 'express';
import type { Ctx } from '../../pkg/context.js';
import { audit, inTransaction } from '../../pkg/console/audit.js';
import { changeMessageStatus, listMessagesPage, mailboxMessage } from '../../pkg/messages/manage.js';
import { createMailbox, getMailbox, listMailboxes } from '../../pkg/store/mailboxes.js';
import { newMessagesByMailbox } from '../../pkg/store/voice-messages.js';
import { parseCreateMailbox } from '../voice/mailbox-schemas.js';
import { mailboxView } from '../voice/mailboxes.js';
import { listMessagesQuery, parsePatchMessage } from '../voice/message-schemas.js';
import { sendRecording } from '../voice/messages.js';
import { parseVoice } from '../voice/parse.js';
import { principalOf, requireSession } from './session.js';

/** GET /v1/messages's query, the mailbox taken from the path. */
const mailboxMessagesQuery = listMessagesQuery.pick({ status: true, limit: true, cursor: true });

export function mailboxesRouter(ctx: Ctx): Router {
  const r = Router();

  // The Voice API's mailboxes, each with how many of its messages nobody has read yet.
  r.get('/mailboxes', requireSession(ctx), async (req, res) => {
    const { tenantId } = principalOf(req);
    const unread = await newMessagesByMailbox(ctx, tenantId);
    res.json({ data: (await listMailboxes(ctx, tenantId)).map((m) => ({ ...mailboxView(m), new_messages: unread.get(m.id) ?? 0 })) });
  });

  r.post('/mailboxes', requireSession(ctx, 'member'), async (req, res) => {
    const who = principalOf(req);
    const input = parseCreateMailbox(req.body);
    const mailbox = await inTransaction(ctx, async (tx) => {
      const made = await createMailbox(tx, who.tenantId, input);
      await audit(tx, who, 'mailbox.created', made.id, { name: made.name });
      return made;
    });
    res.status(201).json(mailboxView(mailbox));
  });

  r.get('/mailboxes/:id', requireSession(ctx), async (req, res) => {
    res.json(mailboxView(await getMailbox(ctx, principalOf(req).tenantId, req.params.id as string)));
  });

  r.get('/mailboxes/:id/messages', requireSession(ctx), async (req, res) => {
    const { tenantId } = principalOf(req);
    const mailbox = await getMailbox(ctx, tenantId, req.params.id as string);
    const query = parseVoice(mailboxMessagesQuery, req.query, 'query');
    res.json(await listMessagesPage(ctx, tenantId, { ...query, mailbox_id: mailbox.id }));
  });

  r.patch('/mailboxes/:id/messages/:messageId', requireSession(ctx, 'member'), async (req, res) => {
    const who = principalOf(req);
    const message = await mailboxMessage(ctx, who.tenantId, req.params.id as string, req.params.messageId as string);
    const { status } = parsePatchMessage(req.body);
    const changed = await inTransaction(ctx, async (tx) => {
      const moved = await changeMessageStatus(tx, who.tenantId, message.id, status);
      await audit(tx, who, 'message.status_changed', message.id, { from: message.status, to: moved.status });
      return moved;
    });
    res.json(changed);
  });

  r.get('/mailboxes/:id/messages/:messageId/recording', requireSession(ctx), async (req, res) => {
    const { tenantId } = principalOf(req);
    const message = await mailboxMessage(ctx, tenantId, req.params.id as string, req.params.messageId as string);
    await sendRecording(ctx, res, tenantId, message.id);
  });

  return r;
}
