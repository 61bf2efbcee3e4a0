// One execution of a claimed job: the agent's prompt, model and tools, the conversation's stored
// custom tools reloaded, the job brief in context; the run ends in the status the state table says.
import type { Ctx } from '../context.js';
import { DomainError } from '../errors.js';
import { runTurn, type TurnResult } from '../agent/turn.js';
import type { QueryResult } from 'pg';
import type { HandedLock, LockRunners } from '../db/locks.js';
import type { Runner } from '../db/statements.js';
import type { Alongside } from '../store/alongside.js';
import { chargeAlongside, chargeTokens } from '../store/credits.js';
import { messagesAlongside, unstoredMessage } from '../store/messages.js';
import { applyTransition, claimedRows, claimStatement, ofClaimedJob, type TriggerRow } from '../store/triggers.js';
import { claimedJobReads, jobRunContext, turnContextReads } from '../store/turn-context.js';
import { backgroundTaskTool, jobTools, type JobOutcome } from './job-tools.js';

export const JOB_INSTRUCTIONS = `You are running an autonomous background job; no user is reading along.
Work on the task with your tools. When the task is done, answer with the final result: that answer is the job's result.
To continue later, call schedule_trigger_retry. To wait for a human decision or information, call request_human_input.`;

function brief(row: TriggerRow): string {
  const lines = [`AUTONOMOUS JOB ${row.id} (attempt ${row.attempt_count} of ${row.max_attempts})`, `Task: ${row.task}`];
  if (row.success_criteria) lines.push(`Success criteria: ${row.success_criteria}`);
  if (Object.keys(row.business_keys).length) lines.push(`Business keys: ${JSON.stringify(row.business_keys)}`);
  if (Object.keys(row.metadata).length) lines.push(`Job metadata: ${JSON.stringify(row.metadata)}`);
  return lines.join('\n');
}

const followUp = (row: TriggerRow): string =>
  `FOLLOW-UP RUN of job ${row.id} (attempt ${row.attempt_count} of ${row.max_attempts}). Continue the task.`;

const done = { due_at: null, lease_owner: null, lease_until: null } as const;

/**
 * Ends a run as the state table says; `alongside`: the run's closing writes, made by the same
 * statement, which `run` runs (a follow-up past the deadline takes a transaction of two, on the pool).
 */
async function finish(
  ctx: Ctx,
  row: TriggerRow,
  owner: string,
  outcome: JobOutcome | null,
  turn: TurnResult,
  alongside: Alongside[],
  run: Runner,
) {
  const summary = turn.messages.at(-1) ?? null;
  const now = ctx.clock.now();
  const latest = summary ?? row.result_summary;
  // DECISIONS.md: a run that ends past expiresAt ends the job expired, whatever it asked for next.
  if (now.getTime() > row.expires_at.getTime()) {
    return applyTransition(ctx, row.id, 'deadline_passed', 'expired', {
      ...done,
      result_summary: latest,
      completed_at: now,
      error_message: 'The run finished after the job deadline (expiresAt)',
    }, owner, alongside, run);
  }
  if (!outcome && turn.unfinished) {
    // The agent never answered: the last message is the server's, not a result.
    return applyTransition(ctx, row.id, 'error', 'failed', {
      ...done,
      completed_at: now,
      error_message: `The run used all ${ctx.config.SWITCHBOARD_MAX_TOOL_ROUNDS} tool rounds (SWITCHBOARD_MAX_TOOL_ROUNDS) without a final answer`,
    }, owner, alongside, run);
  }
  if (!outcome) {
    return applyTransition(ctx, row.id, 'complete', 'succeeded', { ...done, result_summary: latest, completed_at: now }, owner, alongside, run);
  }
  // Parking is a wait too: a resumed job needs another attempt, so none may be left over.
  if (row.attempt_count >= row.max_attempts) {
    const wait = outcome.kind === 'park' ? 'asked for human input' : 'scheduled a follow-up';
    return applyTransition(ctx, row.id, 'schedule_retry_exhausted', 'failed', {
      ...done,
      result_summary: latest,
      completed_at: now,
      error_message: `The agent ${wait} but maxAttempts (${row.max_attempts}) is reached`,
    }, owner, alongside, run);
  }
  if (outcome.kind === 'park') {
    // metadata.waitPayload mirrors waitPayload: a park without one clears an earlier park's.
    const { waitPayload: _, ...metadata } = row.metadata;
    return applyTransition(ctx, row.id, 'park', 'waiting_for_reply', {
      lease_owner: null,
      lease_until: null,
      due_at: row.expires_at,
      result_summary: latest,
      waiting_reason: outcome.reason,
      waiting_since: now,
      wait_payload: outcome.payload,
      metadata: outcome.payload ? { ...metadata, waitPayload: outcome.payload } : metadata,
    }, owner, alongside, run);
  }
  return ctx.db.transaction(async (trx) => {
    const tx = { ...ctx, db: trx };
    const waiting = await applyTransition(tx, row.id, 'schedule_retry', 'waiting', {
      lease_owner: null,
      lease_until: null,
      result_summary: latest,
      next_run_at: outcome.at,
      due_at: outcome.at,
    }, owner, alongside);
    // A follow-up due at the deadline itself could only start past it (the sweep would expire it then).
    if (!waiting || outcome.at.getTime() < row.expires_at.getTime()) return waiting;
    return applyTransition(tx, row.id, 'follow_up_past_deadline', 'expired', {
      ...done,
      next_run_at: null,
      completed_at: now,
      error_message: `The follow-up (${outcome.at.toISOString()}) is at or past the job deadline (expiresAt)`,
    });
  });
}

