// Trigger rows: reading, conditional transitions, and the controller's claim and sweep queries.
import type { Knex } from 'knex';
import type { Ctx } from '../context.js';
import { isUuid } from '../ids.js';
import { NotFound } from '../errors.js';
import { CHANNELS, notifyIdColumn, withoutAnnounced } from '../db/notify.js';
import { usableAgent } from './agents.js';
import { PENDING, sourcesOf, type TriggerEvent, type TriggerStatus } from '../triggers/state.js';

export interface TriggerRow {
  id: string;
  seq: number;
  tenant_id: string;
  conversation_id: string;
  agent_id: string;
  status: TriggerStatus;
  trigger_type: 'api' | 'event' | 'agent';
  task: string;
  input_message: string;
  success_criteria: string | null;
  business_keys: Record<string, unknown>;
  metadata: Record<string, unknown>;
  event_type: string | null;
  idempotency_key: string | null;
  approval_id: string | null;
  approval_url: string | null;
  wait_payload: Record<string, unknown> | null;
  human_reply: { decision: string; reason: string | null; at: string } | null;
  result_summary: string | null;
  error_message: string | null;
  attempt_count: number;
  max_attempts: number;
  next_run_at: Date | null;
  waiting_reason: string | null;
  waiting_since: Date | null;
  expires_at: Date;
  last_run_at: Date | null;
  started_at: Date | null;
  completed_at: Date | null;
  created_at: Date;
  updated_at: Date;
  due_at: Date | null;
  lease_owner: string | null;
  lease_until: Date | null;
}

const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);

/** The trigger object of the spec. */
export function triggerView(r: TriggerRow) {
  return {
    triggerId: r.id,
    conversationId: r.conversation_id,
    agentId: r.agent_id,
    status: r.status,
    task: r.task,
    successCriteria: r.success_criteria,
    businessKeys: r.business_keys,
    metadata: r.metadata,
    approvalId: r.approval_id,
    approvalUrl: r.approval_url,
    waitPayload: r.wait_payload,
    resultSummary: r.result_summary,
    errorMessage: r.error_message,
    attemptCount: r.attempt_count,
    maxAttempts: r.max_attempts,
    nextRunAt: iso(r.next_run_at),
    waitingReason: r.waiting_reason,
    waitingSince: iso(r.waiting_since),
    expiresAt: iso(r.expires_at)!,
    lastRunAt: iso(r.last_run_at),
    startedAt: iso(r.started_at),
    completedAt: iso(r.completed_at),
    createdAt: iso(r.created_at)!,
    updatedAt: iso(r.updated_at)!,
  };
}

/** The legacy raw job object (DECISIONS.md): every trigger field plus the stored inputs. */
export const rawJobView = (r: TriggerRow) => ({
  ...triggerView(r),
  jobId: r.id,
  triggerType: r.trigger_type,
  inputMessage: r.input_message,
  idempotencyKey: r.idempotency_key,
  eventType: r.event_type,
  humanReply: r.human_reply,
});

export const listItemView = (r: TriggerRow) => ({
  triggerId: r.id,
  status: r.status,
  attemptCount: r.attempt_count,
  resultSummary: r.result_summary,
  completedAt: iso(r.completed_at),
});

export async function getTrigger(ctx: Pick<Ctx, 'db'>, tenantId: string, id: string): Promise<TriggerRow> {
  if (!isUuid(id)) throw new NotFound(`Unknown trigger ${id}`);
  const row = await ctx.db('triggers').where({ id, tenant_id: tenantId }).first();
  if (!row) throw new NotFound(`Unknown trigger ${id}`);
  return row;
}

export async function findByIdempotencyKey(db: Knex, tenantId: string, key: string): Promise<TriggerRow | undefined> {
  return db('triggers').where({ tenant_id: tenantId, idempotency_key: key }).first();
}

export async function countPending(db: Knex, conversationId: string): Promise<number> {
  const row = await db('triggers').where({ conversation_id: conversationId }).whereIn('status', PENDING).count({ n: '*' }).first();
  return Number(row?.n ?? 0);
}

const triggerColumns = (row: Partial<TriggerRow>): Record<string, unknown> => ({
  ...row,
  business_keys: JSON.stringify(row.business_keys ?? {}),
  metadata: JSON.stringify(row.metadata ?? {}),
});

export async function insertTrigger(db: Knex, row: Partial<TriggerRow>): Promise<TriggerRow> {
  const [inserted] = await db('triggers')
    .insert(triggerColumns(row))
    .returning(['*', notifyIdColumn(db, CHANNELS.triggers)]);
  return withoutAnnounced<TriggerRow>(inserted);
}

/**
 * The statement inserting a job with the new conversation it runs on (newConversationRow), both
 * only if the conversation's agent is usable by its company (usableAgent).
 */
