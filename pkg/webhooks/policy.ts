// How each class of event is delivered (voice spec "Delivery rules", DECISIONS.md "A few seconds"):
// how many tries, the wait before each retry, and how long a receiver has to answer. Every sender
// and the retry computation read this table.
import type { Config } from '../config.js';

const SECOND = 1000;
const MINUTE = 60 * SECOND;

export type EventClass = 'call_event' | 'call_result' | 'message' | 'message_test' | 'campaign' | 'routing_step';

export interface DeliveryPolicy {
  /** Tries before giving up, the first one included. */
  tries: number;
  /** The wait before each retry in ms, in order; the last one repeats until the tries are spent. */
  retryAfterMs: readonly number[];
  /** A try not answered 2xx within this fails. */
  answerWindowMs: number;
}

/** The policy of each class; message.created's retries are SWITCHBOARD_WEBHOOK_RETRY_SEC apart (5 unless set). */
export function deliveryPolicies(config: Pick<Config, 'SWITCHBOARD_WEBHOOK_RETRY_SEC'>): Readonly<Record<EventClass, DeliveryPolicy>> {
  const messageRetryMs = config.SWITCHBOARD_WEBHOOK_RETRY_SEC * SECOND;
  return {
    // Sent once, not resent after a failure: for placed calls the result endpoint holds the result.
    call_event: { tries: 1, retryAfterMs: [], answerWindowMs: 5 * SECOND },
    call_result: { tries: 1, retryAfterMs: [], answerWindowMs: 5 * SECOND },
    message: { tries: 3, retryAfterMs: [messageRetryMs], answerWindowMs: 5 * SECOND },
    // The console's test of the message webhook: sent at once, its answer shown.
    message_test: { tries: 1, retryAfterMs: [], answerWindowMs: 5 * SECOND },
    // Campaign results and summaries (delivery rule 5): resent after 1, 2, 4 and 8 minutes, then every
    // 15, for an hour: tries at 0, 1, 3, 7, 15, 30, 45 and 60 minutes.
    campaign: { tries: 8, retryAfterMs: [1, 2, 4, 8, 15].map((m) => m * MINUTE), answerWindowMs: 10 * SECOND },
    // A routing webhook step (DECISIONS.md "Routing"): the caller waits, so one try, 3 s, then the fallback.
    routing_step: { tries: 1, retryAfterMs: [], answerWindowMs: 3 * SECOND },
  };
}

/** The class of an event type: by its whole name, else by the part before its first dot (`call.ended`: `call`). */
const CLASS_OF_TYPE: ReadonlyMap<string, EventClass> = new Map([
  ['call.result', 'call_result'],
  ['call.routing', 'routing_step'],
  ['message.created', 'message'],
  ['message.test', 'message_test'],
  // A passcode is good for minutes: retried like a message, not given up after one try.
  ['contact.verification_requested', 'message'],
  ['campaign', 'campaign'],
  ['call', 'call_event'],
  ['queue', 'call_event'],
  ['ai', 'call_event'],
  // invoice.finalized goes to the events address with the call events' policy (DECISIONS.md "Invoices").
  ['invoice', 'call_event'],
]);

export function eventClassOf(type: string): EventClass {
  const found = CLASS_OF_TYPE.get(type) ?? CLASS_OF_TYPE.get(type.split('.')[0]!);
  if (!found) throw new Error(`No delivery policy for the event type ${type}`);
  return found;
}

export const deliveryPolicy = (config: Pick<Config, 'SWITCHBOARD_WEBHOOK_RETRY_SEC'>, type: string): DeliveryPolicy =>
  deliveryPolicies(config)[eventClassOf(type)];

/** The wait before trying again after `tries` failed tries (at least one, fewer than the policy's). */
export const retryAfterMs = (policy: DeliveryPolicy, tries: number): number =>
  policy.retryAfterMs[Math.min(tries, policy.retryAfterMs.length) - 1]!;
