// Calls placed a minute (API and MCP together) become the account's own limit, which an operator
// raises; 30, the spec's figure, stays the default.
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.raw('alter table tenants add column calls_per_minute integer not null default 30 check (calls_per_minute >= 1)');
}

export async function down(db: Knex): Promise<void> {
  await db.raw('alter table tenants drop column calls_per_minute');
}
