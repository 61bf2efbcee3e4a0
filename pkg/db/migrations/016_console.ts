// The console: an account's people, their sessions, one-time sign-in links and the audit log of
// what they change. Tokens are stored only as SHA-256 hashes.
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.raw(`
    create table console_users (
      id text primary key,
      tenant_id text not null references tenants(id) on delete cascade,
      -- Lowercased; one person signs in to one account, so an address is unique across accounts.
      email text not null unique,
      name text not null default '',
      role text not null check (role in ('owner', 'admin', 'member', 'viewer')),
      -- scrypt, self-describing (pkg/console/passwords.ts); null until the user sets one.
      password_hash text,
      created_at timestamptz not null,
      updated_at timestamptz not null
    );
    create index console_users_tenant on console_users (tenant_id, created_at);

    create table console_sessions (
      token_hash text primary key,
      user_id text not null references console_users(id) on delete cascade,
      created_at timestamptz not null,
      last_seen_at timestamptz not null,
      expires_at timestamptz not null
    );
    create index console_sessions_user on console_sessions (user_id);

    create table console_sign_in_links (
      token_hash text primary key,
      user_id text not null references console_users(id) on delete cascade,
      created_at timestamptz not null,
      expires_at timestamptz not null,
      used_at timestamptz
    );
    create index console_sign_in_links_user on console_sign_in_links (user_id);

    create table console_audit (
      id bigserial primary key,
      tenant_id text not null references tenants(id) on delete cascade,
      -- Who: kept as written when the user is later removed (null: the operator's CLI).
      user_id text,
      user_email text,
      action text not null,
      target text,
      details jsonb not null default '{}',
      created_at timestamptz not null
    );
    create index console_audit_tenant on console_audit (tenant_id, id desc);
  `);
}

export async function down(db: Knex): Promise<void> {
  await db.raw(`drop table console_audit, console_sign_in_links, console_sessions, console_users`);
}
