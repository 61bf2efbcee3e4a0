// Only a running job that holds a place under its account's max_concurrent_jobs is indexed in
// triggers_tenant_slot: a job of an uncapped account holds none (null), which a unique index never
// compares, yet each of its claims wrote an entry. The claim and the look at when to claim again
// count running jobs from triggers_tenant_live. Built concurrently, outside a transaction.
import type { Knex } from 'knex';

export const config = { transaction: false };

const COLUMNS = 'triggers (tenant_id, tenant_slot)';
const HELD = `status = 'running' and tenant_slot is not null`;
const RUNNING = `status = 'running'`;

/** triggers_tenant_slot rebuilt over the rows `where` selects; the old one serves until the new one is built. */
async function rebuild(db: Knex, where: string): Promise<void> {
  await db.raw('drop index concurrently if exists triggers_tenant_slot_next');
  await db.raw(`create unique index concurrently triggers_tenant_slot_next on ${COLUMNS} where ${where}`);
  await db.raw('drop index concurrently if exists triggers_tenant_slot');
  await db.raw('alter index triggers_tenant_slot_next rename to triggers_tenant_slot');
}

export async function up(db: Knex): Promise<void> {
  await rebuild(db, HELD);
}

export async function down(db: Knex): Promise<void> {
  await rebuild(db, RUNNING);
}
