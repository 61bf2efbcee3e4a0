// Every authenticated request is counted for usage reports and metrics, including those refused by a limit.
import type { Ctx } from '../../pkg/context.js';
import type { UsageRef } from '../../pkg/metering/meter.js';

export function meterRequest(ctx: Ctx, ref: UsageRef, refused: boolean): void {
  const labels = { tenant: ref.tenantId, key: ref.keyId, channel: ref.channel };
  ctx.metrics.apiRequests.inc(labels);
  if (refused) ctx.metrics.apiRequestsOverLimit.inc(labels);
  ctx.usage.countRequest(ref, refused);
}
