// Scheduled starts: a campaign whose next start has come gets a run (unless one is active) and its
// following start, in one transaction, so a start happens once however many replicas look.
import type { Ctx } from '../context.js';
import { Conflict } from '../errors.js';
import type { CampaignRow } from '../store/campaigns/campaigns.js';
import { updateCampaignRow } from '../store/campaigns/campaigns.js';
import { nextScheduledStart } from './hours.js';
import { insertRunOf } from './start.js';

export async function startScheduledRuns(ctx: Ctx): Promise<void> {
  for (;;) {
    const started = await ctx.db.transaction(async (trx) => {
      const now = ctx.clock.now();
      const campaign: CampaignRow | undefined = await trx('campaigns')
        .where('next_start_at', '<=', now)
        .whereNull('archived_at')
        .orderBy('next_start_at')
        .forUpdate()
        .skipLocked()
        .first();
      if (!campaign) return false;
      await updateCampaignRow({ db: trx }, campaign.id, { next_start_at: nextScheduledStart(campaign.schedule!, now) });
      try {
        await insertRunOf(ctx, trx, campaign, null);
      } catch (err) {
        if (!(err instanceof Conflict)) throw err;
        ctx.log.warn({ campaignId: campaign.id }, 'scheduled start skipped: the campaign still has an active run');
      }
      return true;
    });
    if (!started) return;
  }
}
