// A company's last invoice before a month: where the next one's period starts.
import type { Knex } from 'knex';

/** The month ('YYYY-MM') and period end of the company's latest invoice of a month before `month`; null when none. */
export async function previousInvoice(db: Knex, tenantId: string, month: string): Promise<{ month: string; periodEnd: Date } | null> {
  const row = await db('invoices')
    .where({ tenant_id: tenantId, kind: 'invoice' })
    .andWhere('month', '<', month)
    .orderBy('month', 'desc')
    .first('month', 'period_end');
  return row ? { month: row.month, periodEnd: row.period_end } : null;
}
