// The simulated phone network rings one of the account's numbers as a caller (POST /v1/sim/calls).
import { Router } from 'express';
import type { Ctx } from '../../pkg/context.js';
import { NotFound, Unprocessable } from '../../pkg/errors.js';
import { carrierCredentials } from '../../pkg/voice/carrier-accounts.js';
import { toE164 } from '../../pkg/voice/numbers.js';
import { ringIn } from '../../pkg/voice/routing/arrive.js';
import { callRecord } from '../../pkg/voice/views.js';
import { principalOf } from '../http/authentication.js';
import { parseSimCall } from './sim-schemas.js';

export function simRouter(ctx: Ctx): Router {
  const r = Router();

  r.post('/sim/calls', async (req, res) => {
    const { tenant } = principalOf(req);
    // An account on a real carrier has no simulated network, as on a deployment with one.
    if (await carrierCredentials(ctx, tenant.id)) throw new NotFound('No such endpoint', 'not_found');
    const body = parseSimCall(req.body);
    const to = toE164(body.to, tenant.country);
    if (!to) throw new Unprocessable(`to: ${body.to} is not a valid phone number`, 'invalid_to');
    const from = toE164(body.from, tenant.country);
    if (!from) throw new Unprocessable(`from: ${body.from} is not a valid phone number`, 'invalid_from');
    const call = await ringIn(ctx, { to, from, caller: { lines: body.lines, presses: body.presses } }, tenant.id);
    res.status(201).json(callRecord(call));
  });

  return r;
}
