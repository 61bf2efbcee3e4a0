// The people of a run (campaign_contacts): written once from the list, then moved attempt by
// attempt until each is finished with a result.
import type { Knex } from 'knex';
import type { Ctx } from '../../context.js';

/** What a finished person's result carries beyond their status (the spec's campaign result fields). */
export interface ContactOutcome {
  outcome?: string;
  details?: Record<string, string>;
  note?: string;
  callback?: { at: string; when: string };
  opt_out?: boolean;
  summary?: string;
}

export interface ContactRow {
  run_id: string;
  contact_id: string;
  position: number;
  name: string | null;
  phone: string | null;
  timezone: string;
  context: Record<string, unknown>;
  window_start: Date | null;
  window_end: Date | null;
  /** Status and skip reason as pkg/campaigns/state.ts names them. */
  status: string;
  skipped_reason: string | null;
  attempts: number;
  call_id: string | null;
  next_attempt_at: Date | null;
  result: ContactOutcome | null;
  finished_at: Date | null;
}

export type NewContact = Omit<ContactRow, 'run_id' | 'attempts' | 'call_id' | 'result'>;

const BATCH = 500;

export async function insertContacts(db: Knex, runId: string, contacts: NewContact[]): Promise<void> {
  const rows = contacts.map((c) => ({ ...c, run_id: runId, context: JSON.stringify(c.context) }));
  for (let i = 0; i < rows.length; i += BATCH) await db('campaign_contacts').insert(rows.slice(i, i + BATCH));
}

export const contactsOf = (db: Knex, runId: string, status?: string): Promise<ContactRow[]> => {
  const q = db('campaign_contacts').where({ run_id: runId });
  if (status) q.andWhere({ status });
  return q.orderBy('position');
};

/** Pending people whose next attempt is due, locked for this transaction, in list order. */
export const lockDueContacts = (db: Knex, runId: string, now: Date, limit: number): Promise<ContactRow[]> =>
  db('campaign_contacts')
    .where({ run_id: runId, status: 'pending' })
    .andWhere('next_attempt_at', '<=', now)
    .orderBy(['next_attempt_at', 'position'])
    .limit(limit)
    .forUpdate()
    .skipLocked();

export const lockContact = (db: Knex, runId: string, contactId: string): Promise<ContactRow | undefined> =>
  db('campaign_contacts').where({ run_id: runId, contact_id: contactId }).forUpdate().first();

export async function updateContact(db: Knex, runId: string, contactId: string, patch: Partial<ContactRow>): Promise<ContactRow> {
  const out: Record<string, unknown> = { ...patch };
  if (patch.result !== undefined) out.result = patch.result === null ? null : JSON.stringify(patch.result);
  const [row] = await db('campaign_contacts').where({ run_id: runId, contact_id: contactId }).update(out).returning('*');
  return row;
}

/** The statuses of people still to call or on a call: those a run waits for. */
export const LEFT: readonly string[] = ['pending', 'calling'];

/** How many people of the run are still to call or on a call (index campaign_contacts_live), whatever the run's size. */
export async function countLeft(ctx: Pick<Ctx, 'db'>, runId: string): Promise<number> {
  const row = await ctx.db('campaign_contacts').where({ run_id: runId }).whereIn('status', LEFT).count({ n: '*' }).first();
  return Number(row?.n ?? 0);
}

/** How many people of the run are in each status. */
export async function countByStatus(ctx: Pick<Ctx, 'db'>, runId: string): Promise<Record<string, number>> {
  const rows: { status: string; n: string }[] = await ctx
    .db('campaign_contacts')
    .where({ run_id: runId })
    .groupBy('status')
    .select('status', ctx.db.raw('count(*) as n'));
  return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
}

/** Finished people by the outcome of their result. */
export async function countByOutcome(ctx: Pick<Ctx, 'db'>, runId: string): Promise<Record<string, number>> {
  const rows: { outcome: string; n: string }[] = await ctx
    .db('campaign_contacts')
    .where({ run_id: runId })
    .whereRaw(`result->>'outcome' is not null`)
    .groupByRaw(`result->>'outcome'`)
    .select(ctx.db.raw(`result->>'outcome' as outcome`), ctx.db.raw('count(*) as n'));
  return Object.fromEntries(rows.map((r) => [r.outcome, Number(r.n)]));
}

/** The earliest next attempt of a pending person. */
export async function nextAttemptAt(db: Knex, runId: string): Promise<Date | null> {
  const row = await db('campaign_contacts').where({ run_id: runId, status: 'pending' }).min({ at: 'next_attempt_at' }).first();
  return row?.at ?? null;
}

/** After a stop: people not on a call will not be called; they finish without a result. */
export async function markUnfinished(db: Knex, runId: string, status = 'pending'): Promise<number> {
  return db('campaign_contacts').where({ run_id: runId, status }).update({ status: 'unfinished', next_attempt_at: null });
}
