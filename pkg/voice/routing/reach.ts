// Reaching a routing step: the call's handler changes and call.updated says so, in one transaction.
import type { Ctx } from '../../context.js';
import { parseAgentRef } from '../../ids.js';
import type { CallPatch, CallRow } from '../../store/calls/row.js';
import { updateCallWhile } from '../../store/calls/update.js';
import { enqueueCallEvent } from '../events.js';
import { LIVE } from '../state.js';
import type { RoutingStep } from './steps.js';

/** The call's handler (and agent, and the voice it names) while it is on `step`. */
export function handlerOf(step: RoutingStep): { handler: string; agent_id?: string; voice?: string | null } {
  return step.type === 'ai'
    ? { handler: 'ai', agent_id: parseAgentRef(step.agent_id)!, voice: step.voice ?? null }
    : { handler: step.type };
}

/** Null when the call ended meanwhile (the caller hung up while a webhook step was asked): nothing is changed or announced. */
export async function reachStep(ctx: Ctx, row: CallRow, patch: CallPatch & { handler: string }): Promise<CallRow | null> {
  return ctx.db.transaction(async (trx) => {
    const tx = { ...ctx, db: trx };
    const reached = await updateCallWhile(tx, row.id, LIVE, patch);
    if (reached) await enqueueCallEvent(tx, reached, 'call.updated');
    return reached;
  });
}
