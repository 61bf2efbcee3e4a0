// What the controllers' sweep ends without a run, and the errorMessage each leaves on the job. A
// running job is swept only once its lease ran out (a live run applies its own deadline, run.ts);
// a wait only once its deadline (expiresAt) passed.
import { TRANSITIONS, type TriggerEvent, type TriggerStatus } from './state.js';

/** The time that must have passed: a running job's lease, or the job's deadline. */
type Passed = 'lease_until' | 'expires_at';

const SWEEP_EVENTS: readonly { event: TriggerEvent; passed: Passed; message: string }[] = [
  { event: 'interrupted', passed: 'lease_until', message: 'The run was interrupted: its worker stopped before finishing' },
  { event: 'follow_up_past_deadline', passed: 'expires_at', message: "The follow-up time is past the job's deadline (expiresAt)" },
  { event: 'deadline_passed', passed: 'expires_at', message: "No reply arrived before the job's deadline (expiresAt)" },
];

export interface Sweep {
  from: TriggerStatus;
  event: TriggerEvent;
  to: TriggerStatus;
  passed: Passed;
  message: string;
}

/** The state table's rows the sweep applies, one per status it ends jobs from. */
export const SWEEPS: readonly Sweep[] = SWEEP_EVENTS.flatMap(({ event, passed, message }) =>
  TRANSITIONS.filter((t) => t.event === event && t.from !== null && (t.from === 'running') === (passed === 'lease_until')).map((t) => ({
    from: t.from!,
    event,
    to: t.to,
    passed,
    message,
  })),
);
