// The transcript. Assistant tool calls and tool results are kept so history replays exactly.
import type { Ctx } from '../context.js';
import { uuid } from '../ids.js';

export type Role = 'user' | 'assistant' | 'admin' | 'system' | 'tool';

export interface StoredMessage {
  id: string;
  role: Role;
  content: string;
  metadata: Record<string, any> | null;
  createdAt: string;
}

export async function appendMessage(
  ctx: Pick<Ctx, 'db' | 'clock'>,
  conversationId: string,
  role: Role,
  content: string,
  metadata: Record<string, unknown> | null = null,
): Promise<StoredMessage> {
  const [row] = await ctx.db('messages')
    .insert({
      id: uuid(),
      conversation_id: conversationId,
      role,
      content,
      metadata: metadata === null ? null : JSON.stringify(metadata),
      created_at: ctx.clock.now(),
    })
    .returning('*');
  return toStoredMessage(row);
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
