// The lifecycle of a campaign run (voice spec "Campaign run"), row by row, and of each person in it.
// Code asks `runTransition(from, event)`; tests iterate over RUN_TRANSITIONS.
import { sourcesIn, targetIn, type TableRow } from '../state-table.js';

export const RUN_STATUSES = ['running', 'done', 'stopped', 'failed'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

export type RunEvent = 'start' | 'list_failed' | 'stop' | 'finished';

export const RUN_TRANSITIONS: readonly TableRow<RunStatus, RunEvent>[] = [
  {
    from: null,
    event: 'start',
    to: 'running',
    effect: 'scheduled start on a campaign day, Run now or a test run; the list is requested once',
  },
  {
    from: 'running',
    event: 'list_failed',
    to: 'failed',
    effect: 'nobody is called; run.error set; summary with contacts.total 0; the list request is not retried',
  },
  {
    from: 'running',
    event: 'stop',
    to: 'stopped',
    effect: 'no new dials; summary when the last calls end, or two hours after the stop at the latest',
  },
  {
    from: 'running',
    event: 'finished',
    to: 'done',
    effect: 'every person finished and every result taken or given up; summary sent at once',
  },
];

export const runTransition = (from: RunStatus | null, event: RunEvent): RunStatus | null => targetIn(RUN_TRANSITIONS, from, event);
export const runSourcesOf = (event: RunEvent): RunStatus[] => sourcesIn(RUN_TRANSITIONS, event);

/** What `event` does to a run in a conditional update: the statuses it is allowed from, and where it leads. */
export function runMove(event: RunEvent): { from: RunStatus[]; to: RunStatus } {
  const from = runSourcesOf(event);
  return { from, to: runTransition(from[0]!, event)! };
}

/** A person of a run: waiting for a (next) attempt, on a call, or finished with a result (or, after a stop, without one). */
export const CONTACT_STATUSES = ['pending', 'calling', 'done', 'no_answer', 'skipped', 'unfinished'] as const;
export type ContactStatus = (typeof CONTACT_STATUSES)[number];

export const SKIP_REASONS = ['do_not_call', 'outside_limits', 'outside_hours', 'invalid_phone', 'invalid_context', 'not_allowed'] as const;
export type SkipReason = (typeof SKIP_REASONS)[number];
