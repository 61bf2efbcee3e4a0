// The trigger (job) lifecycle, row by row as the spec's table. Code asks `transition(from, event)`;
// tests iterate over TRANSITIONS. Rows not listed here do not happen.
import { sourcesIn, targetIn, type TableRow } from '../state-table.js';
import type { TriggerStatus } from '../store/triggers/row.js';
import type { StatusChange } from '../store/triggers/transition.js';

export const TERMINAL: ReadonlySet<TriggerStatus> = new Set(['succeeded', 'failed', 'expired', 'cancelled']);
/** Pending jobs count against the company's maxPendingAgentJobs per conversation (pending-cap.ts). */
export const PENDING: readonly TriggerStatus[] = ['queued', 'waiting', 'waiting_for_reply', 'running'];

export type TriggerEvent =
  | 'create'
  | 'create_deferred'
  | 'claim'
  | 'complete'
  | 'error'
  | 'schedule_retry'
  | 'schedule_retry_exhausted'
  | 'follow_up_due'
  | 'follow_up_past_deadline'
  | 'park'
  | 'reply'
  | 'deadline_passed'
  | 'cancel'
  | 'interrupted';

export type Transition = TableRow<TriggerStatus, TriggerEvent>;

export const TRANSITIONS: readonly Transition[] = [
  { from: null, event: 'create', to: 'queued', effect: '202 with ids' },
  { from: null, event: 'create_deferred', to: 'waiting', effect: 'nextRunAt set (UTC)' },
  { from: 'queued', event: 'claim', to: 'running', effect: 'attemptCount increments; one running job per conversation' },
  { from: 'running', event: 'complete', to: 'succeeded', effect: 'resultSummary holds the final result' },
  { from: 'running', event: 'error', to: 'failed', effect: 'errorMessage set; no automatic re-run' },
  { from: 'running', event: 'schedule_retry', to: 'waiting', effect: 'nextRunAt set; same triggerId and history' },
  { from: 'running', event: 'schedule_retry_exhausted', to: 'failed', effect: 'maxAttempts already reached' },
  { from: 'waiting', event: 'follow_up_due', to: 'running', effect: 'attemptCount increments; stored custom tools reloaded' },
  { from: 'waiting', event: 'follow_up_past_deadline', to: 'expired', effect: 'follow-up scheduled past expiresAt' },
  { from: 'running', event: 'park', to: 'waiting_for_reply', effect: 'waitingReason, waitingSince, waitPayload set' },
  { from: 'waiting_for_reply', event: 'reply', to: 'queued', effect: 'reply injected as system context' },
  { from: 'waiting_for_reply', event: 'deadline_passed', to: 'expired', effect: 'hard deadline passed' },
  { from: 'queued', event: 'cancel', to: 'cancelled', effect: 'reason stored in errorMessage' },
  { from: 'waiting', event: 'cancel', to: 'cancelled', effect: 'reason stored in errorMessage' },
  { from: 'waiting_for_reply', event: 'cancel', to: 'cancelled', effect: 'reason stored in errorMessage' },
  // DECISIONS.md: a run that outlives its deadline ends expired; a lost worker's run ends failed.
  { from: 'running', event: 'deadline_passed', to: 'expired', effect: 'run ended past expiresAt' },
  { from: 'running', event: 'interrupted', to: 'failed', effect: 'worker lost; never run twice' },
];

export const transition = (from: TriggerStatus | null, event: TriggerEvent): TriggerStatus | null => targetIn(TRANSITIONS, from, event);

export const canTransition = (from: TriggerStatus | null, event: TriggerEvent): boolean => transition(from, event) !== null;

export const sourcesOf = (event: TriggerEvent): TriggerStatus[] => sourcesIn(TRANSITIONS, event);

/** The status `event` leads to: every row of one event leads to one status (the state test checks it). */
export const targetOf = (event: TriggerEvent): TriggerStatus => transition(sourcesOf(event)[0]!, event)!;

/** `event` as the store writes it (applyTransition): from its rows' statuses to its one target. */
export const statusChange = (event: TriggerEvent): StatusChange => ({ event, from: sourcesOf(event), to: targetOf(event) });

export const isTerminal = (s: TriggerStatus): boolean => TERMINAL.has(s);
