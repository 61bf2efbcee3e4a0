// The call reconciler: dials queued calls and follows them to their end through the gateway, makes
// ended calls final (summary, result, events), fails calls whose controller was lost, and hangs up
// calls past their max duration.
import { CHANNELS } from '../pkg/db/notify.js';
import { claimDueCall, heartbeatCalls, nextCallDue, releaseCalls } from '../pkg/store/calls.js';
import type { Gateway } from '../pkg/voice/gateways/index.js';
import { runCall } from '../pkg/voice/run.js';
import { answerCall } from '../pkg/voice/routing/answer.js';
import { sweepCallDeadlines } from '../pkg/voice/sweep.js';
import { claimOneByOne, type Reconciler } from './manager.js';

/** `concurrency`: calls one replica conducts at once; each holds its place for the whole call. */
export function callsReconciler(gateway: Gateway, concurrency: number): Reconciler {
  return {
    name: 'calls',
    channel: CHANNELS.calls,
    concurrency,
    // A call's own changes are its run's to act on (hang-ups and steering reach it on its own subscription); its end wakes the loop.
    quietWhileRunning: true,
    sweep: sweepCallDeadlines,
    claim: claimOneByOne(async (ctx, owner, leaseMs) => {
      const row = await claimDueCall(ctx, owner, leaseMs);
      const run = row?.direction === 'inbound' && row.status === 'ringing' ? answerCall : runCall;
      return row && { id: row.id, run: () => run(ctx, gateway, row, owner) };
    }, nextCallDue),
    async heartbeat(ctx, ids, owner, leaseMs) {
      const live = await heartbeatCalls(ctx, ids, owner, leaseMs);
      // The slot lease follows the call's: a replica that stops heartbeating lets both run out.
      await ctx.callLimits.renewSlots(live);
    },
    release: releaseCalls,
  };
}
