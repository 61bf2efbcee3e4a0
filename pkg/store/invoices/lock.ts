// A company's billing lock: one finalization or credit note of the company at a time.
import type { Knex } from 'knex';

/** Holds the company's billing lock to the end of `db`'s transaction. */
export async function lockCompanyBilling(db: Knex, tenantId: string): Promise<void> {
  await db.raw(`select pg_advisory_xact_lock(hashtext('invoices:' || ?::text))`, [tenantId]);
}
