// Routes of the account's mailboxes: create, list, read.
import { Router } from 'express';
import type { Ctx } from '../../pkg/context.js';
import { createMailbox, getMailbox, listMailboxes, type Mailbox } from '../../pkg/store/mailboxes.js';
import { principalOf } from '../http/authentication.js';
import { parseCreateMailbox } from './mailbox-schemas.js';

export const mailboxView = (m: Mailbox) => ({ id: m.id, name: m.name, greeting: m.greeting, created_at: m.createdAt });

export function mailboxesRouter(ctx: Ctx): Router {
  const r = Router();

  r.post('/mailboxes', async (req, res) => {
    const { tenant } = principalOf(req);
    res.status(201).json(mailboxView(await createMailbox(ctx, tenant.id, parseCreateMailbox(req.body))));
  });

  r.get('/mailboxes', async (req, res) => {
    const { tenant } = principalOf(req);
    res.json({ data: (await listMailboxes(ctx, tenant.id)).map(mailboxView) });
  });

  r.get('/mailboxes/:id', async (req, res) => {
    const { tenant } = principalOf(req);
    res.json(mailboxView(await getMailbox(ctx, tenant.id, String(req.params.id))));
  });

  return r;
}
