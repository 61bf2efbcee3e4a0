// A campaign delivery as sent: the result or summary as its body, signed like webhooks, with the
// connection's sign-in header as it is now (a changed header applies to the next try).
import type { Ctx } from '../context.js';
import type { Outgoing } from '../webhooks/deliver.js';
import type { OutboxRow } from '../store/webhooks.js';
import { campaignById } from '../store/campaigns/campaigns.js';
import { getConnection, type ConnectionRow } from '../store/campaigns/connections.js';
import { runById } from '../store/campaigns/runs.js';
import { signInHeader } from './connections.js';

/** The connection a run's requests go through. */
export async function connectionOfRun(ctx: Pick<Ctx, 'db'>, runId: string): Promise<ConnectionRow> {
  const run = (await runById(ctx.db, runId))!;
  const campaign = await campaignById(ctx, run.campaign_id);
  return getConnection(ctx, campaign.tenant_id, campaign.connection_id);
}

export function campaignOutgoing(ctx: Pick<Ctx, 'db' | 'secrets'>, row: OutboxRow & { run_id: string }): Outgoing {
  return {
    id: row.id,
    type: row.type,
    tenantId: row.tenant_id,
    body: row.payload,
    headers: async () => signInHeader(ctx, await connectionOfRun(ctx, row.run_id)),
  };
}
