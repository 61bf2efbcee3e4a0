// A queue member rung or bridged for one caller is busy with that call until it ends: not rung for
// another caller meanwhile. idle_since is null for a member taken but who never finished a call.
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.raw(`
    alter table queue_member_idle add column busy_call_id text, alter column idle_since drop not null;
  `);
}

export async function down(db: Knex): Promise<void> {
  await db.raw(`
    delete from queue_member_idle where idle_since is null;
    alter table queue_member_idle drop column busy_call_id, alter column idle_since set not null;
  `);
}
