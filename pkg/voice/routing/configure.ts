// The account names and routes its own numbers (PATCH /v1/numbers/{e164}) and sets up its queues.
import type { Ctx } from '../../context.js';
import { Unprocessable } from '../../errors.js';
import { updateNumber, type PhoneNumber } from '../../store/phone-numbers.js';
import type { QueueMember } from '../../store/queues.js';
import type { Tenant } from '../../store/tenants.js';
import { toE164 } from '../numbers.js';
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

/** A queue's members with their phones in E.164, or Unprocessable naming the first one that is no number. */
export function membersInE164(tenant: Tenant, members: QueueMember[]): QueueMember[] {
  return members.map((member, i) => {
    const phone = toE164(member.phone, tenant.country);
    if (!phone) throw new Unprocessable(`members.${i}.phone: ${member.phone} is not a valid phone number`, 'invalid_members');
    return { ...member, phone };
  });
}