function triggerWithConversation(db: Knex, conversation: Record<string, unknown>, row: Partial<TriggerRow>): Knex.Raw {
  const trigger = triggerColumns(row);
  const insert = (r: Record<string, unknown>) => ({
    sql: `(${Object.keys(r).map(() => '??').join(', ')}) select ${Object.keys(r).map(() => '?').join(', ')}`,
    bindings: [...Object.keys(r), ...Object.values(r)],
  });
  const [c, t] = [insert(conversation), insert(trigger)];
  const agent = usableAgent(db, conversation.tenant_id as string, conversation.agent_id as string).select(db.raw('1'));
  return db.raw(
    `with agent as (?),
     conversation as (insert into conversations ${c.sql} from agent returning 1)
     insert into triggers ${t.sql} from conversation
     returning *, pg_notify(?, id::text) as announced`,
    [
      agent,
      ...c.bindings,
      ...t.bindings,
      CHANNELS.triggers,
    ] as Knex.Value[],
  );
}

/** Insert a job with the new conversation it runs on (triggerWithConversation). Returns undefined when its agent is not usable. */
export async function insertTriggerWithConversation(
  db: Knex,
  conversation: Record<string, unknown>,
  row: Partial<TriggerRow>,
): Promise<TriggerRow | undefined> {
  const [inserted] = (await triggerWithConversation(db, conversation, row)).rows;
  return inserted && withoutAnnounced<TriggerRow>(inserted);
}

export async function listTriggers(
  ctx: Pick<Ctx, 'db'>,
  conversationId: string,
  limit: number,
  offset: number,
): Promise<{ rows: TriggerRow[]; total: number }> {
  const [rows, count] = await Promise.all([
    ctx.db('triggers').where({ conversation_id: conversationId }).orderBy('seq', 'desc').limit(limit).offset(offset),
    ctx.db('triggers').where({ conversation_id: conversationId }).count({ n: '*' }).first(),
  ]);
  return { rows, total: Number(count?.n ?? 0) };
}

export async function latestTrigger(ctx: Pick<Ctx, 'db'>, conversationId: string): Promise<TriggerRow | undefined> {
  return ctx.db('triggers').where({ conversation_id: conversationId }).orderBy('seq', 'desc').first();
}

type Patch = Partial<Omit<TriggerRow, 'metadata' | 'wait_payload' | 'human_reply'>> & {
  metadata?: Record<string, unknown>;
  wait_payload?: Record<string, unknown> | null;
  human_reply?: TriggerRow['human_reply'];
};

/**
 * Apply `event` to the trigger if it is still in a status the state table allows it from
 * (and, for running work, still held by `leaseOwner`). Returns the new row, or null when the
 * trigger had moved on: the caller lost a race and must not act on it.
 */
export async function applyTransition(
  ctx: Pick<Ctx, 'db' | 'clock' | 'metrics'>,
  id: string,
  event: TriggerEvent,
  to: TriggerStatus,
  patch: Patch,
  leaseOwner?: string,
): Promise<TriggerRow | null> {
  const columns: Record<string, unknown> = { ...patch, status: to, updated_at: ctx.clock.now() };
  for (const key of ['metadata', 'wait_payload', 'human_reply'] as const) {
    if (patch[key] !== undefined) columns[key] = patch[key] === null ? null : JSON.stringify(patch[key]);
  }
  const query = ctx.db('triggers').where({ id }).whereIn('status', sourcesOf(event));
  if (leaseOwner) query.andWhere({ lease_owner: leaseOwner });
  const [row] = await query.update(columns).returning(['*', notifyIdColumn(ctx.db, CHANNELS.triggers)]);
  if (!row) return null;
  ctx.metrics.triggerTransitions.inc({ event, status: to });
  return withoutAnnounced(row as TriggerRow);
}

/** The jobs a claim's rows hold (none is one all-null row), counted in the metrics as claimed at `now`. */
function claimedRows(ctx: Pick<Ctx, 'metrics'>, now: Date, rows: Record<string, any>[]): TriggerRow[] {
  return rows.filter((r) => r.id !== null).map((r) => {
    const { was_status: was, was_due: due, ...row } = r;
    ctx.metrics.triggerTransitions.inc({ event: was === 'waiting' ? 'follow_up_due' : 'claim', status: 'running' });
    ctx.metrics.queueLag.observe({ reconciler: 'triggers' }, Math.max(0, now.getTime() - new Date(due).getTime()) / 1000);
    return row as TriggerRow;
  });
}

/**
 * Claim up to `max` due jobs (queued, or waiting with their follow-up time reached), each on a
 * different conversation that has no running job: running, attemptCount + 1, leased to `owner`.
 * SKIP LOCKED lets replicas claim side by side; the partial unique index settles two claims on one
 * conversation (the loser claims nothing and is told to look again at once). A claim that leaves
 * slots free also tells when anything left is next due, for the controller's sleep.
 */
