// An account's own carrier account: its calls are placed and verified with these credentials
// instead of the deployment's. The auth token is sealed (SecretBox) and never leaves the server.
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.raw(`
    create table carrier_accounts (
      tenant_id text primary key references tenants(id) on delete cascade,
      carrier text not null check (carrier in ('twilio')),
      account_sid text not null,
      auth_token_sealed text not null,
      created_at timestamptz not null,
      updated_at timestamptz not null
    )
  `);
}

export async function down(db: Knex): Promise<void> {
  await db.raw(`drop table carrier_accounts`);
}
