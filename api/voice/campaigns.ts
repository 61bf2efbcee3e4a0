// Routes of campaigns and their runs (DECISIONS.md "Campaign", "Starting", "Run record").
import { Router } from 'express';
import type { Ctx } from '../../pkg/context.js';
import { archiveCampaign, campaignView, createCampaign, requireCampaignFeatures, updateCampaign } from '../../pkg/campaigns/campaigns.js';
import { runResults } from '../../pkg/campaigns/results-page.js';
import { startRun } from '../../pkg/campaigns/start.js';
import { stopRun } from '../../pkg/campaigns/stop.js';
import { campaignRuns, runRecord } from '../../pkg/campaigns/views.js';
import { getCampaign, listCampaigns } from '../../pkg/store/campaigns/campaigns.js';
import { getRun } from '../../pkg/store/campaigns/runs.js';
import { principalOf } from '../http/authentication.js';
import { parseVoice } from './parse.js';
import { createCampaignBody, resultsQuery, startRunBody, stopRunBody, updateCampaignBody } from './campaign-schemas.js';

export function campaignsRouter(ctx: Ctx): Router {
  const r = Router();
  r.use(['/campaigns', '/campaign-runs'], (req, _res, next) => {
    requireCampaignFeatures(principalOf(req).tenant);
    next();
  });

  r.post('/campaigns', async (req, res) => {
    const { tenant } = principalOf(req);
    const input = parseVoice(createCampaignBody, req.body, 'campaign');
    res.status(201).json(campaignView(await createCampaign(ctx, tenant, input)));
  });

  r.get('/campaigns', async (req, res) => {
    const { tenant } = principalOf(req);
    res.json({ data: (await listCampaigns(ctx, tenant.id)).map(campaignView) });
  });

  r.get('/campaigns/:id', async (req, res) => {
    const { tenant } = principalOf(req);
    res.json(campaignView(await getCampaign(ctx, tenant.id, req.params.id!)));
  });

  r.patch('/campaigns/:id', async (req, res) => {
    const { tenant } = principalOf(req);
    const input = parseVoice(updateCampaignBody, req.body, 'campaign');
    res.json(campaignView(await updateCampaign(ctx, tenant, req.params.id!, input)));
  });

  r.delete('/campaigns/:id', async (req, res) => {
    const { tenant } = principalOf(req);
    res.json(campaignView(await archiveCampaign(ctx, tenant.id, req.params.id!)));
  });

  r.post('/campaigns/:id/runs', async (req, res) => {
    const { tenant } = principalOf(req);
    const body = parseVoice(startRunBody, req.body, 'run');
    res.status(202).json(await runRecord(ctx, await startRun(ctx, tenant, req.params.id!, body)));
  });

  r.get('/campaigns/:id/runs', async (req, res) => {
    const { tenant } = principalOf(req);
    res.json({ data: await campaignRuns(ctx, tenant.id, req.params.id!) });
  });

  r.get('/campaign-runs/:id', async (req, res) => {
    const { tenant } = principalOf(req);
    res.json(await runRecord(ctx, await getRun(ctx, tenant.id, req.params.id!)));
  });

  r.get('/campaign-runs/:id/results', async (req, res) => {
    const { tenant } = principalOf(req);
    res.json(await runResults(ctx, tenant.id, req.params.id!, parseVoice(resultsQuery, req.query, 'query')));
  });

  r.post('/campaign-runs/:id/stop', async (req, res) => {
    const { tenant } = principalOf(req);
    parseVoice(stopRunBody, req.body, 'stop');
    res.json(await runRecord(ctx, await stopRun(ctx, tenant.id, req.params.id!)));
  });

  return r;
}
