// The calls sweep (pkg/store/calls.ts sweepCalls) runs every second on each replica, and on every
// call's change: it reads the calls not yet final by this index, not every call the account ever made.
import type { Knex } from 'knex';

// Built concurrently, outside a transaction: calls on the line keep writing their rows while it builds.
export const config = { transaction: false };

export async function up(db: Knex): Promise<void> {
  // What a build cut short left behind (an invalid index) goes first.
  await db.raw(`drop index concurrently if exists calls_unfinished`);
  await db.raw(`create index concurrently calls_unfinished on calls (lease_until) where not final`);
}

export async function down(db: Knex): Promise<void> {
  await db.raw(`drop index concurrently if exists calls_unfinished`);
}
