// The voice an agent speaks with (a catalogue id, pkg/voice/voices.ts), and the language a call's
// conversation has switched to: a new relay session of the call starts in it.
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.raw(`alter table agents add column voice text`);
  await db.raw(`alter table calls add column language text`);
}

export async function down(db: Knex): Promise<void> {
  await db.raw(`alter table calls drop column language`);
  await db.raw(`alter table agents drop column voice`);
}
