// The account's users, for its owners (admins read them) and the audit log, for its owners.
import { Router } from 'express';
import { z } from 'zod';
import type { Ctx } from '../../pkg/context.js';
import { listAudit } from '../../pkg/console/audit.js';
import { addUser, changeRole, listUsers, removeUser } from '../../pkg/console/users.js';
import { parseInput } from '../../pkg/validate.js';
import { principalOf, requireSession } from './session.js';
import { userView } from './views.js';

const auditQuery = z
  .object({
    cursor: z.string().optional(),
    limit: z.coerce.number().int().min(1).max(100).default(50),
  })
  .strict();

export function usersRouter(ctx: Ctx): Router {
  const r = Router();

  r.get('/users', requireSession(ctx, 'admin'), async (req, res) => {
    res.json({ users: (await listUsers(ctx, principalOf(req).tenantId)).map(userView) });
  });

  r.post('/users', requireSession(ctx, 'owner'), async (req, res) => {
    const { user, signInUrl } = await addUser(ctx, principalOf(req), req.body);
    res.status(201).json({ user: userView(user), sign_in_url: signInUrl });
  });

  r.patch('/users/:id', requireSession(ctx, 'owner'), async (req, res) => {
    res.json({ user: userView(await changeRole(ctx, principalOf(req), req.params.id as string, req.body)) });
  });

  r.delete('/users/:id', requireSession(ctx, 'owner'), async (req, res) => {
    await removeUser(ctx, principalOf(req), req.params.id as string);
    res.status(204).end();
  });

  r.get('/audit', requireSession(ctx, 'owner'), async (req, res) => {
    const page = parseInput(auditQuery, req.query, 'query');
    const { entries, nextCursor } = await listAudit(ctx, principalOf(req).tenantId, page);
    // An entry's fields are one word each: the wire spells them as the domain does.
    res.json({ entries, next_cursor: nextCursor });
  });
  return r;
}
