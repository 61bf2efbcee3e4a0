// GET /v1/calls/{id}/result?wait=: hold the request until the result is final or the time runs out.
import type { Ctx } from '../context.js';
import { CHANNELS } from '../db/notify.js';
import { getCall, type CallRow } from '../store/calls.js';

export async function waitForFinal(ctx: Ctx, tenantId: string, id: string, seconds: number): Promise<CallRow> {
  const first = await getCall(ctx, tenantId, id);
  if (seconds <= 0 || first.final) return first;
  // A notification that lands while a read is in flight must not be lost: it is remembered here.
  let signalled = false;
  let wake: () => void = () => {};
  const unsubscribe = await ctx.notifier.subscribe(CHANNELS.calls, (payload) => {
    if (payload !== id && payload !== '') return;
    signalled = true;
    wake();
  });
  try {
    const deadline = Date.now() + seconds * 1000;
    // Subscribed before this read, so no change between the two can be missed.
    let current = await getCall(ctx, tenantId, id);
    while (!current.final && Date.now() < deadline) {
      if (!signalled) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, deadline - Date.now());
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
      signalled = false;
      current = await getCall(ctx, tenantId, id);
    }
    return current;
  } finally {
    unsubscribe();
  }
}
