// The account names and routes its own numbers (PATCH /v1/numbers/{e164}) and sets up its queues.
import type { Ctx } from '../../context.js';
import { Unprocessable } from '../../errors.js';
import { updateNumber, type PhoneNumber } from '../../store/phone-numbers.js';
import { createQueue, updateQueue, type Queue, type QueueInput, type QueueMember } from '../../store/queues.js';
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

/** A new queue of the account, its members' phones in E.164. */
export function addQueue(ctx: Ctx, tenant: Tenant, input: QueueInput & { name: string; members: QueueMember[] }): Promise<Queue> {
  return createQueue(ctx, tenant.id, { ...input, members: membersInE164(tenant, input.members) });
}

/** Changes the account's queue; members given replace its members, their phones in E.164. */
export function changeQueue(ctx: Ctx, tenant: Tenant, id: string, patch: QueueInput): Promise<Queue> {
  return updateQueue(ctx, tenant.id, id, { ...patch, members: patch.members && membersInE164(tenant, patch.members) });
}

/** A queue's members with their phones in E.164, or Unprocessable naming the first one that is no number. */
function membersInE164(tenant: Tenant, members: QueueMember[]): QueueMember[] {
  return members.map((member, i) => {
    const phone = toE164(member.phone, tenant.country);
    if (!phone) throw new Unprocessable(`members.${i}.phone: ${member.phone} is not a valid phone number`, 'invalid_members');
    return { ...member, phone };
  });
}
