// What each agent brings to its calls (DECISIONS.md "Agent outcome values", "Per-agent message
// webhook"): the outcomes it may end a call with, and its own receiver for the messages it takes.
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.raw(`
    alter table agents
      add column outcomes jsonb not null default '["completed", "not_interested", "callback_requested", "wrong_number", "do_not_call"]',
      add column message_webhook_url text;
  `);
}

export async function down(db: Knex): Promise<void> {
  await db.raw('alter table agents drop column outcomes, drop column message_webhook_url');
}
