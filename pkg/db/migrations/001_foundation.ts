// Companies, keys, agents, contacts, conversations, messages, credits, memories.
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.raw(`
    create table tenants (
      id text primary key,
      name text not null,
      timezone text not null default 'UTC',
      features text[] not null default '{}',
      max_pending_jobs integer not null default 3 check (max_pending_jobs >= 1),
      min_credits numeric(20, 6) not null default 1,
      billing text not null default 'payg' check (billing in ('prepaid', 'payg')),
      requests_per_minute integer not null default 300 check (requests_per_minute >= 1),
      -- The credit ledger's sum, maintained with each entry (see pkg/store/credits.ts).
      credit_balance numeric(20, 6) not null default 0,
      created_at timestamptz not null,
      updated_at timestamptz not null
    );

    create table api_keys (
      id text primary key,
      tenant_id text not null references tenants(id) on delete cascade,
      name text not null,
      prefix text not null,
      key_hash text not null unique,
      created_at timestamptz not null,
      last_used_at timestamptz,
      revoked_at timestamptz
    );
    create index api_keys_tenant on api_keys (tenant_id);

    create table agents (
      id uuid primary key,
      tenant_id text references tenants(id) on delete cascade,
      is_public boolean not null default false,
      name text not null,
      system_prompt text not null default '',
      model text,
      tools jsonb not null default '[]',
      handoff_enabled boolean not null default false,
      handoff_roster jsonb not null default '[]',
      created_at timestamptz not null,
      updated_at timestamptz not null,
      check (tenant_id is not null or is_public)
    );
    create index agents_tenant on agents (tenant_id, created_at);

    create table contacts (
      id bigserial primary key,
      tenant_id text not null references tenants(id) on delete cascade,
      name text,
      phone text,
      email text,
      external_user_id text,
      memory text,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      unique (tenant_id, external_user_id)
    );
    create index contacts_tenant_phone on contacts (tenant_id, phone);
    create index contacts_tenant_email on contacts (tenant_id, email);

    create table conversations (
      id uuid primary key,
      tenant_id text not null references tenants(id) on delete cascade,
      agent_id uuid references agents(id),
      contact_id bigint references contacts(id),
      channel text not null default 'api',
      status text not null default 'active' check (status in ('active', 'ended')),
      metadata jsonb not null default '{}',
      custom_system_message text,
      custom_tools jsonb not null default '[]',
      memory_scope text check (memory_scope in ('company')),
      created_at timestamptz not null,
      updated_at timestamptz not null,
      ended_at timestamptz
    );
    create index conversations_tenant on conversations (tenant_id, created_at);

    create table messages (
      id uuid primary key,
      seq bigserial not null,
      conversation_id uuid not null references conversations(id) on delete cascade,
      role text not null check (role in ('user', 'assistant', 'admin', 'system', 'tool')),
      content text not null,
      metadata jsonb,
      created_at timestamptz not null
    );
    create index messages_conversation on messages (conversation_id, seq);

    create table credit_ledger (
      id bigserial primary key,
      tenant_id text not null references tenants(id) on delete cascade,
      amount numeric(20, 6) not null,
      reference_type text not null,
      reference_id text,
      created_at timestamptz not null
    );
    create index credit_ledger_tenant on credit_ledger (tenant_id);

    create table company_memories (
      id uuid primary key,
      tenant_id text not null references tenants(id) on delete cascade,
      conversation_id uuid references conversations(id) on delete set null,
      content text not null,
      search tsvector generated always as (to_tsvector('english', content)) stored,
      created_at timestamptz not null
    );
    create index company_memories_search on company_memories using gin (search);
    create index company_memories_tenant on company_memories (tenant_id);
  `);
}

export async function down(db: Knex): Promise<void> {
  await db.raw(`drop table company_memories, credit_ledger, messages, conversations, contacts,
    agents, api_keys, tenants cascade`);
}
