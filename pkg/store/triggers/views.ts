// What the API shows of a trigger row: the spec's trigger object, the legacy raw job, a list item.
import type { TriggerRow } from './row.js';

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
