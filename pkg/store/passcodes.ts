// A conversation's one live passcode (DECISIONS.md "Verification"), kept by its hash.
import type { Knex } from 'knex';

export interface PasscodeRow {
  conversation_id: string;
  code_hash: string;
  expires_at: Date;
  tries: number;
}

/** The conversation's passcode while it is live (not expired); none otherwise. */
export async function livePasscode(db: Knex, conversationId: string, now: Date): Promise<PasscodeRow | undefined> {
  return db('conversation_passcodes').where({ conversation_id: conversationId }).andWhere('expires_at', '>', now).first();
}

/** A new passcode for the conversation, replacing any earlier one. */
export async function replacePasscode(db: Knex, conversationId: string, codeHash: string, expiresAt: Date, now: Date): Promise<void> {
  await db('conversation_passcodes')
    .insert({ conversation_id: conversationId, code_hash: codeHash, expires_at: expiresAt, tries: 0, created_at: now })
    .onConflict('conversation_id')
    .merge();
}

/** Counts a wrong try; returns the tries made so far. */
export async function countWrongTry(db: Knex, conversationId: string): Promise<number> {
  const [row] = await db('conversation_passcodes').where({ conversation_id: conversationId }).increment('tries', 1).returning('tries');
  return row?.tries ?? 0;
}

export async function dropPasscode(db: Knex, conversationId: string): Promise<void> {
  await db('conversation_passcodes').where({ conversation_id: conversationId }).delete();
}
