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

type Req = Parameters<RequestHandler>[0];

export function campaignsRouter(ctx: Ctx): Router {
  const r = Router();
  const id = (req: Req) => req.params.id as string;
  const tenantId = (req: Req) => principalOf(req).tenantId;
  const tenantOf = (req: Req) => getTenant(ctx, tenantId(req));
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

  /** Runs `change` and its audit entry (`action` on the row it answers) in one transaction. */
  const audited = <T extends { id: string }>(
    req: Req,
    action: string,
    change: (tx: Ctx) => Promise<T>,
    details: (row: T) => Record<string, unknown>,
  ) =>
    inTransaction(ctx, async (tx) => {
      const row = await change(tx);
      await audit(tx, principalOf(req), action, row.id, details(row));
      return row;
    });

  r.get('/connections', as('viewer'), async (req, res) => {
    res.json({ data: (await listConnections(ctx, tenantId(req))).map(connectionView) });
  });

  r.get('/connections/:id', as('viewer'), async (req, res) => {
    res.json(connectionView(await getConnection(ctx, tenantId(req), id(req))));
  });

  r.post('/connections', as('member'), async (req, res) => {
    const input = parseVoice(createConnectionBody, req.body, 'connection');
    const made = await audited(
      req,
      'connection.created',
      (tx) => createConnection(tx, tenantId(req), input),
      () => fieldsOf(input),
    );
    res.status(201).json(connectionView(made));
  });

  r.patch('/connections/:id', as('member'), async (req, res) => {
    // Another account's connection answers 404 whatever the body says.
    await getConnection(ctx, tenantId(req), id(req));
    const input = parseVoice(updateConnectionBody, req.body, 'connection');
    const changed = await audited(
      req,
      'connection.updated',
      (tx) => updateConnection(tx, tenantId(req), id(req), input),
      () => fieldsOf(input),
    );
    res.json(connectionView(changed));
  });

  r.delete('/connections/:id', as('member'), async (req, res) => {
    res.json(
      connectionView(
        await audited(
          req,
          'connection.deleted',
          (tx) => deleteConnection(tx, tenantId(req), id(req)),
          () => ({}),
        ),
      ),
    );
  });

  // The agents a campaign may use, by the agt_ ids the Voice API takes.
  r.get('/campaign-agents', as('viewer'), async (req, res) => {
    res.json({ data: (await listAgents(ctx, tenantId(req))).map((a) => ({ id: agentRef(a.id), name: a.name })) });
  });

  r.get('/campaigns', as('viewer'), async (req, res) => {
    res.json({ data: (await listCampaigns(ctx, tenantId(req))).map(campaignView) });
  });

  r.get('/campaigns/:id', as('viewer'), async (req, res) => {
    res.json(campaignView(await getCampaign(ctx, tenantId(req), id(req))));
  });

  r.post('/campaigns', as('member'), async (req, res) => {
    const input = parseVoice(createCampaignBody, req.body, 'campaign');
    const tenant = await tenantOf(req);
    const made = await audited(
      req,
      'campaign.created',
      (tx) => createCampaign(tx, tenant, input),
      () => fieldsOf(input),
    );
    res.status(201).json(campaignView(made));
  });

  r.patch('/campaigns/:id', as('member'), async (req, res) => {
    await getCampaign(ctx, tenantId(req), id(req));
    const input = parseVoice(updateCampaignBody, req.body, 'campaign');
    const tenant = await tenantOf(req);
    const changed = await audited(
      req,
      'campaign.updated',
      (tx) => updateCampaign(tx, tenant, id(req), input),
      () => fieldsOf(input),
    );
    res.json(campaignView(changed));
  });

  r.delete('/campaigns/:id', as('member'), async (req, res) => {
    res.json(
      campaignView(
        await audited(
          req,
          'campaign.archived',
          (tx) => archiveCampaign(tx, tenantId(req), id(req)),
          () => ({}),
        ),
      ),
    );
  });

  r.get('/campaigns/:id/runs', as('viewer'), async (req, res) => {
    res.json({ data: await campaignRuns(ctx, tenantId(req), id(req)) });
  });

  r.post('/campaigns/:id/runs', as('member'), async (req, res) => {
    await getCampaign(ctx, tenantId(req), id(req));
    const body = parseVoice(startRunBody, req.body, 'run');
    const tenant = await tenantOf(req);
    const run = await audited(
      req,
      'campaign.run_started',
      (tx) => startRun(tx, tenant, id(req), body),
      (row) => ({ campaign_id: row.campaign_id, test: row.test }),
    );
    res.status(202).json(await runRecord(ctx, run));
  });

  r.get('/campaign-runs/:id', as('viewer'), async (req, res) => {
    res.json(await runRecord(ctx, await getRun(ctx, tenantId(req), id(req))));
  });

  r.get('/campaign-runs/:id/results', as('viewer'), async (req, res) => {
    res.json(await runResults(ctx, tenantId(req), id(req), parseVoice(resultsQuery, req.query, 'query')));
  });

  r.post('/campaign-runs/:id/stop', as('member'), async (req, res) => {
    await getRun(ctx, tenantId(req), id(req));
    parseVoice(stopRunBody, req.body, 'stop');
    const run = await audited(
      req,
      'campaign.run_stopped',
      (tx) => stopRun(tx, tenantId(req), id(req)),
      (row) => ({ campaign_id: row.campaign_id }),
    );
    res.json(await runRecord(ctx, run));
  });

  return r;
}
