// Only the first pending delivery of an ordering key has a due time; the rest wait behind it with
// none, and each becomes due as the one before it settles. The claim is then an index range scan
// in due order, however long the backlog behind a key.
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.raw(`
    update webhook_outbox o set due_at = null
    where o.status = 'pending' and exists (
      select 1 from webhook_outbox e where e.ordering_key = o.ordering_key and e.status = 'pending' and e.seq < o.seq);
    drop index webhook_outbox_due;
    create index webhook_outbox_due on webhook_outbox (due_at, seq) where due_at is not null;
  `);
}

export async function down(db: Knex): Promise<void> {
  await db.raw(`
    update webhook_outbox set due_at = created_at where status = 'pending' and due_at is null;
    drop index webhook_outbox_due;
    create index webhook_outbox_due on webhook_outbox (due_at) where due_at is not null;
  `);
}
