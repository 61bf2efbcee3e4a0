// The agent's transfer a carrier's <Dial> is ringing: whichever of the carrier's two reports of its end
// comes first (the <Dial>'s action, the call's status callback) tells how it went, once.
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.raw(`alter table calls add column carrier_transfer jsonb`);
}

export async function down(db: Knex): Promise<void> {
  await db.raw(`alter table calls drop column carrier_transfer`);
}
