// Inbound calls: the account's phone numbers and how each routes its calls, and the script of a
// simulated caller ringing in (the simulated network's part of an inbound call, kept with the call
// so any controller replica can take the line).
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.raw(`
    create table phone_numbers (
      number text primary key,
      tenant_id text not null references tenants(id) on delete cascade,
      name text not null default '',
      routing jsonb,
      is_default boolean not null default false,
      created_at timestamptz not null,
      updated_at timestamptz not null
    );
    create index phone_numbers_tenant on phone_numbers (tenant_id, created_at);
    create unique index phone_numbers_one_default on phone_numbers (tenant_id) where is_default;

    alter table calls add column sim_caller jsonb;
  `);
}

export async function down(db: Knex): Promise<void> {
  await db.raw(`
    alter table calls drop column sim_caller;
    drop table phone_numbers;
  `);
}
