// Fairness between accounts in the webhook deliveries' claim: when each account was last served (the
// claim serves the least recently served first), and due rows indexed by account so the claim visits
// each account's in due order. That index also answers the earliest due time, so the one by due time
// alone goes (one index fewer to write on every claim and outcome).
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.raw(`
    create table webhook_served (
      tenant_id text primary key references tenants(id) on delete cascade,
      served_at timestamptz not null
    );
    create index webhook_outbox_tenant_due on webhook_outbox (tenant_id, due_at, seq) where due_at is not null;
    drop index webhook_outbox_due;
  `);
}

export async function down(db: Knex): Promise<void> {
  await db.raw(`
    create index webhook_outbox_due on webhook_outbox (due_at, seq) where due_at is not null;
    drop index webhook_outbox_tenant_due;
    drop table webhook_served;
  `);
}
