// Routes of the account's numbers: list, read, name and route (the operator assigns them).
import { Router, type Request } from 'express';
import type { Ctx } from '../../pkg/context.js';
import { NotFound } from '../../pkg/errors.js';
import { getNumber, listNumbers, type PhoneNumber } from '../../pkg/store/phone-numbers.js';
import { toE164 } from '../../pkg/voice/numbers.js';
import { configureNumber } from '../../pkg/voice/routing/configure.js';
import { principalOf } from '../http/authentication.js';
import { parseNumberPatch } from './number-schemas.js';

export const numberView = (n: PhoneNumber) => ({
  number: n.number,
  name: n.name,
  default: n.isDefault,
  routing: n.routing,
  created_at: n.createdAt,
  updated_at: n.updatedAt,
});

/** The path's number in E.164; one that is no number is no number of the account. */
export function pathNumber(req: Request, country: string): string {
  const number = toE164(String(req.params.e164), country);
  if (!number) throw new NotFound(`No number ${req.params.e164} on this account`);
  return number;
}

export function numbersRouter(ctx: Ctx): Router {
  const r = Router();

  r.get('/numbers', async (req, res) => {
    const { tenant } = principalOf(req);
    res.json({ data: (await listNumbers(ctx, tenant.id)).map(numberView) });
  });

  r.get('/numbers/:e164', async (req, res) => {
    const { tenant } = principalOf(req);
    res.json(numberView(await getNumber(ctx, tenant.id, pathNumber(req, tenant.country))));
  });

  r.patch('/numbers/:e164', async (req, res) => {
    const { tenant } = principalOf(req);
    const number = pathNumber(req, tenant.country);
    // Another account's number answers 404 whatever the body says.
    await getNumber(ctx, tenant.id, number);
    const patch = parseNumberPatch(req.body);
    res.json(numberView(await configureNumber(ctx, tenant, number, patch)));
  });

  return r;
}
