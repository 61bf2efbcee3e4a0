// A call arrives on a number: it is stored ringing, with call.initiated, and a controller picks it up.
import type { Ctx } from '../../context.js';
import { Unprocessable } from '../../errors.js';
import { prefixedId } from '../../ids.js';
import { insertCall, type CallRow } from '../../store/calls.js';
import { findNumber } from '../../store/phone-numbers.js';
import type { CallerScript } from '../gateways/index.js';
import { enqueueCallEvent } from '../events.js';

interface Arrival {
  /** One of the tenant's numbers (E.164). */
  to: string;
  /** The caller (E.164). */
  from: string;
  /** The simulated caller's script; null for a real caller. */
  caller: CallerScript | null;
}

/**
 * Stores the call ringing on `to`, for the account that has the number (when `account` is given, only
 * one of its own numbers). Inbound calls take no outgoing slot.
 */
export async function ringIn(ctx: Ctx, arrival: Arrival, account?: string): Promise<CallRow> {
  const tenantId = (await findNumber(ctx.db, arrival.to))?.tenantId;
  if (!tenantId || (account !== undefined && tenantId !== account)) {
    throw new Unprocessable(`to: ${arrival.to} is not one of the account's numbers (GET /v1/numbers)`, 'invalid_to');
  }
  return ctx.db.transaction(async (trx) => {
    const now = ctx.clock.now();
    const call = await insertCall(trx, {
      id: prefixedId('cal'),
      tenant_id: tenantId,
      direction: 'inbound',
      from_number: arrival.from,
      to_number: arrival.to,
      status: 'ringing',
      channel: 'phone',
      sim_caller: arrival.caller,
      created_at: now,
      updated_at: now,
      ringing_at: now,
      due_at: now,
    });
    await enqueueCallEvent({ ...ctx, db: trx }, call, 'call.initiated');
    return call;
  });
}
