// Inbound calls: the account's phone numbers and how each routes its calls, its queues and the queue
// a call waits in, its mailboxes, and the script of a simulated caller ringing in (kept with the call so any
// controller replica can take the line).
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

    create table queues (
      id text primary key,
      tenant_id text not null references tenants(id) on delete cascade,
      name text not null,
      members jsonb not null default '[]',
      max_wait_sec integer not null default 300,
      hold_message text,
      created_at timestamptz not null,
      updated_at timestamptz not null
    );
    create index queues_tenant on queues (tenant_id, created_at);
    -- When each member last finished a call from the queue: members are rung longest-idle first.
    create table queue_member_idle (
      queue_id text not null references queues(id) on delete cascade,
      member_id text not null,
      idle_since timestamptz not null,
      primary key (queue_id, member_id)
    );

    create table mailboxes (
      id text primary key,
      tenant_id text not null references tenants(id) on delete cascade,
      name text not null,
      greeting text not null,
      created_at timestamptz not null
    );
    create index mailboxes_tenant on mailboxes (tenant_id, created_at);
    alter table voice_messages add column mailbox_id text references mailboxes(id) on delete set null;

    alter table calls add column sim_caller jsonb, add column queue jsonb;
  `);
}

export async function down(db: Knex): Promise<void> {
  await db.raw(`
    alter table calls drop column sim_caller, drop column queue;
    alter table voice_messages drop column mailbox_id;
    drop table mailboxes, queue_member_idle, queues, phone_numbers;
  `);
}
