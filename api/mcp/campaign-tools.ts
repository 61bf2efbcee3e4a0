// The MCP tools of campaigns: list them, start a run (or a test run), read a run, stop it — the
// same domain functions and schemas as the REST routes.
import { z } from 'zod';
import type { Ctx } from '../../pkg/context.js';
import { campaignView, requireCampaignFeatures } from '../../pkg/campaigns/campaigns.js';
import { startRun } from '../../pkg/campaigns/start.js';
import { stopRun } from '../../pkg/campaigns/stop.js';
import { runRecord } from '../../pkg/campaigns/views.js';
import { listCampaigns } from '../../pkg/store/campaigns/campaigns.js';
import { getRun } from '../../pkg/store/campaigns/runs.js';
import type { Tenant } from '../../pkg/store/tenants.js';
import { parseVoice } from '../voice/parse.js';
import { startRunBody } from '../voice/campaign-schemas.js';
import { mcpTool, type McpTool } from './tool.js';

const runId = z.object({ run_id: z.string().min(1).max(64).meta({ description: 'The campaign run id (run_…)' }) }).strict();

/** The campaign tools of `tenant`'s account, refused while it has not the campaign features. */
export function campaignTools(ctx: Ctx, tenant: Tenant): Record<string, McpTool> {
  const gated =
    <A>(fn: (args: A) => Promise<Record<string, unknown>>) =>
    async (args: A) => {
      requireCampaignFeatures(tenant);
      return fn(args);
    };
  return {
    list_campaigns: mcpTool({
      description: "List the account's campaigns (GET /v1/campaigns).",
      inputSchema: z.object({}).strict(),
      annotations: { readOnlyHint: true },
      handler: gated(async () => ({ data: (await listCampaigns(ctx, tenant.id)).map(campaignView) })),
    }),
    start_campaign_run: mcpTool({
      description:
        'Start a run of a campaign now (POST /v1/campaigns/{id}/runs); with test and test_number, a test run calling only that number.',
      inputSchema: z
        .object({ campaign_id: z.string().min(1).max(64), test: z.boolean().optional(), test_number: z.string().min(1).max(64).optional() })
        .strict(),
      handler: gated(async ({ campaign_id, ...body }) => {
        const started = await startRun(ctx, tenant, campaign_id, parseVoice(startRunBody, body, 'run'));
        return runRecord(ctx, started);
      }),
    }),
    get_campaign_run: mcpTool({
      description: 'Read a campaign run with its counts (GET /v1/campaign-runs/{id}).',
      inputSchema: runId,
      annotations: { readOnlyHint: true },
      handler: gated(async ({ run_id }) => runRecord(ctx, await getRun(ctx, tenant.id, run_id))),
    }),
    stop_campaign_run: mcpTool({
      description: 'Stop a campaign run (POST /v1/campaign-runs/{id}/stop): no new dials, calls on the line finish.',
      inputSchema: runId,
      annotations: { destructiveHint: true },
      handler: gated(async ({ run_id }) => runRecord(ctx, await stopRun(ctx, tenant.id, run_id))),
    }),
  };
}
