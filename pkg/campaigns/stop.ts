// Stopping a run: the one function the API, MCP and the CampaignRun annotation call. No new dials;
// calls on the line finish and send their results; people not yet finished stay without one and
// count as unfinished; the summary goes when the last call ends, two hours after the stop at the latest.
import type { Ctx } from '../context.js';
import { Conflict } from '../errors.js';
import { markUnfinished } from '../store/campaigns/contacts.js';
import { getRun, transitionRun, type RunRow } from '../store/campaigns/runs.js';
import { runMove } from './state.js';

export async function stopRun(ctx: Pick<Ctx, 'db' | 'clock'>, tenantId: string, runId: string): Promise<RunRow> {
  await getRun(ctx, tenantId, runId);
  return ctx.db.transaction(async (trx) => {
    const now = ctx.clock.now();
    const run = await transitionRun({ db: trx }, runId, runMove('stop'), { stopped_at: now, due_at: now });
    if (!run) throw new Conflict(`Campaign run ${runId} has ended`, 'run_ended');
    await markUnfinished(trx, runId);
    return run;
  });
}
