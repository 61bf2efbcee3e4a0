// The transcript. Assistant tool calls and tool results are kept so history replays exactly.
import type { Knex } from 'knex';
import type { Ctx } from '../context.js';
import { uuid } from '../ids.js';
import { carried, carry, type Alongside } from './alongside.js';

export type Role = 'user' | 'assistant' | 'admin' | 'system' | 'tool';

export interface StoredMessage {
  id: string;
  role: Role;
  content: string;
  metadata: Record<string, any> | null;
  createdAt: string;
}

/** `alongside`: other writes made by the same statement; `connection`: one to use instead of the pool's. */
export async function appendMessage(
  ctx: Pick<Ctx, 'db' | 'clock'>,
  conversationId: string,
  role: Role,
  content: string,
  metadata: Record<string, unknown> | null = null,
  alongside: Alongside[] = [],
  connection?: unknown,
): Promise<StoredMessage> {
  const query = carry(messageInsert(ctx, conversationId, role, content, metadata), alongside).returning('*');
  const [row] = await (connection ? query.connection(connection) : query);
  carried(alongside);
  return toStoredMessage(row);
}

/** appendMessage's write, to go alongside another statement. */
export function messageAlongside(
  ctx: Pick<Ctx, 'db' | 'clock'>,
  conversationId: string,
  role: Role,
  content: string,
  metadata: Record<string, unknown> | null,
): Alongside {
  return { parts: [['closing_message', messageInsert(ctx, conversationId, role, content, metadata)]], after: () => {} };
}

function messageInsert(
  ctx: Pick<Ctx, 'db' | 'clock'>,
  conversationId: string,
  role: Role,
  content: string,
  metadata: Record<string, unknown> | null,
): Knex.QueryBuilder {
  return ctx.db('messages').insert({
    id: uuid(),
    conversation_id: conversationId,
    role,
    content,
    metadata: metadata === null ? null : JSON.stringify(metadata),
    created_at: ctx.clock.now(),
  });
}

export const toStoredMessage = (r: Record<string, any>): StoredMessage => ({
  id: r.id,
  role: r.role,
  content: r.content,
  metadata: r.metadata,
  createdAt: r.created_at.toISOString(),
});

export async function listMessages(ctx: Pick<Ctx, 'db'>, conversationId: string): Promise<StoredMessage[]> {
  const rows = await ctx.db('messages').where({ conversation_id: conversationId }).orderBy('seq');
  return rows.map(toStoredMessage);
}
