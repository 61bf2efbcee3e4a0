// Indexes no statement needs, each written by every job (or every charge) for nothing. Dropped
// concurrently, outside a transaction: the tables keep taking writes meanwhile.
import type { Knex } from 'knex';
import { createIndexesConcurrently, dropIndexesConcurrently } from '../concurrent-indexes.js';

export const config = { transaction: false };

const INDEXES: Record<string, string> = {
  // The sweep and the look at when to claim again read the live rows through triggers_tenant_live
  // (its status and due time), as cheaply: this one only added two entries to each job.
  triggers_due: `triggers (due_at) where due_at is not null`,
  // The claim function of 005 read it; the claim since reads each account's due jobs from triggers_tenant_claimable.
  triggers_claimable: `triggers (due_at) where status in ('queued', 'waiting')`,
  // A prefix of credit_ledger_tenant_time (034), which serves every read by company as well.
  credit_ledger_tenant: `credit_ledger (tenant_id)`,
};

export async function up(db: Knex): Promise<void> {
  await dropIndexesConcurrently(db, INDEXES);
}

export async function down(db: Knex): Promise<void> {
  await createIndexesConcurrently(db, INDEXES);
}