function fail(ctx: Ctx, row: TriggerRow, owner: string, message: string) {
  return applyTransition(ctx, row.id, 'error', 'failed', { ...done, completed_at: ctx.clock.now(), error_message: message }, owner);
}

/** The job a finishing run claimed for its slot, with its conversation's lock and context when that was free. */
export interface NextJob {
  row: TriggerRow;
  lock: HandedLock | null;
}

/** Lets a run claim the next due job in its closing round trip, leased for `leaseMs`, if `may()` still says so then. */
export interface ClaimNext {
  leaseMs: number;
  may(): boolean;
}

/**
 * `lock.close`, claiming in the same round trip the next due job for `owner`, locking its
 * conversation if free and reading its context: the next run starts with no round trip of its own.
 */
function closingAndClaiming(ctx: Ctx, owner: string, lock: LockRunners, leaseMs: number, claimed: (next: NextJob | null) => void): Runner {
  return async (statement) => {
    const now = ctx.clock.now();
    const { rows, before, lock: handed } = await lock.closeThenLock(statement, {
      // Committed with the run's end: the claim stands whether or not the lock is free.
      before: [claimStatement(owner, now, leaseMs, 1, false)],
      key: ofClaimedJob('conversation'),
      reads: claimedJobReads(),
    });
    const [row] = claimedRows(ctx, now, before[0]!.rows);
    claimed(row ? { row, lock: handed } : null);
    return rows;
  };
}

/** What a run found when it looked for the next job on its way out (`looked`: it did). */
interface Chained {
  looked: boolean;
  job: NextJob | null;
}

async function execute(ctx: Ctx, row: TriggerRow, owner: string, handed: HandedLock | null, next: ClaimNext | undefined, chained: Chained) {
  const body = async (results: QueryResult[], lock: LockRunners) => {
    const { tenant, conversation, agent, history, contactMemory } = jobRunContext(row, results);
    const first = row.attempt_count === 1 && !row.human_reply;
    const opening = unstoredMessage('system', first ? brief(row) : followUp(row), { triggerId: row.id });
    const outcome: { value: JobOutcome | null } = { value: null };
    const ended: { row: TriggerRow | null } = { row: null };
    await runTurn(ctx, {
      tenant,
      agent,
      conversation,
      history,
      opening,
      whole: true,
      turnSystemMessage: JOB_INSTRUCTIONS,
      contactMemory,
      extraTools: (_agent, c) => new Map([...backgroundTaskTool(ctx, tenant, c), ...jobTools(ctx, tenant, outcome)]),
      chargeFailed: (usage) => chargeTokens(ctx, tenant.id, usage, opening.id),
      // The brief unless a tool round stored it, the last reply, the credits the run used and the job's new status: one statement.
      storeLast: async (last, turn, unstored) => {
        const closing = next?.may()
          ? closingAndClaiming(ctx, owner, lock, next.leaseMs, (job) => Object.assign(chained, { looked: true, job }))
          : lock.close;
        ended.row = await finish(ctx, row, owner, outcome.value, turn, [
          messagesAlongside(ctx, conversation.id, [...unstored, unstoredMessage('assistant', last.content, last.metadata)]),
          chargeAlongside(ctx, tenant.id, turn.usage, opening.id),
        ], closing);
      },
    });
    return ended.row;
  };
  return handed
    ? ctx.locks.withHandedLock(handed, body)
    : ctx.locks.withLock(row.conversation_id, body, turnContextReads(row.tenant_id, row.conversation_id, row.agent_id));
}

/**
 * Run a job claimed by `owner` (`lock`: its conversation's, handed over by the run that claimed it).
 * Returns the row as it ended (null if the lease was lost meanwhile), whether it looked for the next
 * job on its way out (`next` let it), and the job it claimed there.
 */
export async function runTrigger(
  ctx: Ctx,
  row: TriggerRow,
  owner: string,
  { lock = null, next }: { lock?: HandedLock | null; next?: ClaimNext } = {},
): Promise<{ ended: TriggerRow | null; next: NextJob | null; looked: boolean }> {
  const now = ctx.clock.now();
  if (now.getTime() >= row.expires_at.getTime()) {
    lock?.release();
    const ended = await applyTransition(ctx, row.id, 'deadline_passed', 'expired', {
      ...done,
      completed_at: now,
      error_message: 'The job deadline (expiresAt) passed before it could run',
    }, owner);
    return { ended, next: null, looked: false };
  }
  // A job claimed before a later step failed is still this owner's to run.
  const chained: Chained = { looked: false, job: null };
  try {
    const ended = await execute(ctx, row, owner, lock, next, chained);
    return { ended, next: chained.job, looked: chained.looked };
  } catch (err) {
    // Model, network, credit and configuration errors all end the job; nothing re-runs it.
    if (!(err instanceof DomainError)) ctx.log.error({ err, triggerId: row.id }, 'job run failed unexpectedly');
    const ended = await fail(ctx, row, owner, err instanceof DomainError ? err.message : `Unexpected failure: ${(err as Error).message}`).catch(
      (failed: Error) => {
        if (!chained.job) throw failed;
        // The job it claimed still runs (it holds a lease, perhaps its conversation's lock); this
        // one's lease runs out and the sweep ends it, as after a crash.
        ctx.log.error({ err: failed, triggerId: row.id }, 'recording a failed job run failed');
        return null;
      },
    );
    return { ended, next: chained.job, looked: chained.looked };
  }
}
