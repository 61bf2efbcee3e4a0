// Long polling (DECISIONS.md): hold a read until the job's status changes or the time runs out.
import type { Ctx } from '../context.js';
import { CHANNELS } from '../db/notify.js';
import { watchRow } from '../db/watch.js';
import { getTrigger } from '../store/triggers/get.js';
import type { TriggerRow } from '../store/triggers/row.js';
import { isTerminal } from './state.js';

export function waitForStatusChange(ctx: Ctx, tenantId: string, id: string, seconds: number): Promise<TriggerRow> {
  return watchRow(ctx, {
    channel: CHANNELS.triggers,
    id,
    seconds,
    read: () => getTrigger(ctx, tenantId, id),
    // A finished job never changes again.
    settled: (first) => isTerminal(first.status),
    changed: (first, current) => current.status !== first.status,
  });
}
