// What the controllers' sweep ends without a run, and the errorMessage each leaves on the job. A
// running job is swept only once its lease ran out (a live run applies its own deadline, run.ts);
// a wait only once its deadline (expiresAt) passed.
import type { TriggerSweep } from '../store/triggers/sweep.js';
import { TRANSITIONS, type TriggerEvent } from './state.js';

const SWEEP_EVENTS: readonly { event: TriggerEvent; passed: TriggerSweep['passed']; message: string }[] = [
  { event: 'interrupted', passed: 'lease_until', message: 'The run was interrupted: its worker stopped before finishing' },
  { event: 'follow_up_past_deadline', passed: 'expires_at', message: "The follow-up time is past the job's deadline (expiresAt)" },
  { event: 'deadline_passed', passed: 'expires_at', message: "No reply arrived before the job's deadline (expiresAt)" },
];

/** The state table's rows the sweep applies, one per status it ends jobs from. */
export const SWEEPS: readonly TriggerSweep[] = SWEEP_EVENTS.flatMap(({ event, passed, message }) =>
  TRANSITIONS.filter((t) => t.event === event && t.from !== null && (t.from === 'running') === (passed === 'lease_until')).map((t) => ({
    from: t.from!,
    event,
    to: t.to,
    passed,
    message,
  })),
);
