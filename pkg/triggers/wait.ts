// Long polling (DECISIONS.md): hold a read until the job's status changes or the time runs out.
import type { Ctx } from '../context.js';
import { CHANNELS } from '../db/notify.js';
import { getTrigger, type TriggerRow } from '../store/triggers.js';

export async function waitForStatusChange(ctx: Ctx, tenantId: string, id: string, seconds: number): Promise<TriggerRow> {
  const first = await getTrigger(ctx, tenantId, id);
  if (seconds <= 0) return first;
  let wake: () => void = () => {};
  const unsubscribe = await ctx.notifier.subscribe(CHANNELS.triggers, (payload) => {
    if (payload === id || payload === '') wake();
  });
  try {
    const deadline = Date.now() + seconds * 1000;
    // Subscribed before this read, so no change between the two can be missed.
    let current = await getTrigger(ctx, tenantId, id);
    while (current.status === first.status && Date.now() < deadline) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, deadline - Date.now());
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      current = await getTrigger(ctx, tenantId, id);
    }
    return current;
  } finally {
    unsubscribe();
  }
}
