// Pay-as-you-go invoices (DECISIONS.md "Billing mode", "Invoices"): a company is prepaid unless
// the operator makes it payg, and invoiced from the month it became so; ledger entries name the
// kind of turn and the agent that spent them; invoices and credit notes, numbered without gaps by
// a counter row taken in the finalizing transaction, are never changed once written.
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.raw(`
    alter table tenants alter column billing set default 'prepaid';
    -- The company's last pay-as-you-go spell: from payg_since until payg_until (null while it lasts).
    alter table tenants add column payg_since timestamptz, add column payg_until timestamptz;
    -- Companies payg before invoices existed are invoiced from the month of the upgrade, not for every month since they began.
    update tenants set payg_since = now() where billing = 'payg';
    -- Kept by the database, whoever changes the mode (at its clock's time, updated_at): a spell
    -- that ends stays, so the usage until then is still invoiced when its month ends.
    create function switchboard_payg_since() returns trigger language plpgsql as $$
    begin
      if new.billing = 'payg' and (tg_op = 'INSERT' or old.billing <> 'payg') then
        new.payg_since := new.updated_at;
        new.payg_until := null;
      elsif new.billing <> 'payg' and tg_op = 'UPDATE' and old.billing = 'payg' then
        new.payg_until := new.updated_at;
      end if;
      return new;
    end $$;
    create trigger tenants_payg_since before insert or update of billing on tenants
      for each row execute function switchboard_payg_since();

    -- What spent the credits (null on top-ups and on entries written before this migration).
    alter table credit_ledger
      add column turn_kind text check (turn_kind in ('chat', 'job', 'voice')),
      add column agent_id uuid;

    -- The last number given in each series ('INV', 'CN') and year: updated in the transaction that uses it.
    create table invoice_numbers (
      series text not null,
      year integer not null,
      last integer not null check (last >= 0),
      primary key (series, year)
    );

    create table invoices (
      number text primary key,
      kind text not null check (kind in ('invoice', 'credit_note')),
      tenant_id text not null references tenants(id),
      -- The calendar month in the company's timezone, 'YYYY-MM', and its bounds as instants.
      month text not null check (month ~ '^\\d{4}-\\d{2}$'),
      timezone text not null,
      period_start timestamptz not null,
      period_end timestamptz not null,
      currency text not null,
      total bigint not null check (total >= 0),
      -- A credit note: the invoice it corrects, and why.
      credits_number text references invoices(number),
      reason text,
      issued_at timestamptz not null,
      check ((kind = 'credit_note') = (credits_number is not null))
    );
    create unique index invoices_one_per_month on invoices (tenant_id, month) where kind = 'invoice';
    create index invoices_tenant on invoices (tenant_id, issued_at desc);

    create table invoice_lines (
      number text not null references invoices(number),
      position integer not null,
      description text not null,
      -- 'credits' (reference_type, agent) or 'call_minutes' (direction).
      item text not null check (item in ('credits', 'call_minutes', 'correction')),
      reference_type text,
      agent_id uuid,
      direction text,
      quantity numeric(20, 6) not null,
      unit_price bigint not null,
      amount bigint not null,
      primary key (number, position)
    );

    create function switchboard_refuse_invoice_change() returns trigger language plpgsql as $$
    begin
      raise exception 'finalized invoices are immutable (% on %): a correction is a credit note', tg_op, tg_table_name
        using errcode = 'SBI01';
    end $$;
    create trigger invoices_immutable before update or delete on invoices
      for each row execute function switchboard_refuse_invoice_change();
    create trigger invoice_lines_immutable before update or delete on invoice_lines
      for each row execute function switchboard_refuse_invoice_change();
    create trigger invoices_no_truncate before truncate on invoices
      for each statement execute function switchboard_refuse_invoice_change();
    create trigger invoice_lines_no_truncate before truncate on invoice_lines
      for each statement execute function switchboard_refuse_invoice_change();
  `);
}

export async function down(db: Knex): Promise<void> {
  await db.raw(`
    drop table invoice_lines, invoices, invoice_numbers;
    drop function switchboard_refuse_invoice_change();
    alter table credit_ledger drop column turn_kind, drop column agent_id;
    drop trigger tenants_payg_since on tenants;
    drop function switchboard_payg_since();
    alter table tenants drop column payg_since, drop column payg_until;
    alter table tenants alter column billing set default 'payg';
  `);
}
