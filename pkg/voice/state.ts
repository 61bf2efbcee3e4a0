// The call lifecycle (DECISIONS.md), row by row. Code asks `transition(from, event)`; tests iterate
// over TRANSITIONS. Rows not listed here do not happen. A placed call starts queued; a call arriving
// on a number starts ringing (DECISIONS.md "Inbound call states").
import { sourcesIn, targetIn } from '../state-table.js';

export const CALL_STATUSES = ['queued', 'ringing', 'in-progress', 'completed', 'no-answer', 'busy', 'failed', 'canceled'] as const;
export type CallStatus = (typeof CALL_STATUSES)[number];

/** A live call is dialled or on the line; every other status is ended and never changes again. */
export const LIVE: readonly CallStatus[] = ['queued', 'ringing', 'in-progress'];
export const ENDED: readonly CallStatus[] = ['completed', 'no-answer', 'busy', 'failed', 'canceled'];

export type CallEvent = 'ring' | 'answer' | 'busy' | 'no_answer' | 'fail' | 'cancel' | 'hang_up' | 'interrupted';

interface CallTransition {
  from: CallStatus;
  event: CallEvent;
  to: CallStatus;
  effect: string;
}

export const CALL_TRANSITIONS: readonly CallTransition[] = [
  { from: 'queued', event: 'ring', to: 'ringing', effect: 'call.initiated' },
  { from: 'ringing', event: 'answer', to: 'in-progress', effect: 'answered_at set; call.answered, call.updated (handler ai, or an inbound call\'s first step)' },
  { from: 'ringing', event: 'busy', to: 'busy', effect: 'call.ended' },
  // A carrier reports busy (and may report no answer) without a ringing report first.
  { from: 'queued', event: 'busy', to: 'busy', effect: 'call.ended' },
  { from: 'queued', event: 'no_answer', to: 'no-answer', effect: 'call.ended' },
  { from: 'ringing', event: 'no_answer', to: 'no-answer', effect: 'call.ended; inbound: the number has no routing' },
  { from: 'queued', event: 'fail', to: 'failed', effect: 'call.ended; the network refused the call' },
  { from: 'ringing', event: 'fail', to: 'failed', effect: 'call.ended' },
  { from: 'queued', event: 'cancel', to: 'canceled', effect: 'hung up by API before answer; call.ended' },
  { from: 'ringing', event: 'cancel', to: 'canceled', effect: 'hung up by API before answer; call.ended' },
  { from: 'in-progress', event: 'hang_up', to: 'completed', effect: 'caller, agent, API or max_duration_sec; call.ended' },
  { from: 'in-progress', event: 'fail', to: 'failed', effect: 'the agent could not go on; call.ended' },
  // A controller replica that stops heartbeating loses the line with it: never dialled twice.
  { from: 'queued', event: 'interrupted', to: 'failed', effect: 'lease lost; call.ended' },
  { from: 'ringing', event: 'interrupted', to: 'failed', effect: 'lease lost; call.ended' },
  { from: 'in-progress', event: 'interrupted', to: 'failed', effect: 'lease lost; call.ended' },
];

export const transition = (from: CallStatus, event: CallEvent): CallStatus | null => targetIn(CALL_TRANSITIONS, from, event);

export const sourcesOf = (event: CallEvent): CallStatus[] => sourcesIn(CALL_TRANSITIONS, event);

export const isLive = (s: CallStatus): boolean => LIVE.includes(s);
