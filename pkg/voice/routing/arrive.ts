// A call arrives on a number: it is stored ringing, with call.initiated, and a controller picks it up.
import type { Ctx } from '../../context.js';
import { Unprocessable } from '../../errors.js';
import { prefixedId } from '../../ids.js';
import { takenCarrierRequest } from '../../store/calls/carrier-requests.js';
import { insertCall } from '../../store/calls/insert.js';
import type { CallRow } from '../../store/calls/row.js';
import { findNumber } from '../../store/phone-numbers.js';
import type { CallerScript } from '../gateways/index.js';
import { enqueueCallEvent } from '../events.js';
import { arrivingCall } from '../state.js';

interface Arrival {
  /** One of the tenant's numbers (E.164). */
  to: string;
  /** The caller (E.164). */
  from: string;
  /** The simulated caller's script; null for a real caller. */
  caller: CallerScript | null;
  /** A call the carrier's voice webhook answers: no controller picks it up before `until`. */
  carried?: Carried;
}

/** A call ringing in through a carrier: its sid, who takes it, when it is due if nobody bound it, and the request ringing it in. */
export interface Carried {
  carrierSid: string;
  agentId: string | null;
  greeting: string | null;
  until: Date;
  /** The carrier's request (carrier-repeats.ts), taken with the call: a repeat of it on another replica waits for its answer. */
  request: string;
}

/**
 * Stores the call ringing on `to`, for the tenant that has the number (when `tenantId` is given, only
 * one of its own numbers). Inbound calls take no outgoing slot.
 */
export async function ringIn(ctx: Ctx, arrival: Arrival, tenantId?: string): Promise<CallRow> {
  const owner = (await findNumber(ctx.db, arrival.to))?.tenantId;
  if (!owner || (tenantId !== undefined && owner !== tenantId)) {
    throw new Unprocessable(`to: ${arrival.to} is not one of the account's numbers (GET /v1/numbers)`, 'invalid_to');
  }
  return ctx.db.transaction(async (trx) => {
    const now = ctx.clock.now();
    const call = await insertCall(trx, {
      ...arrivingCall(now),
      id: prefixedId('cal'),
      tenant_id: owner,
      from_number: arrival.from,
      to_number: arrival.to,
      channel: 'phone',
      sim_caller: arrival.caller,
      ...(arrival.carried && {
        carrier_sid: arrival.carried.carrierSid,
        agent_id: arrival.carried.agentId,
        greeting: arrival.carried.greeting,
        // Held as if leased, so the controllers leave it to the carrier until then.
        lease_until: arrival.carried.until,
        due_at: arrival.carried.until,
        carrier_answer: takenCarrierRequest(arrival.carried.request, now),
      }),
    });
    await enqueueCallEvent({ ...ctx, db: trx }, call, 'call.initiated');
    return call;
  });
}
