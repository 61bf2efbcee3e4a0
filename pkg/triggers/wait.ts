// Long polling (DECISIONS.md): hold a read until the job's status changes or the time runs out.
import type { Ctx } from '../context.js';
import { CHANNELS } from '../db/notify.js';
import { getTrigger, type TriggerRow } from '../store/triggers.js';
import { isTerminal } from './state.js';

export async function waitForStatusChange(ctx: Ctx, tenantId: string, id: string, seconds: number): Promise<TriggerRow> {
  if (seconds <= 0) return getTrigger(ctx, tenantId, id);
  // A notification that lands while a read is in flight must not be lost: it is remembered here.
  let signalled = false;
  let wake: () => void = () => {};
  const unsubscribe = await ctx.notifier.subscribe(CHANNELS.triggers, (payload) => {
    if (payload !== id && payload !== '') return;
    signalled = true;
    wake();
  });
  try {
    // Subscribed before this read, so no change after it can be missed.
    const first = await getTrigger(ctx, tenantId, id);
    // A finished job never changes again, so there is nothing to wait for.
    if (isTerminal(first.status)) return first;
    const deadline = Date.now() + seconds * 1000;
    let current = first;
    while (current.status === first.status && Date.now() < deadline) {
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
      current = await getTrigger(ctx, tenantId, id);
    }
    return current;
  } finally {
    unsubscribe();
  }
}
