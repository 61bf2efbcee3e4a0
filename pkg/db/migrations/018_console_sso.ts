// Single sign-on to the console: an attempt between the redirect to the OpenID provider and its
// answer, known by the SHA-256 of the browser's `sb_sso` cookie and used up by that answer.
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.raw(`
    create table console_sso_attempts (
      token_hash text primary key,
      state text not null,
      nonce text not null,
      code_verifier text not null,
      -- The console path to open once signed in.
      return_to text not null,
      created_at timestamptz not null,
      expires_at timestamptz not null
    );
    create index console_sso_attempts_expires on console_sso_attempts (expires_at);
  `);
}

export async function down(db: Knex): Promise<void> {
  await db.raw(`drop table console_sso_attempts`);
}
