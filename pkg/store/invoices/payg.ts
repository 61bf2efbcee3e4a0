// Pay-as-you-go spells (kept on the tenant row by migration 030's trigger): one company's, and every
// company's that has one, with the last month it was invoiced for.
import type { Knex } from 'knex';
import type { DbRow } from '../../db/index.js';

/** A company's last spell: from `since` until `until` (null while it lasts); `since` is null when it never was pay-as-you-go. */
export interface PaygSpell {
  since: Date | null;
  until: Date | null;
}

export async function paygSpell(db: Knex, tenantId: string): Promise<PaygSpell> {
  const { payg_since: since, payg_until: until } = await db('tenants').where({ id: tenantId }).first('payg_since', 'payg_until');
  return { since, until };
}

export interface PaygCompany extends PaygSpell {
  tenantId: string;
  timezone: string;
  since: Date;
  /** 'YYYY-MM' of its latest invoice; null when it has none. */
  lastInvoicedMonth: string | null;
}

export async function paygCompanies(db: Knex): Promise<PaygCompany[]> {
  const { rows } = await db.raw(
    `select t.id, t.timezone, t.payg_since, t.payg_until,
            (select max(i.month) from invoices i where i.tenant_id = t.id and i.kind = 'invoice') as last_month
       from tenants t
      where t.payg_since is not null`,
  );
  return rows.map((r: DbRow) => ({
    tenantId: r.id,
    timezone: r.timezone,
    since: r.payg_since,
    until: r.payg_until,
    lastInvoicedMonth: r.last_month,
  }));
}
