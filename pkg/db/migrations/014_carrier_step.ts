// A call the carrier plays step by step (menus, voicemail, queues): the routing step it is on, kept
// between the carrier's requests, since a webhook's chosen step is in no number's routing.
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.raw(`alter table calls add column carrier_step jsonb`);
}

export async function down(db: Knex): Promise<void> {
  await db.raw(`alter table calls drop column carrier_step`);
}
