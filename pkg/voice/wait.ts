// GET /v1/calls/{id}/result?wait=: hold the request until the result is final or the time runs out.
import type { Ctx } from '../context.js';
import { CHANNELS } from '../db/notify.js';
import { watchRow } from '../db/watch.js';
import { getCall } from '../store/calls/get.js';
import type { CallRow } from '../store/calls/row.js';

export function waitForFinal(ctx: Ctx, tenantId: string, id: string, seconds: number): Promise<CallRow> {
  return watchRow(ctx, {
    channel: CHANNELS.calls,
    id,
    seconds,
    read: () => getCall(ctx, tenantId, id),
    settled: (first) => first.final,
    changed: (_first, current) => current.final,
  });
}
