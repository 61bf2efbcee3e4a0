// The account's numbers and their routing, read by everyone and named or routed by members, as the
// Voice API's /v1/numbers does; each change is audited.
import { Router } from 'express';
import type { Ctx } from '../../pkg/context.js';
import { audit } from '../../pkg/console/audit.js';
import { getNumber, listNumbers } from '../../pkg/store/phone-numbers.js';
import { getTenant } from '../../pkg/store/tenants.js';
import { configureNumber } from '../../pkg/voice/routing/configure.js';
import { parseNumberPatch } from '../voice/number-schemas.js';
import { numberView, pathNumber } from '../voice/numbers.js';
import { principalOf, requireSession } from './session.js';

export function numbersRouter(ctx: Ctx): Router {
  const r = Router();

  r.get('/numbers', requireSession(ctx), async (req, res) => {
    res.json({ data: (await listNumbers(ctx, principalOf(req).tenantId)).map(numberView) });
  });

  r.patch('/numbers/:e164', requireSession(ctx, 'member'), async (req, res) => {
    const actor = principalOf(req);
    const tenant = await getTenant(ctx, actor.tenantId);
    const number = pathNumber(req, tenant.country);
    // Another account's number answers 404 whatever the body says.
    await getNumber(ctx, tenant.id, number);
    const patch = parseNumberPatch(req.body);
    const changed = await configureNumber(ctx, tenant, number, patch);
    await audit(ctx, actor, 'number.updated', number, { fields: Object.keys(patch).sort() });
    res.json(numberView(changed));
  });

  return r;
}
