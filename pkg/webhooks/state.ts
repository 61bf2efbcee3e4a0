// The lifecycle of a webhook delivery (an outbox row), row by row. Code asks `transition(from,
// event)`; tests iterate over DELIVERY_TRANSITIONS. Rows not listed here do not happen. How many
// tries and how far apart is the event's delivery policy (policy.ts).
import { targetIn, type TableRow } from '../state-table.js';

const DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

type DeliveryEvent = 'enqueue' | 'delivered' | 'retry' | 'failed' | 'interrupted';

export type DeliveryTransition = TableRow<DeliveryStatus, DeliveryEvent>;

export const DELIVERY_TRANSITIONS: readonly DeliveryTransition[] = [
  {
    from: null,
    event: 'enqueue',
    to: 'pending',
    effect: 'written with the change it announces; goes after the earlier events of its ordering key',
  },
  { from: 'pending', event: 'delivered', to: 'delivered', effect: 'the receiver answered 2xx within the answer window' },
  { from: 'pending', event: 'retry', to: 'pending', effect: "no 2xx and tries left: due again after the policy's wait, same event id" },
  { from: 'pending', event: 'failed', to: 'failed', effect: 'no 2xx on the last try; the next event of its ordering key may go' },
  // The try counts from its start, so an event allowed one try is never sent twice.
  { from: 'pending', event: 'interrupted', to: 'failed', effect: "the last try's controller was lost before an answer" },
];

export const transition = (from: DeliveryStatus | null, event: DeliveryEvent): DeliveryStatus | null =>
  targetIn(DELIVERY_TRANSITIONS, from, event);

/** What a try's answer makes of its delivery: delivered on a 2xx, else retried while tries are left, else failed. */
export const afterTry = (answered2xx: boolean, triesLeft: boolean): 'delivered' | 'retry' | 'failed' =>
  answered2xx ? 'delivered' : triesLeft ? 'retry' : 'failed';
