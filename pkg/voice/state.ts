// The call lifecycle (DECISIONS.md), row by row. Code asks `transition(from, event)`; tests iterate
// over CALL_TRANSITIONS. Rows not listed here do not happen. A placed call starts queued; a call arriving
// on a number starts ringing (DECISIONS.md "Inbound call states"). Beside the table: what code asks
// of a status, how the network's report of a call's end maps to an event, and the row a call starts as.
import { sourcesIn, targetIn, type TableRow } from '../state-table.js';
import type { CallRow, CallStatus } from '../store/calls/row.js';
import type { ClaimableCalls } from '../store/calls/claim.js';
import type { CallMove } from '../store/calls/transition.js';
import type { EndCause } from './gateways/gateway.js';

/** A live call is dialled or on the line; every other status is ended and never changes again. */
export const LIVE: readonly CallStatus[] = ['queued', 'ringing', 'in-progress'];
export const ENDED: readonly CallStatus[] = ['completed', 'no-answer', 'busy', 'failed', 'canceled'];
/** Live and not answered yet: hung up, the call is canceled. */
export const UNANSWERED: readonly CallStatus[] = ['queued', 'ringing'];
/** Answered and not ended: the call is on the line. */
export const ON_THE_LINE: readonly CallStatus[] = ['in-progress'];

export type CallEvent = 'ring' | 'answer' | 'busy' | 'no_answer' | 'fail' | 'cancel' | 'hang_up' | 'interrupted';
/** How a call comes to be: placed (the API, a campaign) or arriving on a number. */
type CallCreation = 'place' | 'arrive';

export const CALL_TRANSITIONS: readonly TableRow<CallStatus, CallEvent | CallCreation>[] = [
  { from: null, event: 'place', to: 'queued', effect: '201 (API) or the contact calling (campaign); due to a controller at once' },
  { from: null, event: 'arrive', to: 'ringing', effect: 'call.initiated; due to a controller at once, or held for the carrier' },
  { from: 'queued', event: 'ring', to: 'ringing', effect: 'call.initiated' },
  {
    from: 'ringing',
    event: 'answer',
    to: 'in-progress',
    effect: "answered_at set; call.answered, call.updated (handler ai, or an inbound call's first step)",
  },
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

/** The statuses `event` moves a call from and the one it moves it to (one for every source: the state test checks it). */
export function moveOf(event: CallEvent): CallMove {
  const from = sourcesOf(event);
  return { from, to: transition(from[0]!, event)! };
}

const createdAs = (creation: CallCreation): CallStatus => targetIn(CALL_TRANSITIONS, null, creation)!;

export const isLive = (s: CallStatus): boolean => LIVE.includes(s);
export const isEnded = (s: CallStatus): boolean => ENDED.includes(s);
export const isUnanswered = (s: CallStatus): boolean => UNANSWERED.includes(s);
export const isOnTheLine = (s: CallStatus): boolean => ON_THE_LINE.includes(s);
/** Not reported ringing yet (a placed call's first status). */
export const notRungYet = (s: CallStatus): boolean => sourcesOf('ring').includes(s);
/** An inbound call still ringing as it arrived: a controller picks it up (a placed one it dials). */
export const isArriving = (row: Pick<CallRow, 'direction' | 'status'>): boolean =>
  row.direction === 'inbound' && row.status === createdAs('arrive');
/** Hanging up a live call: on the line it completes, before answer it is canceled. */
export const hangUpEvent = (s: CallStatus): CallEvent => (isOnTheLine(s) ? 'hang_up' : 'cancel');

/** What the call controllers claim: a placed call to dial, an arriving call to pick up, an ended call to make final. */
export const CLAIMABLE: ClaimableCalls = { toDial: createdAs('place'), toPickUp: createdAs('arrive'), toFinalize: ENDED };

/**
 * How the network reports a call's end, each with the event it applies: the line's EndCause, a carrier's
 * final CallStatus or DialCallStatus (https://www.twilio.com/docs/voice/api/call-resource#call-status-values).
 * A carrier's `completed` is not here: it ends an answered call, and one not answered yet no-answer.
 */
const END_REPORTS = {
  busy: 'busy',
  'no-answer': 'no_answer',
  failed: 'fail',
  canceled: 'cancel',
  callee_hangup: 'hang_up',
  caller_hangup: 'hang_up',
} as const satisfies Record<EndCause | 'canceled', CallEvent>;

/** The event the network's `report` of a call's end applies; null when it is no such report. */
export function endEventOf(report: EndCause): CallEvent;
export function endEventOf(report: string): CallEvent | null;
export function endEventOf(report: string): CallEvent | null {
  return Object.hasOwn(END_REPORTS, report) ? END_REPORTS[report as keyof typeof END_REPORTS] : null;
}

/** The status a call not answered yet ends in on the network's `report`; null when the report does not end one (a hang-up ends an answered call). */
export function unansweredEnd(report: string): CallStatus | null {
  const event = endEventOf(report);
  return CALL_TRANSITIONS.find((t) => t.event === event && t.from !== null && isUnanswered(t.from))?.to ?? null;
}

/** The row a placed call (the API's, a campaign's) starts as at `now`. */
export const placedCall = (now: Date) =>
  ({ direction: 'outbound', status: createdAs('place'), created_at: now, updated_at: now, due_at: now }) satisfies Partial<CallRow>;

/** The row a call arriving on a number starts as at `now`. */
export const arrivingCall = (now: Date) =>
  ({
    direction: 'inbound',
    status: createdAs('arrive'),
    created_at: now,
    updated_at: now,
    ringing_at: now,
    due_at: now,
  }) satisfies Partial<CallRow>;
