// What migrations 005 and 006 kept for one release, for the replicas of the release before them
// during a rolling upgrade: the jobs' claim function (with its session settings) and
// tenants.credit_balance, whose charges a trigger carried into the stripes. Nothing calls, charges
// or reads them since; down brings them back, the column holding the balance.
import type { Knex } from 'knex';
import { createClaimFunction, dropClaimFunction } from './005_claim.js';
import { balanceIntoColumn, forwardCreditBalance, stopForwardingCreditBalance } from './006_credit_stripes.js';

export async function up(db: Knex): Promise<void> {
  await dropClaimFunction(db);
  await stopForwardingCreditBalance(db);
  await db.raw('alter table tenants drop column credit_balance');
}

export async function down(db: Knex): Promise<void> {
  await db.raw('alter table tenants add column credit_balance numeric(20, 6) not null default 0');
  await balanceIntoColumn(db);
  await forwardCreditBalance(db);
  await createClaimFunction(db);
}
