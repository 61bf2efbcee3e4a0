// The account names and routes its own numbers (PATCH /v1/numbers/{e164}).
import type { Ctx } from '../../context.js';
import { updateNumber, type PhoneNumber } from '../../store/phone-numbers.js';
import type { Tenant } from '../../store/tenants.js';
import { checkRouting } from './check.js';
import type { RoutingStep } from './steps.js';

export async function configureNumber(
  ctx: Ctx,
  tenant: Tenant,
  number: string,
  patch: { name?: string; routing?: RoutingStep | null },
): Promise<PhoneNumber> {
  const routing = patch.routing ? await checkRouting(ctx, tenant, patch.routing, ['routing']) : patch.routing;
  return updateNumber(ctx, tenant.id, number, { name: patch.name, routing });
}
