// Campaigns (voice spec, DECISIONS.md "Campaigns"): connections to the customer's system, campaigns,
// their runs and the people of each run; campaign calls on `calls`; campaign results and summaries
// in the webhook outbox, tied to their run; the account's contact limits and allowed countries.
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.raw(`
    alter table tenants
      add column allowed_countries text[],
      add column max_calls_per_number_per_day integer not null default 2 check (max_calls_per_number_per_day >= 1),
      add column max_calls_per_number_per_week integer not null default 5 check (max_calls_per_number_per_week >= 1);

    create table connections (
      id text primary key,
      tenant_id text not null references tenants(id) on delete cascade,
      name text not null,
      base_url text not null,
      list_path text not null,
      results_path text not null,
      sign_in_name text,
      -- Sealed with SWITCHBOARD_ENCRYPTION_KEY; never returned.
      sign_in_value text,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      deleted_at timestamptz
    );
    create index connections_tenant on connections (tenant_id, created_at) where deleted_at is null;

    create table campaigns (
      id text primary key,
      tenant_id text not null references tenants(id) on delete cascade,
      name text not null,
      agent_id uuid not null references agents(id),
      connection_id text not null references connections(id),
      task text,
      greeting text,
      questions jsonb not null default '[]',
      outcomes jsonb,
      from_number text,
      schedule jsonb,
      timezone text not null,
      calling_hours jsonb not null,
      max_attempts integer not null,
      retry_after_minutes integer not null,
      concurrency integer not null,
      leave_voicemail boolean not null,
      next_start_at timestamptz,
      archived_at timestamptz,
      created_at timestamptz not null,
      updated_at timestamptz not null
    );
    create index campaigns_tenant on campaigns (tenant_id, created_at) where archived_at is null;
    create index campaigns_next_start on campaigns (next_start_at) where next_start_at is not null;

    create table campaign_runs (
      id text primary key,
      seq bigserial not null,
      tenant_id text not null references tenants(id) on delete cascade,
      campaign_id text not null references campaigns(id) on delete cascade,
      test boolean not null default false,
      test_number text,
      status text not null,
      error text,
      started_at timestamptz not null,
      ended_at timestamptz,
      list_requested_at timestamptz,
      listed_at timestamptz,
      stopped_at timestamptz,
      summary_sent_at timestamptz,
      due_at timestamptz,
      lease_owner text,
      lease_until timestamptz
    );
    -- One active non-test run per campaign.
    create unique index campaign_runs_active on campaign_runs (campaign_id) where status = 'running' and not test;
    create index campaign_runs_campaign on campaign_runs (campaign_id, seq desc);
    create index campaign_runs_due on campaign_runs (due_at) where due_at is not null;

    create table campaign_contacts (
      run_id text not null references campaign_runs(id) on delete cascade,
      contact_id text not null,
      position integer not null,
      name text,
      phone text,
      timezone text not null,
      context jsonb not null default '{}',
      window_start timestamptz,
      window_end timestamptz,
      status text not null,
      skipped_reason text,
      attempts integer not null default 0,
      call_id text,
      next_attempt_at timestamptz,
      result jsonb,
      finished_at timestamptz,
      primary key (run_id, contact_id)
    );
    create index campaign_contacts_due on campaign_contacts (run_id, next_attempt_at) where status = 'pending';

    alter table calls add column campaign jsonb, add column greeting text;
    -- One call per attempt of a person: a controller that crashes mid-dial never places it twice.
    create unique index calls_campaign_attempt on calls ((campaign->>'run_id'), (campaign->>'contact_id'), (campaign->>'attempt'))
      where campaign is not null;

    alter table webhook_outbox add column run_id text,
      drop constraint webhook_outbox_target_check,
      add constraint webhook_outbox_target_check check (target in ('events', 'callback', 'message', 'campaign'));
    create index webhook_outbox_run on webhook_outbox (run_id) where run_id is not null;
  `);
}

export async function down(db: Knex): Promise<void> {
  await db.raw(`
    delete from webhook_outbox where target = 'campaign';
    alter table webhook_outbox drop column run_id,
      drop constraint webhook_outbox_target_check,
      add constraint webhook_outbox_target_check check (target in ('events', 'callback', 'message'));
    alter table calls drop column campaign, drop column greeting;
    drop table campaign_contacts, campaign_runs, campaigns, connections;
    alter table tenants drop column allowed_countries, drop column max_calls_per_number_per_day, drop column max_calls_per_number_per_week;
  `);
}
