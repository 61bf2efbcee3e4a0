// Campaigns, their runs and the connections they use, for the console: read by everyone, changed,
// run and stopped by members through the Voice API's own functions and schemas; each change audited.
// A sign-in header's value is write-only, as on /v1/connections.
import { Router, type RequestHandler } from 'express';
import type { Ctx } from '../../pkg/context.js';
import { audit, inTransaction } from '../../pkg/console/audit.js';
import type { Role } from '../../pkg/console/roles.js';
import { archiveCampaign, campaignView, createCampaign, requireCampaignFeatures, updateCampaign } from '../../pkg/campaigns/campaigns.js';
import { connectionView, createConnection, deleteConnection, updateConnection } from '../../pkg/campaigns/connections.js';
import { runResults } from '../../pkg/campaigns/results-page.js';
import { startRun } from '../../pkg/campaigns/start.js';
import { stopRun } from '../../pkg/campaigns/stop.js';
import { campaignRuns, runRecord } from '../../pkg/campaigns/views.js';
import { agentRef } from '../../pkg/ids.js';
import { listAgents } from '../../pkg/store/agents.js';
import { getCampaign, listCampaigns } from '../../pkg/store/campaigns/campaigns.js';
import { getConnection, listConnections } from '../../pkg/store/campaigns/connections.js';
import { getRun } from '../../pkg/store/campaigns/runs.js';
import { getTenant } from '../../pkg/store/tenants.js';
import {
  createCampaignBody,
  createConnectionBody,
  resultsQuery,
  startRunBody,
  stopRunBody,
  updateCampaignBody,
  updateConnectionBody,
} from '../voice/campaign-schemas.js';
import { parseVoice } from '../voice/parse.js';
import { principalOf, requireSession } from './session.js';

/** Field names only: a sign-in header's value never reaches the log. */
const fieldsOf = (body: object) => ({ fields: Object.keys(body).sort() });

