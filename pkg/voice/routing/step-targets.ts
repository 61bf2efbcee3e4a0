// What a queue or voicemail step names, or null when it was deleted since the routing was written
// (nobody can take the call there: the call ends queue_unavailable or mailbox_unavailable).
import type { Ctx } from '../../context.js';
import { NotFound } from '../../errors.js';
import { getMailbox, type Mailbox } from '../../store/mailboxes.js';
import { getQueue, type Queue } from '../../store/queues.js';

const unlessDeleted = <T>(lookup: Promise<T>): Promise<T | null> =>
  lookup.catch((err) => {
    if (err instanceof NotFound) return null;
    throw err;
  });

export const queueOfStep = (ctx: Ctx, tenantId: string, queueId: string): Promise<Queue | null> =>
  unlessDeleted(getQueue(ctx, tenantId, queueId));

export const mailboxOfStep = (ctx: Ctx, tenantId: string, mailboxId: string): Promise<Mailbox | null> =>
  unlessDeleted(getMailbox(ctx, tenantId, mailboxId));
