// A contact's id is an integer (the spec's contactId) that says nothing of how many contacts the
// platform holds: new ones are drawn at random in 1 … 2^53 − 1 (a JavaScript number holds it
// exactly) rather than from one sequence across all accounts. Ids already given stay.
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.raw(`
    -- Drawn again while taken: with existing ids in the same range, a draw may meet one.
    create function random_contact_id() returns bigint language plpgsql volatile as $$
    declare
      candidate bigint;
    begin
      loop
        candidate := floor(random() * 9007199254740991)::bigint + 1;
        exit when not exists (select 1 from contacts where id = candidate);
      end loop;
      return candidate;
    end $$;
    alter table contacts alter column id set default random_contact_id();
  `);
}

export async function down(db: Knex): Promise<void> {
  await db.raw(`
    alter table contacts alter column id set default nextval('contacts_id_seq');
    drop function random_contact_id();
  `);
}
