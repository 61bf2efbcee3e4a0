// Fairness between accounts in the webhook deliveries' claim: when each delivery was last claimed
// (the claim serves the least recently served account first) and an index to visit each account's
// due deliveries in due order.
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.raw(`
    alter table webhook_outbox add column claimed_at timestamptz;
    create index webhook_outbox_tenant_due on webhook_outbox (tenant_id, due_at, seq) where due_at is not null;
    create index webhook_outbox_tenant_claimed on webhook_outbox (tenant_id, claimed_at) where claimed_at is not null;
  `);
}

export async function down(db: Knex): Promise<void> {
  await db.raw(`
    drop index webhook_outbox_tenant_claimed;
    drop index webhook_outbox_tenant_due;
    alter table webhook_outbox drop column claimed_at;
  `);
}
