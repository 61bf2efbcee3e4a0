// Autonomous jobs (triggers). Postgres holds the invariants: one idempotency key per company, one
// running job per conversation; `due_at` is when a controller must next look at a live row.
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.raw(`
    create table triggers (
      id uuid primary key,
      -- Creation order without ties, for lists and "latest job".
      seq bigserial not null,
      tenant_id text not null references tenants(id) on delete cascade,
      conversation_id uuid not null references conversations(id) on delete cascade,
      agent_id uuid not null references agents(id),
      status text not null check (status in
        ('queued', 'running', 'waiting', 'waiting_for_reply', 'succeeded', 'failed', 'expired', 'cancelled')),
      trigger_type text not null check (trigger_type in ('api', 'event', 'agent')),
      task text not null,
      input_message text not null,
      success_criteria text,
      business_keys jsonb not null default '{}',
      metadata jsonb not null default '{}',
      event_type text,
      idempotency_key text,
      approval_id text,
      approval_url text,
      wait_payload jsonb,
      human_reply jsonb,
      result_summary text,
      error_message text,
      attempt_count integer not null default 0,
      max_attempts integer not null,
      next_run_at timestamptz,
      waiting_reason text,
      waiting_since timestamptz,
      expires_at timestamptz not null,
      last_run_at timestamptz,
      started_at timestamptz,
      completed_at timestamptz,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      due_at timestamptz,
      lease_owner text,
      lease_until timestamptz
    );
    create unique index triggers_idempotency on triggers (tenant_id, idempotency_key) where idempotency_key is not null;
    create unique index triggers_one_running on triggers (conversation_id) where status = 'running';
    create index triggers_due on triggers (due_at) where due_at is not null;
    create index triggers_conversation on triggers (conversation_id, seq desc);
  `);
}

export async function down(db: Knex): Promise<void> {
  await db.raw('drop table triggers');
}
