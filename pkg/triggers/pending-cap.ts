// The pending-job cap: a conversation holds at most its company's maxPendingJobs (the spec's
// maxPendingAgentJobs) jobs in a PENDING status (state.ts). Checked here when a job is created on an
// existing conversation, under that conversation's row lock (createTrigger) so concurrent creates
// count exactly; a new conversation has no jobs yet and the cap is at least 1, so it needs no check.
import type { Knex } from 'knex';
import { Conflict } from '../errors.js';
import { countPending } from '../store/triggers/count-pending.js';
import type { Tenant } from '../store/tenants.js';
import { PENDING } from './state.js';

/** Refuse (409) another job on `conversationId` when it already holds `tenant`'s cap of pending jobs. */
export async function checkPendingCap(db: Knex, tenant: Tenant, conversationId: string): Promise<void> {
  if ((await countPending(db, conversationId, PENDING)) >= tenant.maxPendingJobs) {
    throw new Conflict(`Conversation is at its pending-job cap (${tenant.maxPendingJobs})`);
  }
}
