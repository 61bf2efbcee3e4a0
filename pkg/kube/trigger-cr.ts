// How a trigger row looks as a `Trigger` custom resource (crds/triggers.switchboard.dev.yaml).
import { isDeepStrictEqual } from 'node:util';
import type { TriggerRow } from '../store/triggers/row.js';
import { phaseConditions, type PhaseConditions } from './conditions.js';

export const GROUP = 'switchboard.dev';
export const VERSION = 'v1alpha1';
export const API_VERSION = `${GROUP}/${VERSION}`;
export const TRIGGERS = 'triggers';
export const MANAGED_BY = 'app.kubernetes.io/managed-by=switchboard';

export interface Condition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  reason: string;
  message: string;
  lastTransitionTime: string;
  observedGeneration?: number;
}

export interface TriggerCR {
  apiVersion: string;
  kind: 'Trigger';
  metadata: {
    name: string;
    namespace?: string;
    uid?: string;
    generation?: number;
    resourceVersion?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
  };
  spec: Record<string, unknown>;
  status?: TriggerStatus;
}

export interface TriggerStatus {
  phase: string;
  attempts: string;
  attemptCount: number;
  nextRunAt?: string;
  waitingReason?: string;
  resultSummary?: string;
  errorMessage?: string;
  completedAt?: string;
  observedGeneration?: number;
  conditions: Condition[];
}

const cut = (s: string | null, n: number): string | undefined => (s ? s.slice(0, n) : undefined);

/** The object's desired metadata and spec: what the mirror owns on the main resource. */
export function triggerObject(row: TriggerRow, namespace: string): TriggerCR {
  return {
    apiVersion: API_VERSION,
    kind: 'Trigger',
    metadata: {
      name: row.id,
      namespace,
      labels: {
        'app.kubernetes.io/managed-by': 'switchboard',
        'switchboard.dev/tenant': row.tenant_id,
        'switchboard.dev/conversation': row.conversation_id,
      },
    },
    spec: {
      triggerId: row.id,
      tenantId: row.tenant_id,
      conversationId: row.conversation_id,
      agentId: row.agent_id,
      task: row.task.slice(0, 1000),
      maxAttempts: row.max_attempts,
      expiresAt: row.expires_at.toISOString(),
    },
  };
}

/** Condition types, as a Job has them: each True while the phase says so. */
const PHASE_CONDITIONS: PhaseConditions = {
  Running: (p) => p === 'running',
  WaitingForReply: (p) => p === 'waiting_for_reply',
  Complete: (p) => p === 'succeeded',
  Failed: (p) => p === 'failed' || p === 'expired' || p === 'cancelled',
};

/** The status to mirror; conditions as `phaseConditions` keeps them. */
export function triggerStatus(row: TriggerRow, previous: Condition[] = [], now = new Date()): TriggerStatus {
  const message = row.error_message ?? row.waiting_reason ?? row.result_summary ?? '';
  const conditions = phaseConditions(PHASE_CONDITIONS, row.status, message, previous, now);
  return {
    phase: row.status,
    attempts: `${row.attempt_count}/${row.max_attempts}`,
    attemptCount: row.attempt_count,
    nextRunAt: row.next_run_at?.toISOString(),
    waitingReason: cut(row.waiting_reason, 1000),
    resultSummary: cut(row.result_summary, 1000),
    errorMessage: cut(row.error_message, 1000),
    completedAt: row.completed_at?.toISOString(),
    conditions,
  };
}

/**
 * Whether the mirrored status says something other than the desired one. Compared as values, not
 * text: the API server returns an object's keys in its own order (sorted, or as merged).
 */
export function statusDiffers(current: object | undefined, desired: object): boolean {
  return !isDeepStrictEqual(current, JSON.parse(JSON.stringify(desired)));
}
