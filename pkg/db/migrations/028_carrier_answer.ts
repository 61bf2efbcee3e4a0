// A carrier may send a request about a call again (after no answer in time, as a duplicate delivery):
// the call's last request, when it was taken and the TwiML that answered it are kept on its row, so a
// repeat gets the same answer and changes nothing again.
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.raw(`alter table calls add column carrier_answer jsonb`);
}

export async function down(db: Knex): Promise<void> {
  await db.raw(`alter table calls drop column carrier_answer`);
}
