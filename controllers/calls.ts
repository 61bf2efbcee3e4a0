// The call reconciler: dials queued calls and follows them to their end through the gateway, makes
// ended calls final (summary, result, events), fails calls whose controller was lost, and hangs up
// calls past their max duration.
import { CHANNELS } from '../pkg/db/notify.js';
import { claimDueCall, nextCallDue } from '../pkg/store/calls/claim.js';
import { releaseCalls } from '../pkg/store/calls/release.js';
import { heartbeatConductedCalls } from '../pkg/voice/heartbeat.js';
import type { Gateway } from '../pkg/voice/gateways/index.js';
import { runCall } from '../pkg/voice/run.js';
import { answerCall } from '../pkg/voice/routing/answer.js';
import { sweepCallDeadlines } from '../pkg/voice/sweep.js';
import { CLAIMABLE, isArriving } from '../pkg/voice/state.js';
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
      const row = await claimDueCall(ctx, owner, leaseMs, CLAIMABLE);
      const run = row && isArriving(row) ? answerCall : runCall;
      return row && { id: row.id, run: () => run(ctx, gateway, row, owner) };
    }, nextCallDue),
    heartbeat: heartbeatConductedCalls,
    release: releaseCalls,
  };
}
