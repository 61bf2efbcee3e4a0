// What the schema cannot judge of a routing alone: that each step names things the account has.
// A refusal names the field by its path (`routing.options.1.agent_id`), as the Voice API shows it.
import type { Ctx } from '../../context.js';
import { NotFound, Unprocessable } from '../../errors.js';
import { parseAgentRef } from '../../ids.js';
import { destinationProblem } from '../../outbound/guard.js';
import { getUsableAgent } from '../../store/agents.js';
import { getMailbox } from '../../store/mailboxes.js';
import { getQueue } from '../../store/queues.js';
import type { Tenant } from '../../store/tenants.js';
import { toE164 } from '../numbers.js';
import { voiceProblem } from '../voices.js';
import type { RoutingStep } from './steps.js';

const refused = (path: string[], message: string) => new Unprocessable(`${path.join('.')}: ${message}`, `invalid_${path[0]}`);

/** Whether `lookup` finds what it looks for (NotFound: it does not). */
async function found(lookup: () => Promise<unknown>): Promise<boolean> {
  try {
    await lookup();
    return true;
  } catch (err) {
    if (err instanceof NotFound) return false;
    throw err;
  }
}

async function isAgentOf(ctx: Ctx, tenantId: string, ref: string): Promise<boolean> {
  const id = parseAgentRef(ref);
  return id !== null && found(() => getUsableAgent(ctx, tenantId, id));
}

/** The routing as stored (transfer numbers in E.164), or Unprocessable naming the first bad field under `path`. */
export async function checkRouting(ctx: Ctx, tenant: Tenant, step: RoutingStep, path: string[]): Promise<RoutingStep> {
  switch (step.type) {
    case 'ai': {
      if (!(await isAgentOf(ctx, tenant.id, step.agent_id)))
        throw refused([...path, 'agent_id'], `${step.agent_id} is not an agent of this account`);
      const voice = step.voice === undefined ? undefined : voiceProblem(ctx.config, step.voice);
      if (voice) throw refused([...path, 'voice'], voice);
      return step;
    }
    case 'menu': {
      const options: typeof step.options = {};
      for (const [key, option] of Object.entries(step.options) as [keyof typeof step.options, RoutingStep][]) {
        options[key] = await checkRouting(ctx, tenant, option, [...path, 'options', key]);
      }
      return { ...step, options, fallback: await checkRouting(ctx, tenant, step.fallback, [...path, 'fallback']) };
    }
    case 'queue':
      if (!(await found(() => getQueue(ctx, tenant.id, step.queue_id))))
        throw refused([...path, 'queue_id'], `no queue ${step.queue_id} on this account`);
      return step;
    case 'voicemail':
      if (!(await found(() => getMailbox(ctx, tenant.id, step.mailbox_id))))
        throw refused([...path, 'mailbox_id'], `no mailbox ${step.mailbox_id} on this account`);
      return step;
    case 'transfer': {
      const to = toE164(step.to, tenant.country);
      if (!to) throw refused([...path, 'to'], `${step.to} is not a valid phone number (E.164, or national in ${tenant.country})`);
      return { ...step, to };
    }
    case 'webhook': {
      const problem = destinationProblem(step.url, ctx.config);
      if (problem) throw refused([...path, 'url'], problem);
      return { ...step, fallback: await checkRouting(ctx, tenant, step.fallback, [...path, 'fallback']) };
    }
  }
}
