// What the controllers and each turn, dial or queue entry read again and again, by an index on the
// live rows (or the recent ones), so their cost follows the work in hand and not the account's history.
import type { Knex } from 'knex';
import { createIndexesConcurrently, dropIndexesConcurrently } from '../concurrent-indexes.js';

// Built concurrently, outside a transaction: the tables keep taking writes while they build.
export const config = { transaction: false };

const INDEXES: Record<string, string> = {
  // The calls sweep's (every second on each replica, and on every call's change).
  calls_unfinished: `calls (lease_until) where not final`,
  // A conversation's pending jobs (the pending cap, the jobs waiting for a reply in every turn's reads), the mirror's and the jobs gauge's.
  triggers_pending: `triggers (conversation_id, status) where status in ('queued', 'waiting', 'waiting_for_reply', 'running')`,
  // The mirror's recently finished jobs.
  triggers_completed: `triggers (completed_at) where completed_at is not null`,
  // The callers already waiting in a queue, counted as one enters it.
  calls_queue_live: `calls ((queue->>'id')) where status in ('queued', 'ringing', 'in-progress')`,
  // The calls a campaign already made to a number this week (its contact policy).
  calls_outbound_number: `calls (tenant_id, to_number, created_at) where direction = 'outbound'`,
  // A run's people still to call or on the line, at every dial and step.
  campaign_contacts_live: `campaign_contacts (run_id, status) where status in ('pending', 'calling')`,
  // The mirror's runs not ended or ended lately.
  campaign_runs_ended: `campaign_runs (ended_at)`,
  // A run's results still being sent, at every step.
  webhook_outbox_run_pending: `webhook_outbox (run_id) where status = 'pending' and run_id is not null`,
};

export async function up(db: Knex): Promise<void> {
  await createIndexesConcurrently(db, INDEXES);
}

export async function down(db: Knex): Promise<void> {
  await dropIndexesConcurrently(db, INDEXES);
}
