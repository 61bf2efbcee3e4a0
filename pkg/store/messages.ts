// The transcript. Assistant tool calls and tool results are kept so history replays exactly.
import type { Knex } from 'knex';
import type { Ctx } from '../context.js';
import { compiledOnce } from '../db/compiled.js';
import { compiledQuery, type Sends } from '../db/statements.js';
import { uuid } from '../ids.js';
import type { DbRow } from '../db/index.js';

type Role = 'user' | 'assistant' | 'admin' | 'system' | 'tool';

export interface StoredMessage {
  id: string;
  role: Role;
  content: string;
  metadata: DbRow | null;
  createdAt: string;
}

/** A message before it is stored, its id chosen already (a write in the same transaction may name it). */
export type UnstoredMessage = Omit<StoredMessage, 'createdAt'>;

export const unstoredMessage = (role: Role, content: string, metadata: Record<string, unknown> | null = null): UnstoredMessage => ({
  id: uuid(),
  role,
  content,
  metadata,
});

export async function appendMessage(
  ctx: Pick<Ctx, 'clock'> & Sends,
  conversationId: string,
  role: Role,
  content: string,
  metadata: Record<string, unknown> | null = null,
): Promise<StoredMessage> {
  const [stored] = await appendMessages(ctx, conversationId, [unstoredMessage(role, content, metadata)]);
  return stored!;
}

/** Messages stored by one statement, in their order (one row each: their seq, the transcript's order, follows it). */
export async function appendMessages(
  ctx: Pick<Ctx, 'clock'> & Sends,
  conversationId: string,
  messages: UnstoredMessage[],
): Promise<StoredMessage[]> {
  const rows = await storedRows(ctx, { rows: messageRows(ctx, conversationId, messages) });
  return rows.sort((a, b) => a.seq - b.seq).map(toStoredMessage);
}

const messageRows = (ctx: Pick<Ctx, 'clock'>, conversationId: string, messages: UnstoredMessage[]) => {
  const now = ctx.clock.now();
  return messages.map((m) => ({
    id: m.id,
    conversation_id: conversationId,
    role: m.role,
    content: m.content,
    metadata: m.metadata === null ? null : JSON.stringify(m.metadata),
    created_at: now,
  }));
};

const insertRows = (db: Knex, { rows }: { rows: ReturnType<typeof messageRows> }) => db('messages').insert(rows);
const storedRows = compiledQuery((db, values: { rows: ReturnType<typeof messageRows> }) => insertRows(db, values).returning('*'));
const compiledInsert = compiledOnce(insertRows);

/** appendMessages' statement, unsent, for a call's turn (store/calls/turn.ts), which sends it with the caller's words. */
export const insertMessages = (ctx: Pick<Ctx, 'db' | 'clock'>, conversationId: string, messages: UnstoredMessage[]): Knex.SqlNative =>
  compiledInsert(ctx.db, { rows: messageRows(ctx, conversationId, messages) });

export const toStoredMessage = (r: DbRow): StoredMessage => ({
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
