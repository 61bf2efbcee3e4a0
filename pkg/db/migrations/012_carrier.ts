// Real carriers: the carrier's id of a call placed through it, and the relay session conducting it
// (a call's relay parameter is good for one session only).
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.raw(`alter table calls add column carrier_sid text, add column relay_session text`);
}

export async function down(db: Knex): Promise<void> {
  await db.raw(`alter table calls drop column carrier_sid, drop column relay_session`);
}
