// An account's own carrier account may be Telnyx's: its TeXML application (connection) places the
// calls, and its public key checks the signatures of Telnyx's requests. Telnyx reports answering
// machines apart from the call's TeXML, while the agent may already be on the line: the row keeps it.
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.raw(`alter table calls add column answered_by_machine boolean not null default false`);
  await db.raw(`
    alter table carrier_accounts
      drop constraint carrier_accounts_carrier_check,
      add constraint carrier_accounts_carrier_check check (carrier in ('twilio', 'telnyx')),
      add column connection_id text,
      add column public_key text,
      add constraint carrier_accounts_telnyx_check check (carrier <> 'telnyx' or (connection_id is not null and public_key is not null))
  `);
}

export async function down(db: Knex): Promise<void> {
  await db.raw(`alter table calls drop column answered_by_machine`);
  await db.raw(`delete from carrier_accounts where carrier = 'telnyx'`);
  await db.raw(`
    alter table carrier_accounts
      drop constraint carrier_accounts_telnyx_check,
      drop column connection_id,
      drop column public_key,
      drop constraint carrier_accounts_carrier_check,
      add constraint carrier_accounts_carrier_check check (carrier in ('twilio'))
  `);
}
