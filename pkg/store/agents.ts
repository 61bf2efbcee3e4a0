// Agents: prompt, model, assigned API tools, handoff roster, contact verification, and on calls their outcomes and message webhook.
import type { Ctx } from '../context.js';
import { isUuid, uuid } from '../ids.js';
import { NotFound } from '../errors.js';
import type { StoredTool } from './tools.js';
import type { DbRow } from '../db/index.js';
import { compiledQuery, type Sends } from '../db/statements.js';

export interface Agent {
  id: string;
  tenantId: string | null;
  isPublic: boolean;
  name: string;
  systemPrompt: string;
  model: string | null;
  tools: StoredTool[];
  handoffEnabled: boolean;
  handoffRoster: { roleName: string; agentId: string; greeting: string }[];
  /** What it may end a call with (DECISIONS.md "Agent outcome values"), unless the call names its own. */
  outcomes: string[];
  /** Where the messages it takes go instead of the account's message webhook. */
  messageWebhookUrl: string | null;
  /** Whether its turns need a verified contact; null: they do not. */
  verification: { required: boolean; method: 'passcode'; deliver_to: 'webhook' } | null;
  /** The catalogue voice it speaks with on calls that name none (GET /v1/voices); null: the deployment's default. */
  voice: string | null;
  createdAt: string;
  updatedAt: string;
}

/** Settings as stored, each written only when given; checked first and tools sealed (pkg/agent/settings.ts). */
export type AgentValues = Partial<Omit<Agent, 'id' | 'tenantId' | 'createdAt' | 'updatedAt'>>;

export const toAgent = (r: DbRow): Agent => ({
  id: r.id,
  tenantId: r.tenant_id,
  isPublic: r.is_public,
  name: r.name,
  systemPrompt: r.system_prompt,
  model: r.model,
  tools: r.tools,
  handoffEnabled: r.handoff_enabled,
  handoffRoster: r.handoff_roster,
  outcomes: r.outcomes,
  messageWebhookUrl: r.message_webhook_url,
  verification: r.verification,
  voice: r.voice,
  createdAt: r.created_at.toISOString(),
  updatedAt: r.updated_at.toISOString(),
});

function columns(values: AgentValues): DbRow {
  const out: DbRow = {};
  if (values.name !== undefined) out.name = values.name;
  if (values.systemPrompt !== undefined) out.system_prompt = values.systemPrompt;
  if (values.model !== undefined) out.model = values.model;
  if (values.tools !== undefined) out.tools = JSON.stringify(values.tools);
  if (values.handoffRoster !== undefined) out.handoff_roster = JSON.stringify(values.handoffRoster);
  if (values.handoffEnabled !== undefined) out.handoff_enabled = values.handoffEnabled;
  if (values.isPublic !== undefined) out.is_public = values.isPublic;
  if (values.outcomes !== undefined) out.outcomes = JSON.stringify(values.outcomes);
  if (values.messageWebhookUrl !== undefined) out.message_webhook_url = values.messageWebhookUrl;
  if (values.verification !== undefined) out.verification = values.verification && JSON.stringify(values.verification);
  if (values.voice !== undefined) out.voice = values.voice;
  return out;
}

export async function insertAgent(
  ctx: Pick<Ctx, 'db' | 'clock'>,
  tenantId: string,
  values: AgentValues & { name: string },
): Promise<Agent> {
  const now = ctx.clock.now();
  const [row] = await ctx
    .db('agents')
    .insert({ id: uuid(), tenant_id: tenantId, ...columns(values), created_at: now, updated_at: now })
    .returning('*');
  return toAgent(row);
}

export async function updateAgentRow(ctx: Pick<Ctx, 'db' | 'clock'>, agentId: string, values: AgentValues): Promise<Agent> {
  const [row] = await ctx
    .db('agents')
    .where({ id: agentId })
    .update({ ...columns(values), updated_at: ctx.clock.now() })
    .returning('*');
  return toAgent(row);
}

/** Those of `agentIds` that are agents of the tenant. */
export async function agentsOfTenant(ctx: Pick<Ctx, 'db'>, tenantId: string | null, agentIds: string[]): Promise<Set<string>> {
  return new Set<string>(await ctx.db('agents').whereIn('id', agentIds).andWhere({ tenant_id: tenantId }).pluck('id'));
}

export const isAgentOf = async (ctx: Pick<Ctx, 'db'>, tenantId: string, agentId: string): Promise<boolean> =>
  (await agentsOfTenant(ctx, tenantId, [agentId])).has(agentId);

export async function listAgents(ctx: Pick<Ctx, 'db'>, tenantId: string): Promise<Agent[]> {
  return (await ctx.db('agents').where({ tenant_id: tenantId }).orderBy('created_at')).map(toAgent);
}

/** Any agent, by id (the operator's view). */
export async function getAgent(ctx: Pick<Ctx, 'db'>, agentId: string): Promise<Agent> {
  const row = isUuid(agentId) ? await ctx.db('agents').where({ id: agentId }).first() : undefined;
  if (!row) throw unknownAgent(agentId);
  return toAgent(row);
}

/** The tenant's own agent (not another's, public or not): what its console may read and change. */
export async function getOwnAgent(ctx: Pick<Ctx, 'db'>, tenantId: string, agentId: string): Promise<Agent> {
  const row = isUuid(agentId) ? await ctx.db('agents').where({ id: agentId, tenant_id: tenantId }).first() : undefined;
  if (!row) throw unknownAgent(agentId);
  return toAgent(row);
}

/** An agent the tenant may use: its own or a public one; anything else is unknown (404). */
export async function getUsableAgent(ctx: Sends, tenantId: string, agentId: string): Promise<Agent> {
  if (!isUuid(agentId)) throw unknownAgent(agentId);
  const [row] = await usableAgentQuery(ctx, { tenantId, agentId });
  if (!row) throw unknownAgent(agentId);
  return toAgent(row);
}

/** The message webhook of the tenant's own agent `agentId`, if it has one; a public agent's never gets another account's messages. */
export async function ownAgentMessageWebhook(ctx: Pick<Ctx, 'db'>, tenantId: string, agentId: string): Promise<string | null> {
  const row = await ctx.db('agents').where({ id: agentId, tenant_id: tenantId }).first('message_webhook_url');
  return row?.message_webhook_url ?? null;
}

export const unknownAgent = (agentId: string): NotFound => new NotFound(`Unknown agent ${agentId}`);

/** getUsableAgent's query, for an id known to be a UUID; every job, conversation and call reads it, so compiled once. */
const usableAgentQuery = compiledQuery((db, { tenantId, agentId }: { tenantId: string; agentId: string }) =>
  db('agents')
    .where({ id: agentId })
    .andWhere((q) => q.where({ tenant_id: tenantId }).orWhere({ is_public: true }))
    .limit(1),
);

/** The catalogue voice agent `agentId` speaks with, if it names one. */
export async function agentVoice(ctx: Pick<Ctx, 'db'>, agentId: string): Promise<string | null> {
  const row = await ctx.db('agents').where({ id: agentId }).first('voice');
  return row?.voice ?? null;
}
