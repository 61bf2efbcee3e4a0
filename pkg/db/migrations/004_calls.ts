// Calls: the Agent API conversation that holds what the AI said and heard on each call.
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.raw(`alter table calls add column conversation_id uuid references conversations(id) on delete set null`);
}

export async function down(db: Knex): Promise<void> {
  await db.raw(`alter table calls drop column conversation_id`);
}
