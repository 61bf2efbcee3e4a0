// An agent may require a verified contact (DECISIONS.md "Verification"): its setting, the
// conversation's verification, and the one live passcode of a conversation, kept apart from the
// conversation's row so that no read of a conversation carries it. Only the code's hash is kept.
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.raw(`
    alter table agents add column verification jsonb;
    alter table conversations add column verified_at timestamptz;
    -- A job an agent made at the word of a contact not verified then: held back like that contact's turns.
    alter table triggers add column asked_unverified boolean not null default false;
    create table conversation_passcodes (
      conversation_id uuid primary key references conversations(id) on delete cascade,
      code_hash text not null,
      expires_at timestamptz not null,
      tries integer not null default 0,
      created_at timestamptz not null,
      -- Codes sent in the hour from window_started_at: a conversation gets only so many.
      sent_in_window integer not null default 1,
      window_started_at timestamptz not null
    );
  `);
}

export async function down(db: Knex): Promise<void> {
  await db.raw(`
    drop table conversation_passcodes;
    alter table triggers drop column asked_unverified;
    alter table conversations drop column verified_at;
    alter table agents drop column verification;
  `);
}
