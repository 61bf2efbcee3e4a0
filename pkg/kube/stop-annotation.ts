// `switchboard.dev/stop: "true"` on a CampaignRun: the API's stop, once; a run that has ended is left as it is.
import type { Ctx } from '../context.js';
import { stopRun } from '../campaigns/stop.js';
import { Conflict } from '../errors.js';
import type { RunRow } from '../store/campaigns/runs.js';
import type { CampaignRunCR } from './campaign-run-cr.js';
import type { Condition } from './trigger-cr.js';

const STOP_ANNOTATION = 'switchboard.dev/stop';

/** Stops the run of an annotated CR; the refusal as a `StopRefused` condition to report, else null. */
export async function applyStopAnnotation(ctx: Ctx, run: RunRow, cr: CampaignRunCR): Promise<Condition | null> {
  if (cr.metadata.annotations?.[STOP_ANNOTATION] !== 'true' || run.status === 'stopped') return null;
  if (cr.status?.conditions?.some((c) => c.type === 'StopRefused' && c.status === 'True')) return null;
  try {
    await stopRun(ctx, run.tenant_id, run.id);
    return null;
  } catch (err) {
    if (!(err instanceof Conflict)) throw err;
    return {
      type: 'StopRefused',
      status: 'True',
      reason: 'RunEnded',
      message: err.message,
      lastTransitionTime: ctx.clock.now().toISOString(),
    };
  }
}
