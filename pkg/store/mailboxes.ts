// The account's mailboxes: where callers leave voicemails, each with the greeting they hear first.
import type { Ctx } from '../context.js';
import { NotFound } from '../errors.js';
import { prefixedId } from '../ids.js';
import type { DbRow } from '../db/index.js';

export interface Mailbox {
  id: string;
  name: string;
  greeting: string;
  createdAt: string;
}

const toMailbox = (r: DbRow): Mailbox => ({ id: r.id, name: r.name, greeting: r.greeting, createdAt: r.created_at.toISOString() });

export async function createMailbox(
  ctx: Pick<Ctx, 'db' | 'clock'>,
  tenantId: string,
  input: { name: string; greeting: string },
): Promise<Mailbox> {
  const [row] = await ctx
    .db('mailboxes')
    .insert({ id: prefixedId('mbx'), tenant_id: tenantId, ...input, created_at: ctx.clock.now() })
    .returning('*');
  return toMailbox(row);
}

export async function listMailboxes(ctx: Pick<Ctx, 'db'>, tenantId: string): Promise<Mailbox[]> {
  return (await ctx.db('mailboxes').where({ tenant_id: tenantId }).orderBy(['created_at', 'id'])).map(toMailbox);
}

/** The tenant's mailbox, or NotFound (another tenant's answers the same). */
export async function getMailbox(ctx: Pick<Ctx, 'db'>, tenantId: string, id: string): Promise<Mailbox> {
  const row = await ctx.db('mailboxes').where({ tenant_id: tenantId, id }).first();
  if (!row) throw new NotFound(`No mailbox ${id} on this account`);
  return toMailbox(row);
}
