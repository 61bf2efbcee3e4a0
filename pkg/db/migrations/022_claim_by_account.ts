// The jobs' claim reads each account's due jobs, of either claimable status, in due order from one
// index: one probe an account instead of one a status, and no index in due order alone for the
// planner to prefer, which walks every other account's backlog to find this account's first job.
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.raw(`create index triggers_tenant_claimable on triggers (tenant_id, due_at) where status in ('queued', 'waiting')`);
}

export async function down(db: Knex): Promise<void> {
  await db.raw(`drop index triggers_tenant_claimable`);
}
