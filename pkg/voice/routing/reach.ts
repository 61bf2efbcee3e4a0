// Reaching a routing step: the call's handler changes and call.updated says so, in one transaction.
import type { Ctx } from '../../context.js';
import { parseAgentRef } from '../../ids.js';
import { updateCall, type CallRow } from '../../store/calls.js';
import { enqueueCallEvent } from '../events.js';
import type { RoutingStep } from './steps.js';

/** The call's handler (and agent) while it is on `step`. */
export function handlerOf(step: RoutingStep): { handler: string; agent_id?: string } {
  return step.type === 'ai' ? { handler: 'ai', agent_id: parseAgentRef(step.agent_id)! } : { handler: step.type };
}

export async function reachStep(ctx: Ctx, row: CallRow, patch: { handler: string; agent_id?: string }): Promise<CallRow> {
  return ctx.db.transaction(async (trx) => {
    const tx = { ...ctx, db: trx };
    const reached = await updateCall(tx, row.id, patch);
    await enqueueCallEvent(tx, reached, 'call.updated');
    return reached;
  });
}
