// Routes of calls: place, read, result (long poll), steer, hang up, list; the voice catalogue.
import { Router } from 'express';
import type { Ctx } from '../../pkg/context.js';
import { getCall } from '../../pkg/store/calls/get.js';
import { requireFeature } from '../../pkg/store/tenants.js';
import { hangupCall, steerCall } from '../../pkg/voice/actions.js';
import { listCallsPage } from '../../pkg/voice/list.js';
import { placeCall } from '../../pkg/voice/place.js';
import { callRecord, callResult } from '../../pkg/voice/views.js';
import { listVoices } from '../../pkg/voice/voices.js';
import { waitForFinal } from '../../pkg/voice/wait.js';
import { principalOf } from '../http/authentication.js';
import { parseVoice } from './parse.js';
import { hangupBody, listCallsQuery, parsePlaceCall, parseSteer, resultQuery } from './call-schemas.js';

/** The Idempotency-Key header as one string (placeCall judges it). */
const idempotencyKey = (header: string | string[] | undefined): string | undefined => (Array.isArray(header) ? header.join(',') : header);

export function callsRouter(ctx: Ctx): Router {
  const r = Router();

  r.post('/calls', async (req, res) => {
    const { tenant, keyId } = principalOf(req);
    const key = idempotencyKey(req.headers['idempotency-key']);
    const input = parsePlaceCall(req.body);
    const { created, call } = await placeCall(ctx, { tenant, keyId, channel: 'api', app: req.connectedApp }, input, key);
    res.status(created ? 201 : 200).json(callRecord(call));
  });

  r.get('/calls', async (req, res) => {
    const { tenant } = principalOf(req);
    res.json(await listCallsPage(ctx, tenant, parseVoice(listCallsQuery, req.query, 'query')));
  });

  r.get('/calls/:id', async (req, res) => {
    const { tenant } = principalOf(req);
    res.json(callRecord(await getCall(ctx, tenant.id, req.params.id!)));
  });

  r.get('/calls/:id/result', async (req, res) => {
    const { tenant } = principalOf(req);
    requireFeature(tenant, 'voice_api');
    const { wait } = parseVoice(resultQuery, req.query, 'query');
    res.json(callResult(await waitForFinal(ctx, tenant.id, req.params.id!, wait ?? 0)));
  });

  r.post('/calls/:id/steer', async (req, res) => {
    const { tenant } = principalOf(req);
    requireFeature(tenant, 'voice_api');
    const steering = parseSteer(req.body);
    const call = await steerCall(ctx, tenant.id, req.params.id!, steering);
    res.status(202).json({ call_id: call.id, accepted: true });
  });

  r.post('/calls/:id/hangup', async (req, res) => {
    const { tenant } = principalOf(req);
    parseVoice(hangupBody, req.body, 'hangup');
    res.json(callRecord(await hangupCall(ctx, tenant.id, req.params.id!)));
  });

  r.get('/voices', (_req, res) => {
    res.json(listVoices(ctx.config));
  });

  return r;
}
