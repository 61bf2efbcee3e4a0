// The account names and routes its own numbers (PATCH /v1/numbers/{e164}) and sets up its queues.
import type { Ctx } from '../../context.js';
import { Unprocessable } from '../../errors.js';
import { updateNumber, type PhoneNumber } from '../../store/phone-numbers.js';
import { prefixedId } from '../../ids.js';
import { createQueue, updateQueue, type Queue, type QueueInput, type QueueMember, type QueueMemberInput } from '../../store/queues.js';
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

type QueueChange = Omit<QueueInput, 'members'> & { members?: QueueMemberInput[] };

/** A new queue of the account, its members' phones in E.164. */
export function addQueue(ctx: Ctx, tenant: Tenant, input: QueueChange & { name: string; members: QueueMemberInput[] }): Promise<Queue> {
  return createQueue(ctx, tenant.id, { ...input, members: membersToStore(tenant, input.members) });
}

/** Changes the account's queue; members given replace its members, their phones in E.164. */
export function changeQueue(ctx: Ctx, tenant: Tenant, id: string, patch: QueueChange): Promise<Queue> {
  return updateQueue(ctx, tenant.id, id, { ...patch, members: patch.members && membersToStore(tenant, patch.members) });
}

/**
 * A queue's members with their phones in E.164 and an id each (DECISIONS.md "Queue member ids": the
 * account's own, or a new `mem_` one), or Unprocessable naming the first one that is no number.
 */
function membersToStore(tenant: Tenant, members: QueueMemberInput[]): QueueMember[] {
  return members.map((member, i) => {
    const phone = toE164(member.phone, tenant.country);
    if (!phone) throw new Unprocessable(`members.${i}.phone: ${member.phone} is not a valid phone number`, 'invalid_members');
    return { ...member, id: member.id ?? prefixedId('mem'), phone };
  });
}
