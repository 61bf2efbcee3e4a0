// A company's credit balance in stripes instead of one column of its row. Every charge (a job's
// end, a chat reply) added to that one row, whose lock each charging transaction then held until its
// commit: a company's charges went one at a time through every replica, each waiting on the last
// one's commit. A charge now adds to the stripe of its Postgres connection (credits.ts), so
// concurrent charges rarely meet; the balance is the sum of a company's stripes, at most STRIPES rows.
//
// tenants.credit_balance stays for one release: during an upgrade, replicas of the release before
// still charge and read it until they are replaced. A trigger carries their charges into the
// stripes, so none is lost; what they read is the balance as of this migration plus their own
// charges. The release after drops the column and the trigger.
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.raw(`
    create table credit_balances (
      tenant_id text not null references tenants(id) on delete cascade,
      stripe smallint not null,
      balance numeric(20, 6) not null,
      primary key (tenant_id, stripe)
    )`);
  await db.raw(
    'insert into credit_balances (tenant_id, stripe, balance) select id, 0, credit_balance from tenants where credit_balance <> 0',
  );
  await forwardCreditBalance(db);
}

/** The trigger that carries a charge to tenants.credit_balance into the stripes (024 dropped it; its down brings it back). */
export async function forwardCreditBalance(db: Knex): Promise<void> {
  await db.raw(`
    create function switchboard_forward_credit_balance() returns trigger language plpgsql as $$
    begin
      insert into credit_balances (tenant_id, stripe, balance) values (new.id, 0, new.credit_balance - old.credit_balance)
      on conflict (tenant_id, stripe) do update set balance = credit_balances.balance + excluded.balance;
      return null;
    end $$`);
  await db.raw(`
    create trigger tenants_forward_credit_balance after update of credit_balance on tenants
    for each row when (new.credit_balance is distinct from old.credit_balance) execute function switchboard_forward_credit_balance()`);
}

export async function down(db: Knex): Promise<void> {
  await stopForwardingCreditBalance(db);
  await balanceIntoColumn(db);
  await db.raw('drop table credit_balances');
}

/** Each company's balance, the sum of its stripes, written to tenants.credit_balance. */
export async function balanceIntoColumn(db: Knex): Promise<void> {
  await db.raw(
    'update tenants t set credit_balance = coalesce((select sum(b.balance) from credit_balances b where b.tenant_id = t.id), 0)',
  );
}

export async function stopForwardingCreditBalance(db: Knex): Promise<void> {
  await db.raw('drop trigger tenants_forward_credit_balance on tenants');
  await db.raw('drop function switchboard_forward_credit_balance()');
}
