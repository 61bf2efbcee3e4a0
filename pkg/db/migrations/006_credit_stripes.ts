// A company's credit balance in stripes instead of one column of its row. Every charge (a job's
// end, a chat reply) added to that one row, whose lock each charging transaction then held until its
// commit: a company's charges went one at a time through every replica, each waiting on the last
// one's commit. A charge now adds to the stripe of its Postgres connection (credits.ts), so
// concurrent charges rarely meet; the balance is the sum of a company's stripes, at most STRIPES rows.
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.raw(`
    create table credit_balances (
      tenant_id text not null references tenants(id) on delete cascade,
      stripe smallint not null,
      balance numeric(20, 6) not null,
      primary key (tenant_id, stripe)
    )`);
  await db.raw('insert into credit_balances (tenant_id, stripe, balance) select id, 0, credit_balance from tenants where credit_balance <> 0');
  await db.raw('alter table tenants drop column credit_balance');
}

export async function down(db: Knex): Promise<void> {
  await db.raw('alter table tenants add column credit_balance numeric(20, 6) not null default 0');
  await db.raw('update tenants t set credit_balance = b.total from (select tenant_id, sum(balance) as total from credit_balances group by tenant_id) b where b.tenant_id = t.id');
  await db.raw('drop table credit_balances');
}
