// What an invoice reads (a company's ledger entries and ended calls in a month), by index. Built
// concurrently, outside a transaction: every turn writes the ledger, and it keeps taking writes.
import type { Knex } from 'knex';
import { createIndexesConcurrently, dropIndexesConcurrently } from '../concurrent-indexes.js';

export const config = { transaction: false };

const INDEXES: Record<string, string> = {
  credit_ledger_tenant_time: `credit_ledger (tenant_id, created_at)`,
  calls_tenant_ended: `calls (tenant_id, ended_at) where ended_at is not null`,
};

export async function up(db: Knex): Promise<void> {
  await createIndexesConcurrently(db, INDEXES);
}

export async function down(db: Knex): Promise<void> {
  await dropIndexesConcurrently(db, INDEXES);
}
