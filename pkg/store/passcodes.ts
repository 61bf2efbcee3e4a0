// A conversation's passcode (DECISIONS.md "Verification"), kept by its hash, and how many codes it
// was sent in the last hour. A spent code stays as a row that is no longer live, so the count holds.
import type { Knex } from 'knex';

export interface PasscodeRow {
  conversation_id: string;
  code_hash: string;
  expires_at: Date;
  tries: number;
  sent_in_window: number;
  window_started_at: Date;
}

const HOUR_MS = 3_600_000;

/** The conversation's passcode row, live or not. */
export async function passcodeOf(db: Knex, conversationId: string): Promise<PasscodeRow | undefined> {
  return db('conversation_passcodes').where({ conversation_id: conversationId }).first();
}

export const isLive = (row: PasscodeRow | undefined, now: Date): row is PasscodeRow => row !== undefined && row.expires_at > now;

/** Codes sent to the conversation in the hour now counted. */
export const sentThisHour = (row: PasscodeRow | undefined, now: Date): number =>
  row && now.getTime() - row.window_started_at.getTime() < HOUR_MS ? row.sent_in_window : 0;

/** A new passcode for the conversation, replacing any earlier one and counting it in the hour. */
export async function replacePasscode(db: Knex, conversationId: string, codeHash: string, expiresAt: Date, now: Date): Promise<void> {
  const hourAgo = new Date(now.getTime() - HOUR_MS);
  await db.raw(
    `insert into conversation_passcodes (conversation_id, code_hash, expires_at, tries, created_at, sent_in_window, window_started_at)
     values (?, ?, ?, 0, ?, 1, ?)
     on conflict (conversation_id) do update set
       code_hash = excluded.code_hash, expires_at = excluded.expires_at, tries = 0, created_at = excluded.created_at,
       sent_in_window = case when conversation_passcodes.window_started_at > ? then conversation_passcodes.sent_in_window + 1 else 1 end,
       window_started_at = case when conversation_passcodes.window_started_at > ? then conversation_passcodes.window_started_at else excluded.window_started_at end`,
    [conversationId, codeHash, expiresAt, now, now, hourAgo, hourAgo],
  );
}

/** Counts `guesses` wrong tries; returns the tries made so far. */
export async function countWrongTries(db: Knex, conversationId: string, guesses: number): Promise<number> {
  const [row] = await db('conversation_passcodes')
    .where({ conversation_id: conversationId })
    .increment('tries', guesses)
    .returning('tries');
  return row?.tries ?? 0;
}

/** The code can no longer verify; the row stays, counting the codes sent. */
export async function spendPasscode(db: Knex, conversationId: string, now: Date): Promise<void> {
  await db('conversation_passcodes').where({ conversation_id: conversationId }).update({ expires_at: now });
}

export async function dropPasscode(db: Knex, conversationId: string): Promise<void> {
  await db('conversation_passcodes').where({ conversation_id: conversationId }).delete();
}
