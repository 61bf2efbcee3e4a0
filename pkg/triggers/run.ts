// One execution of a claimed job: the agent's prompt, model and tools, the conversation's stored
// custom tools reloaded, the job brief in context; the run ends in the status the state table says.
import type { Ctx } from '../context.js';
import { domainErrorOf } from '../db/unavailable.js';
import { turnModelSlot } from '../agent/model-call.js';
import { runTurn, type TurnResult } from '../agent/turn.js';
import { TurnCharge } from '../credits/charge.js';
import { appendMessages, unstoredMessage } from '../store/messages.js';
import type { TriggerRow } from '../store/triggers/row.js';
import { moveTrigger, type TriggerPatch } from '../store/triggers/transition.js';
import { statusChange, type TriggerEvent } from './state.js';
import { jobRunContext, jobRunReads } from '../store/turn-context.js';
import { needsVerification } from '../conversations/verification.js';
import { backgroundTaskTool, jobTools, type JobOutcome } from './job-tools.js';

const JOB_INSTRUCTIONS = `You are running an autonomous background job; no user is reading along.
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

/** The patch of a job's last transition: its lease released and nothing more due. */
const leaseReleased = { due_at: null, lease_owner: null, lease_until: null } as const;

/** A transition of a run's closing transaction, made only while `owner` (when given) holds the job. */
interface Step {
  event: TriggerEvent;
  patch: TriggerPatch;
  owner?: string;
}

const step = (event: TriggerEvent, patch: TriggerPatch, owner?: string): Step => ({ event, patch, owner });

/** Ends a run as the state table says: the transitions of the run's closing transaction. */
function closingTransitions(ctx: Ctx, row: TriggerRow, owner: string, outcome: JobOutcome | null, turn: TurnResult): Step[] {
  const summary = turn.messages.at(-1) ?? null;
  const now = ctx.clock.now();
  const latest = summary ?? row.result_summary;
  // DECISIONS.md: a run that ends past expiresAt ends the job expired, whatever it asked for next.
  if (now.getTime() > row.expires_at.getTime()) {
    return [
      step(
        'deadline_passed',
        {
          ...leaseReleased,
          result_summary: latest,
          completed_at: now,
          error_message: 'The run finished after the job deadline (expiresAt)',
        },
        owner,
      ),
    ];
  }
  if (!outcome && turn.unfinished) {
    // The agent never answered: the last message is the server's, not a result.
    return [
      step(
        'error',
        {
          ...leaseReleased,
          completed_at: now,
          error_message: `The run used all ${ctx.config.SWITCHBOARD_MAX_TOOL_ROUNDS} tool rounds (SWITCHBOARD_MAX_TOOL_ROUNDS) without a final answer`,
        },
        owner,
      ),
    ];
  }
  if (!outcome) {
    return [step('complete', { ...leaseReleased, result_summary: latest, completed_at: now }, owner)];
  }
  // Parking is a wait too: a resumed job needs another attempt, so none may be left over.
  if (row.attempt_count >= row.max_attempts) {
    const wait = outcome.kind === 'park' ? 'asked for human input' : 'scheduled a follow-up';
    return [
      step(
        'schedule_retry_exhausted',
        {
          ...leaseReleased,
          result_summary: latest,
          completed_at: now,
          error_message: `The agent ${wait} but maxAttempts (${row.max_attempts}) is reached`,
        },
        owner,
      ),
    ];
  }
  if (outcome.kind === 'park') {
    // metadata.waitPayload mirrors waitPayload: a park without one clears an earlier park's.
    const { waitPayload: _, ...metadata } = row.metadata;
    return [
      step(
        'park',
        {
          lease_owner: null,
          lease_until: null,
          due_at: row.expires_at,
          result_summary: latest,
          waiting_reason: outcome.reason,
          waiting_since: now,
          wait_payload: outcome.payload,
          metadata: outcome.payload ? { ...metadata, waitPayload: outcome.payload } : metadata,
        },
        owner,
      ),
    ];
  }
  const waiting = step(
    'schedule_retry',
    {
      lease_owner: null,
      lease_until: null,
      result_summary: latest,
      next_run_at: outcome.at,
      due_at: outcome.at,
    },
    owner,
  );
  // A follow-up due at the deadline itself could only start past it (the sweep would expire it then).
  if (outcome.at.getTime() < row.expires_at.getTime()) return [waiting];
  // Sent with the first, it expires only what the first left waiting: no other run of the job ends while this one holds the lock.
  return [
    waiting,
    step('follow_up_past_deadline', {
      ...leaseReleased,
      next_run_at: null,
      completed_at: now,
      error_message: `The follow-up (${outcome.at.toISOString()}) is at or past the job deadline (expiresAt)`,
    }),
  ];
}

function failTrigger(ctx: Ctx, row: TriggerRow, owner: string, message: string) {
  return moveTrigger(
    ctx,
    row.id,
    statusChange('error'),
    { ...leaseReleased, completed_at: ctx.clock.now(), error_message: message },
    owner,
  );
}

async function execute(ctx: Ctx, row: TriggerRow, owner: string, closing: () => void) {
  const model = turnModelSlot(ctx);
  return ctx.locks
    .withLock(
      row.conversation_id,
      async (lock) => {
        const { tenant, conversation, agent, history, contactMemory } = jobRunContext(row, lock.reads);
        const first = row.attempt_count === 1 && !row.human_reply;
        // Never held back by verification (spec, Authentication 6); the conversation records that it ran so.
        const unverified = needsVerification(agent, conversation) ? { contactVerified: false } : {};
        const opening = unstoredMessage('system', first ? brief(row) : followUp(row), { triggerId: row.id, ...unverified });
        const outcome: { value: JobOutcome | null } = { value: null };
        const ended = { moved: false };
        const charge = new TurnCharge(ctx, tenant.id, { turnKind: 'job', agentId: agent.id }, () => opening.id);
        await runTurn(ctx, {
          tenant,
          agent,
          conversation,
          history,
          opening,
          streaming: false,
          turnSystemMessage: JOB_INSTRUCTIONS,
          contactMemory,
          extraTools: (_agent, c) => new Map([...backgroundTaskTool(ctx, tenant, c), ...jobTools(ctx, tenant, outcome)]),
          // A job asked for by a contact not verified acts for them no more than their own turns would.
          heldBack: async (a, c) => row.asked_unverified && needsVerification(a, c),
          heldBackTools: () => jobTools(ctx, tenant, outcome),
          charge,
          modelSlot: model.slot,
          // The brief unless a tool round stored it, the last reply, the credits the run used and the
          // job's new status: one transaction, its statements sent together.
          storeLast: async (last, turn, unstored) => {
            const steps = closingTransitions(ctx, row, owner, outcome.value, turn);
            const closed = charge.close(lock, (tx) =>
              Promise.all([
                appendMessages(tx, conversation.id, [...unstored, unstoredMessage('assistant', last.content, last.metadata)]),
                Promise.all(steps.map((s) => moveTrigger(tx, row.id, statusChange(s.event), s.patch, s.owner))),
              ]),
            );
            closing();
            const [, moved] = await closed;
            ended.moved = moved.every(Boolean);
          },
        });
        return ended.moved;
      },
      { reads: jobRunReads(ctx.db, row), holder: row.tenant_id, first: model.take },
    )
    .finally(model.release);
}

/**
 * Run a job claimed by `owner`, calling `closing` once only its closing transaction is left (the
 * controller's slot is then free). Returns whether its end was written (not when the lease was lost meanwhile).
 */
export async function runTrigger(ctx: Ctx, row: TriggerRow, owner: string, closing: () => void): Promise<boolean> {
  const now = ctx.clock.now();
  if (now.getTime() >= row.expires_at.getTime()) {
    return moveTrigger(
      ctx,
      row.id,
      statusChange('deadline_passed'),
      {
        ...leaseReleased,
        completed_at: now,
        error_message: 'The job deadline (expiresAt) passed before it could run',
      },
      owner,
    );
  }
  try {
    return await execute(ctx, row, owner, closing);
  } catch (err) {
    // Model, network, credit, database and configuration errors all end the job; nothing re-runs it.
    const known = domainErrorOf(err);
    if (!known) ctx.log.error({ err, triggerId: row.id }, 'job run failed unexpectedly');
    // An unexpected error's text can hold SQL and its values: it stays in the log.
    return failTrigger(ctx, row, owner, known ? known.message : 'Unexpected processing failure');
  }
}
