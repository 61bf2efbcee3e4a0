// Routes of connections to the customer's system (DECISIONS.md "Connection").
import { Router } from 'express';
import type { Ctx } from '../../pkg/context.js';
import { requireCampaignFeatures } from '../../pkg/campaigns/campaigns.js';
import { connectionView, createConnection, deleteConnection, updateConnection } from '../../pkg/campaigns/connections.js';
import { getConnection, listConnections } from '../../pkg/store/campaigns/connections.js';
import { principalOf } from '../http/authentication.js';
import { parseVoice } from './parse.js';
import { createConnectionBody, updateConnectionBody } from './campaign-schemas.js';

export function connectionsRouter(ctx: Ctx): Router {
  const r = Router();
  r.use('/connections', (req, _res, next) => {
    requireCampaignFeatures(principalOf(req).tenant);
    next();
  });

  r.post('/connections', async (req, res) => {
    const { tenant } = principalOf(req);
    const input = parseVoice(createConnectionBody, req.body, 'connection');
    res.status(201).json(connectionView(await createConnection(ctx, tenant.id, input)));
  });

  r.get('/connections', async (req, res) => {
    const { tenant } = principalOf(req);
    res.json({ data: (await listConnections(ctx, tenant.id)).map(connectionView) });
  });

  r.get('/connections/:id', async (req, res) => {
    const { tenant } = principalOf(req);
    res.json(connectionView(await getConnection(ctx, tenant.id, req.params.id!)));
  });

  r.patch('/connections/:id', async (req, res) => {
    const { tenant } = principalOf(req);
    const input = parseVoice(updateConnectionBody, req.body, 'connection');
    res.json(connectionView(await updateConnection(ctx, tenant.id, req.params.id!, input)));
  });

  r.delete('/connections/:id', async (req, res) => {
    const { tenant } = principalOf(req);
    res.json(connectionView(await deleteConnection(ctx, tenant.id, req.params.id!)));
  });

  return r;
}
