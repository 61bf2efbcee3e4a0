// A trigger (job) row as stored, and the statuses its status column holds (pkg/triggers/state.ts moves it between them).
export const STATUSES = ['queued', 'running', 'waiting', 'waiting_for_reply', 'succeeded', 'failed', 'expired', 'cancelled'] as const;
export type TriggerStatus = (typeof STATUSES)[number];

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
  /** Made by an agent in a chat turn whose contact was not verified (DECISIONS.md "Verification"). */
  asked_unverified: boolean;
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
  /** A running job's place under its account's max_concurrent_jobs; null when uncapped. */
  tenant_slot: number | null;
}
