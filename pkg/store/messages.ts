// The transcript. Assistant tool calls and tool results are kept so history replays exactly.
import type { Knex } from 'knex';
import type { Ctx } from '../context.js';
import { uuid } from '../ids.js';
import { carried, carry, type Alongside } from './alongside.js';
import { onPool, type Runner } from '../db/statements.js';

export type Role = 'user' | 'assistant' | 'admin' | 'system' | 'tool';

export interface StoredMessage {
  id: string;
  role: Role;
  content: string;
  metadata: Record<string, any> | null;
  createdAt: string;
}

/** A message before it is stored, its id chosen already (a write in the same statement may name it). */
export type UnstoredMessage = Omit<StoredMessage, 'createdAt'>;

export const unstoredMessage = (role: Role, content: string, metadata: Record<string, unknown> | null = null): UnstoredMessage => ({
  id: uuid(),
  role,
  content,
  metadata,
});

/** `alongside`: other writes made by the same statement; `run`: where it runs. */
export async function appendMessage(
  ctx: Pick<Ctx, 'db' | 'clock'>,
  conversationId: string,
  role: Role,
  content: string,
  metadata: Record<string, unknown> | null = null,
  alongside: Alongside[] = [],
  run: Runner = onPool,
): Promise<StoredMessage> {
  const [stored] = await appendMessages(ctx, conversationId, [unstoredMessage(role, content, metadata)], alongside, run);
  return stored!;
}

/** Messages stored by one statement, in their order. */
export async function appendMessages(
  ctx: Pick<Ctx, 'db' | 'clock'>,
  conversationId: string,
  messages: UnstoredMessage[],
  alongside: Alongside[] = [],
  run: Runner = onPool,
): Promise<StoredMessage[]> {
  const rows = (await run(carry(messageInsert(ctx, conversationId, messages), alongside).returning('*'))) as { seq: number }[];
  carried(alongside);
  return rows.sort((a, b) => a.seq - b.seq).map(toStoredMessage);
}

/** appendMessage's write, to go alongside another statement. */
export function messageAlongside(
  ctx: Pick<Ctx, 'db' | 'clock'>,
  conversationId: string,
  role: Role,
  content: string,
  metadata: Record<string, unknown> | null,
): Alongside {
  return messagesAlongside(ctx, conversationId, [unstoredMessage(role, content, metadata)]);
}

/** appendMessages' write, to go alongside another statement. */
export function messagesAlongside(ctx: Pick<Ctx, 'db' | 'clock'>, conversationId: string, messages: UnstoredMessage[]): Alongside {
  return { parts: [['closing_message', messageInsert(ctx, conversationId, messages)]], after: () => {} };
}

// One row per message, in order: their seq (the transcript's order) follows it.
function messageInsert(ctx: Pick<Ctx, 'db' | 'clock'>, conversationId: string, messages: UnstoredMessage[]): Knex.QueryBuilder {
  const now = ctx.clock.now();
  return ctx.db('messages').insert(
    messages.map((m) => ({
      id: m.id,
      conversation_id: conversationId,
      role: m.role,
      content: m.content,
      metadata: m.metadata === null ? null : JSON.stringify(m.metadata),
      created_at: now,
    })),
  );
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