export async function claimDueTriggers(
  ctx: Pick<Ctx, 'db' | 'clock' | 'metrics'>,
  owner: string,
  leaseMs: number,
  max: number,
): Promise<{ claimed: TriggerRow[]; nextDue: Date | null }> {
  const now = ctx.clock.now();
  const until = new Date(now.getTime() + leaseMs);
  // switchboard_claim_triggers (migration 005): each claimed row, what it was (none: one all-null row).
  const { rows } = await ctx.db.raw('select (c.claimed).*, c.was_status, c.was_due from switchboard_claim_triggers(?, ?, ?, ?, ?, false) c', [
    owner,
    now,
    until,
    max,
    CHANNELS.triggers,
  ]);
  const claimed = claimedRows(ctx, now, rows);
  // Only a claim that leaves slots free needs to know when to look again; under a backlog none does.
  return { claimed, nextDue: claimed.length < max ? await nextDueTrigger(ctx, claimed) : null };
}

/**
 * When anything but the jobs just claimed is next due, for the controller's sleep. Jobs behind a
 * running job on their conversation are left out: they cannot be claimed, and that job's end is announced.
 */
async function nextDueTrigger(ctx: Pick<Ctx, 'db'>, claimed: TriggerRow[]): Promise<Date | null> {
  const { rows } = await ctx.db.raw(
    `select min(t.due_at) as next_due from triggers t
     where t.due_at is not null and t.id <> all(?::uuid[])
       and not (t.status in ('queued', 'waiting')
         and exists (select 1 from triggers r where r.conversation_id = t.conversation_id and r.status = 'running'))`,
    [claimed.map((row) => row.id)],
  );
  return rows[0].next_due;
}

/** Transitions that need no run: deadlines passed, and running work whose heartbeat stopped. */
const SWEEP_EVENT: Record<string, TriggerEvent> = {
  running: 'interrupted',
  waiting: 'follow_up_past_deadline',
  waiting_for_reply: 'deadline_passed',
};

export async function sweepTriggers(ctx: Pick<Ctx, 'db' | 'clock' | 'metrics'>, only?: string): Promise<TriggerRow[]> {
  const now = ctx.clock.now();
  const { rows } = await ctx.db.raw(
    `with due as (
       select id, status from triggers
       where ${only ? 'id = ? and ' : ''}due_at <= ? and (
         (status = 'waiting_for_reply' and expires_at <= ?)
         or (status = 'waiting' and expires_at <= ?)
         or (status = 'running' and lease_until <= ?))
       for update skip locked
     )
     update triggers t set
       status = case when due.status = 'running' then 'failed' else 'expired' end,
       error_message = case due.status
         when 'running' then 'The run was interrupted: its worker stopped before finishing'
         when 'waiting' then 'The follow-up time is past the job''s deadline (expiresAt)'
         else 'No reply arrived before the job''s deadline (expiresAt)' end,
       completed_at = ?, updated_at = ?, due_at = null, next_run_at = null, waiting_reason = null,
       lease_owner = null, lease_until = null
     from due where t.id = due.id
     returning t.*, due.status as was_status, pg_notify(?, t.id::text) as announced`,
    [...(only ? [only] : []), now, now, now, now, now, now, CHANNELS.triggers],
  );
  return rows.map(({ was_status: was, announced: _, ...row }: TriggerRow & { was_status: string; announced: unknown }) => {
    ctx.metrics.triggerTransitions.inc({ event: SWEEP_EVENT[was]!, status: row.status });
    return row as TriggerRow;
  });
}

/** Keep leases of running work alive. */
export async function heartbeatTriggers(ctx: Pick<Ctx, 'db' | 'clock'>, ids: string[], owner: string, leaseMs: number): Promise<void> {
  if (!ids.length) return;
  const until = new Date(ctx.clock.now().getTime() + leaseMs);
  await ctx.db('triggers').whereIn('id', ids).andWhere({ status: 'running', lease_owner: owner }).update({ lease_until: until, due_at: until });
}

/**
 * Give up `owner`'s leases: the runs are lost. The owner is cleared so a run still going can no
 * longer record an outcome, and the announcement lets any replica's sweep fail them at once.
 */
export async function releaseTriggers(ctx: Pick<Ctx, 'db' | 'clock'>, ids: string[], owner: string): Promise<void> {
  if (!ids.length) return;
  const now = ctx.clock.now();
  await ctx.db('triggers')
    .whereIn('id', ids)
    .andWhere({ status: 'running', lease_owner: owner })
    .update({ lease_owner: null, lease_until: now, due_at: now })
    .returning(['id', notifyIdColumn(ctx.db, CHANNELS.triggers)]);
}

/** What the CR mirror projects: every live job, and finished ones completed since `since`. */
export async function mirroredTriggers(ctx: Pick<Ctx, 'db'>, since: Date): Promise<TriggerRow[]> {
  return ctx.db('triggers')
    .whereIn('status', PENDING)
    .orWhere('completed_at', '>=', since)
    .orderBy('created_at');
}
