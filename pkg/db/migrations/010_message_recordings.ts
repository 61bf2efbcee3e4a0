// Voicemail recordings (pkg/store/recordings.ts): kept before their message is written, so a message
// never shows without its audio; a recording whose message was never written is never served.
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.raw(`
    create table message_recordings (
      message_id text primary key,
      tenant_id text not null references tenants(id) on delete cascade,
      audio bytea not null
    );
  `);
}

export async function down(db: Knex): Promise<void> {
  await db.raw('drop table message_recordings');
}
