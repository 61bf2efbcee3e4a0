// The heartbeat of the calls a process conducts (a controller's, a relay socket's): their leases kept alive,
// and the account slots of those still live with them.
import type { Ctx } from '../context.js';
import { heartbeatCalls } from '../store/calls/heartbeat.js';
import { isLive, ON_THE_LINE } from './state.js';

export async function heartbeatConductedCalls(
  ctx: Pick<Ctx, 'db' | 'clock' | 'callLimits'>,
  ids: string[],
  owner: string,
  leaseMs: number,
): Promise<void> {
  const renewed = await heartbeatCalls(ctx, ids, owner, leaseMs, ON_THE_LINE);
  // The slot lease follows the call's: a replica that stops heartbeating lets both run out.
  await ctx.callLimits.renewSlots(renewed.filter((call) => isLive(call.status)));
}
