// A carrier's call is one call here: a voice webhook the carrier repeats finds the call it made.
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.raw(`create unique index calls_carrier_sid on calls (carrier_sid) where carrier_sid is not null`);
}

export async function down(db: Knex): Promise<void> {
  await db.raw(`drop index calls_carrier_sid`);
}
