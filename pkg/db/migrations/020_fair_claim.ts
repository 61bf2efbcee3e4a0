// Fairness between accounts in the jobs' claim: an account's cap on running jobs, the place each
// running job takes under it, and an index to visit each account's live jobs by status.
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.raw(`
    -- Null: no cap.
    alter table tenants add column max_concurrent_jobs integer check (max_concurrent_jobs >= 1);
    -- A running job's place under its account's cap (1..max_concurrent_jobs), null when uncapped:
    -- two replicas claiming the same place for one account collide here, so the cap holds across them.
    alter table triggers add column tenant_slot integer;
    create unique index triggers_tenant_slot on triggers (tenant_id, tenant_slot) where status = 'running';
    -- The claim walks accounts with live jobs, takes each one's due jobs by status in due order and
    -- counts its running ones, all from this index (live rows only: finished ones cost it nothing).
    create index triggers_tenant_live on triggers (tenant_id, status, due_at) where due_at is not null;
    -- When an account was last served: the claim serves the least recently served first.
    create index triggers_tenant_last_run on triggers (tenant_id, last_run_at) where last_run_at is not null;
  `);
}

export async function down(db: Knex): Promise<void> {
  await db.raw(`
    drop index triggers_tenant_last_run;
    drop index triggers_tenant_live;
    drop index triggers_tenant_slot;
    alter table triggers drop column tenant_slot;
    alter table tenants drop column max_concurrent_jobs;
  `);
}
