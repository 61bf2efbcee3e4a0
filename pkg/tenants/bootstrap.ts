// A tenant with one agent and one key: `admin bootstrap`, the dev seed, and tests.
import type { Ctx } from '../context.js';
import { createAgent } from '../agent/settings.js';
import { topUp } from '../store/credits.js';
import { createKey } from '../store/keys.js';
import { createTenant } from './settings.js';

export interface Bootstrapped {
  tenantId: string;
  agentId: string;
  keyId: string;
  apiKey: string;
}

export async function bootstrapTenant(
  ctx: Pick<Ctx, 'db' | 'pipelined' | 'clock' | 'secrets' | 'config'>,
  input: { name: string; credits?: number; systemPrompt?: string },
): Promise<Bootstrapped> {
  return ctx.db.transaction(async (trx) => {
    const tx = { ...ctx, db: trx };
    const prepaid = input.credits !== undefined;
    const tenant = await createTenant(tx, { name: input.name, billing: prepaid ? 'prepaid' : 'payg' });
    if (prepaid && input.credits !== 0) await topUp(tx, tenant.id, input.credits!);
    const agent = await createAgent(tx, tenant.id, {
      name: `${input.name} assistant`,
      systemPrompt: input.systemPrompt ?? `You are the helpful assistant of ${input.name}.`,
    });
    const { key, apiKey } = await createKey(tx, tenant.id, 'default');
    return { tenantId: tenant.id, agentId: agent.id, keyId: key.id, apiKey };
  });
}