export function campaignsRouter(ctx: Ctx): Router {
  const r = Router();
  const tenantOf = (req: Parameters<RequestHandler>[0]) => getTenant(ctx, principalOf(req).tenantId);
  /** The session at `role` or above, then the account's campaign features (403 `module_off`), as the Voice API gates them. */
  const as = (role: Role): RequestHandler => {
    const session = requireSession(ctx, role);
    return async (req, res, next) => {
      // requireSession throws its refusals; on success it only sets req.console.
      await session(req, res, () => undefined);
      requireCampaignFeatures(await tenantOf(req));
      next();
    };
  };
  const id = (req: Parameters<RequestHandler>[0]) => req.params.id as string;

  r.get('/connections', as('viewer'), async (req, res) => {
    res.json({ data: (await listConnections(ctx, principalOf(req).tenantId)).map(connectionView) });
  });

  r.get('/connections/:id', as('viewer'), async (req, res) => {
    res.json(connectionView(await getConnection(ctx, principalOf(req).tenantId, id(req))));
  });

  r.post('/connections', as('member'), async (req, res) => {
    const who = principalOf(req);
    const input = parseVoice(createConnectionBody, req.body, 'connection');
    const made = await inTransaction(ctx, async (tx) => {
      const row = await createConnection(tx, who.tenantId, input);
      await audit(tx, who, 'connection.created', row.id, fieldsOf(input));
      return row;
    });
    res.status(201).json(connectionView(made));
  });

  r.patch('/connections/:id', as('member'), async (req, res) => {
    const who = principalOf(req);
    // Another account's connection answers 404 whatever the body says.
    await getConnection(ctx, who.tenantId, id(req));
    const input = parseVoice(updateConnectionBody, req.body, 'connection');
    const changed = await inTransaction(ctx, async (tx) => {
      const row = await updateConnection(tx, who.tenantId, id(req), input);
      await audit(tx, who, 'connection.updated', row.id, fieldsOf(input));
      return row;
    });
    res.json(connectionView(changed));
  });

  r.delete('/connections/:id', as('member'), async (req, res) => {
    const who = principalOf(req);
    const gone = await inTransaction(ctx, async (tx) => {
      const row = await deleteConnection(tx, who.tenantId, id(req));
      await audit(tx, who, 'connection.deleted', row.id);
      return row;
    });
    res.json(connectionView(gone));
  });

  // The agents a campaign may use, by the agt_ ids the Voice API takes.
  r.get('/campaign-agents', as('viewer'), async (req, res) => {
    res.json({ data: (await listAgents(ctx, principalOf(req).tenantId)).map((a) => ({ id: agentRef(a.id), name: a.name })) });
  });

  r.get('/campaigns', as('viewer'), async (req, res) => {
    res.json({ data: (await listCampaigns(ctx, principalOf(req).tenantId)).map(campaignView) });
  });

  r.get('/campaigns/:id', as('viewer'), async (req, res) => {
    res.json(campaignView(await getCampaign(ctx, principalOf(req).tenantId, id(req))));
  });

  r.post('/campaigns', as('member'), async (req, res) => {
    const who = principalOf(req);
    const input = parseVoice(createCampaignBody, req.body, 'campaign');
    const tenant = await tenantOf(req);
    const made = await inTransaction(ctx, async (tx) => {
      const row = await createCampaign(tx, tenant, input);
      await audit(tx, who, 'campaign.created', row.id, fieldsOf(input));
      return row;
    });
    res.status(201).json(campaignView(made));
  });

  r.patch('/campaigns/:id', as('member'), async (req, res) => {
    const who = principalOf(req);
    await getCampaign(ctx, who.tenantId, id(req));
    const input = parseVoice(updateCampaignBody, req.body, 'campaign');
    const tenant = await tenantOf(req);
    const changed = await inTransaction(ctx, async (tx) => {
      const row = await updateCampaign(tx, tenant, id(req), input);
      await audit(tx, who, 'campaign.updated', row.id, fieldsOf(input));
      return row;
    });
    res.json(campaignView(changed));
  });

  r.delete('/campaigns/:id', as('member'), async (req, res) => {
    const who = principalOf(req);
    const archived = await inTransaction(ctx, async (tx) => {
      const row = await archiveCampaign(tx, who.tenantId, id(req));
      await audit(tx, who, 'campaign.archived', row.id);
      return row;
    });
    res.json(campaignView(archived));
  });

  r.get('/campaigns/:id/runs', as('viewer'), async (req, res) => {
    res.json({ data: await campaignRuns(ctx, principalOf(req).tenantId, id(req)) });
  });

  r.post('/campaigns/:id/runs', as('member'), async (req, res) => {
    const who = principalOf(req);
    await getCampaign(ctx, who.tenantId, id(req));
    const body = parseVoice(startRunBody, req.body, 'run');
    const tenant = await tenantOf(req);
    const run = await inTransaction(ctx, async (tx) => {
      const row = await startRun(tx, tenant, id(req), body);
      await audit(tx, who, 'campaign.run_started', row.id, { campaign_id: row.campaign_id, test: row.test });
      return row;
    });
    res.status(202).json(await runRecord(ctx, run));
  });

  r.get('/campaign-runs/:id', as('viewer'), async (req, res) => {
    res.json(await runRecord(ctx, await getRun(ctx, principalOf(req).tenantId, id(req))));
  });

  r.get('/campaign-runs/:id/results', as('viewer'), async (req, res) => {
    res.json(await runResults(ctx, principalOf(req).tenantId, id(req), parseVoice(resultsQuery, req.query, 'query')));
  });

  r.post('/campaign-runs/:id/stop', as('member'), async (req, res) => {
    const who = principalOf(req);
    await getRun(ctx, who.tenantId, id(req));
    parseVoice(stopRunBody, req.body, 'stop');
    const run = await inTransaction(ctx, async (tx) => {
      const row = await stopRun(tx, who.tenantId, id(req));
      await audit(tx, who, 'campaign.run_stopped', row.id, { campaign_id: row.campaign_id });
      return row;
    });
    res.json(await runRecord(ctx, run));
  });

  return r;
}
