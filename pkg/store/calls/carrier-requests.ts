// The carrier's requests about a call, each answered once: a request the carrier repeats (its answer lost
// on the way) gets the answer kept for it (pkg/voice/routing/carrier-repeats.ts).
import type { Knex } from 'knex';
import type { CarrierAnswer } from './row.js';

/** The carrier_answer of `request` taken at `now`, not answered yet. */
export const takenCarrierRequest = (request: string, now: Date): CarrierAnswer => ({ request, twiml: null, at: now.toISOString() });

/**
 * Takes the carrier's `request` about the call of `sid` to answer (`taken`) when it is not the call's last request,
 * or is that request still unanswered though taken before `takeOverBefore`; else `repeat`, or `unknown` when there is no such call.
 */
export async function takeCarrierRequest(
  db: Knex,
  sid: string,
  request: string,
  now: Date,
  takeOverBefore: Date,
): Promise<'taken' | 'repeat' | 'unknown'> {
  const taken = await db('calls')
    .where({ carrier_sid: sid })
    .where((q) =>
      q
        .whereRaw(`carrier_answer->>'request' is distinct from ?`, [request])
        .orWhereRaw(`carrier_answer->>'twiml' is null and (carrier_answer->>'at')::timestamptz < ?`, [takeOverBefore]),
    )
    .update({ carrier_answer: JSON.stringify(takenCarrierRequest(request, now)) });
  if (taken) return 'taken';
  return (await db('calls').where({ carrier_sid: sid }).first('id')) ? 'repeat' : 'unknown';
}

/** The answer kept for the carrier's `request` about the call of `sid`: its TwiML, null while it is answered, undefined when it is no longer the last request. */
export async function carrierAnswerOf(db: Knex, sid: string, request: string): Promise<string | null | undefined> {
  const row = await db('calls').where({ carrier_sid: sid }).first('carrier_answer');
  const kept = row?.carrier_answer as CarrierAnswer | null | undefined;
  return kept?.request === request ? kept.twiml : undefined;
}

/** Keeps `twiml` as the answer to the carrier's `request` about the call of `sid`, unless a later request was taken meanwhile. */
export async function keepCarrierAnswer(db: Knex, sid: string, request: string, twiml: string, now: Date): Promise<void> {
  await db('calls')
    .where({ carrier_sid: sid })
    .whereRaw(`carrier_answer->>'request' = ?`, [request])
    .update({ carrier_answer: JSON.stringify({ request, twiml, at: now.toISOString() } satisfies CarrierAnswer) });
}

/** Forgets the carrier's `request` about the call of `sid` (its answer failed), so a repeat is answered anew. */
export async function forgetCarrierRequest(db: Knex, sid: string, request: string): Promise<void> {
  await db('calls').where({ carrier_sid: sid }).whereRaw(`carrier_answer->>'request' = ?`, [request]).update({ carrier_answer: null });
}
