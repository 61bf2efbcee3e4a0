// The Voice API: account settings, calls, do-not-call numbers, messages, the webhook outbox and
// usage counters. Outbox rows are written in the same transaction as the change they announce.
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.raw(`
    alter table tenants
      add column events_url text,
      add column message_webhook_url text,
      add column webhook_secret text,
      add column max_concurrent_calls integer not null default 10 check (max_concurrent_calls >= 1),
      add column default_agent_id uuid references agents(id) on delete set null,
      add column country text not null default 'US';

    create table calls (
      id text primary key,
      seq bigserial not null,
      tenant_id text not null references tenants(id) on delete cascade,
      direction text not null check (direction in ('outbound', 'inbound')),
      from_number text not null,
      to_number text not null,
      status text not null,
      agent_id uuid references agents(id),
      channel text not null default 'api',
      key_id text,
      task text,
      context jsonb not null default '{}',
      questions jsonb not null default '[]',
      outcomes jsonb,
      voice text,
      max_duration_sec integer not null default 600,
      callback_url text,
      metadata jsonb not null default '{}',
      idempotency_key text,
      request_hash text,
      handler text,
      hangup_cause text,
      duration_sec integer not null default 0,
      transcript jsonb not null default '[]',
      steering jsonb not null default '[]',
      result jsonb,
      summary text,
      final boolean not null default false,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      ringing_at timestamptz,
      answered_at timestamptz,
      ended_at timestamptz,
      due_at timestamptz,
      lease_owner text,
      lease_until timestamptz
    );
    create unique index calls_idempotency on calls (tenant_id, idempotency_key) where idempotency_key is not null;
    create index calls_tenant on calls (tenant_id, seq desc);
    create index calls_due on calls (due_at) where due_at is not null;

    create table do_not_call (
      tenant_id text not null references tenants(id) on delete cascade,
      number text not null,
      reason text,
      created_at timestamptz not null,
      primary key (tenant_id, number)
    );

    create table voice_messages (
      id text primary key,
      tenant_id text not null references tenants(id) on delete cascade,
      call_id text references calls(id) on delete set null,
      kind text not null check (kind in ('ai_message', 'voicemail')),
      caller text not null,
      summary text not null default '',
      details jsonb not null default '{}',
      agent_id uuid,
      status text not null default 'new' check (status in ('new', 'read', 'archived')),
      duration_sec integer,
      created_at timestamptz not null
    );
    create index voice_messages_tenant on voice_messages (tenant_id, created_at desc);

    create table webhook_outbox (
      id text primary key,
      seq bigserial not null,
      tenant_id text not null references tenants(id) on delete cascade,
      type text not null,
      target text not null check (target in ('events', 'callback', 'message')),
      url text not null,
      -- Deliveries with the same ordering key go out one at a time, in seq order (a call's events).
      ordering_key text not null,
      payload jsonb not null,
      status text not null default 'pending' check (status in ('pending', 'delivered', 'failed')),
      attempts integer not null default 0,
      max_attempts integer not null,
      last_error text,
      created_at timestamptz not null,
      delivered_at timestamptz,
      due_at timestamptz,
      lease_owner text,
      lease_until timestamptz
    );
    create index webhook_outbox_due on webhook_outbox (due_at) where due_at is not null;
    create index webhook_outbox_ordering on webhook_outbox (ordering_key, seq) where status = 'pending';

    create table api_usage (
      tenant_id text not null references tenants(id) on delete cascade,
      key_id text not null,
      app text not null default '',
      channel text not null check (channel in ('api', 'mcp')),
      day date not null,
      requests bigint not null default 0,
      requests_over_limit bigint not null default 0,
      calls_placed bigint not null default 0,
      primary key (tenant_id, key_id, app, channel, day)
    );
  `);
}

export async function down(db: Knex): Promise<void> {
  await db.raw(`
    drop table api_usage, webhook_outbox, voice_messages, do_not_call, calls;
    alter table tenants drop column events_url, drop column message_webhook_url, drop column webhook_secret,
      drop column max_concurrent_calls, drop column default_agent_id, drop column country;
  `);
}
