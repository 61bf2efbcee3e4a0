// The console lists an account's call conversations with their calls: a conversation finds its call.
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.raw(`create index calls_conversation on calls (conversation_id) where conversation_id is not null`);
}

export async function down(db: Knex): Promise<void> {
  await db.raw(`drop index calls_conversation`);
}
