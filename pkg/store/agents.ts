// Agents: prompt, model, assigned API tools, handoff roster.
import { z } from 'zod';
import type { Ctx } from '../context.js';
import { isUuid, uuid } from '../ids.js';
import { NotFound } from '../errors.js';
import { customToolSchema, sealTools, publicTool, type StoredTool } from '../tools/custom-tools.js';

export const handoffRosterSchema = z.array(
  z.object({ roleName: z.string().min(1).max(64), agentId: z.string().uuid(), greeting: z.string().max(2000).default('') }).strict(),
);
export type HandoffTarget = z.output<typeof handoffRosterSchema>[number];

export const agentToolsSchema = z.array(customToolSchema).max(50);

export interface Agent {
  id: string;
  tenantId: string | null;
  isPublic: boolean;
  name: string;
  systemPrompt: string;
  model: string | null;
  tools: StoredTool[];
  handoffEnabled: boolean;
  handoffRoster: HandoffTarget[];
  createdAt: string;
  updatedAt: string;
}

export interface AgentInput {
  name?: string;
  systemPrompt?: string;
  model?: string | null;
  tools?: z.input<typeof agentToolsSchema>;
  handoffRoster?: z.input<typeof handoffRosterSchema>;
  handoffEnabled?: boolean;
  isPublic?: boolean;
}

type Row = Record<string, any>;

const toAgent = (r: Row): Agent => ({
  id: r.id,
  tenantId: r.tenant_id,
  isPublic: r.is_public,
  name: r.name,
  systemPrompt: r.system_prompt,
  model: r.model,
  tools: r.tools,
  handoffEnabled: r.handoff_enabled,
  handoffRoster: r.handoff_roster,
  createdAt: r.created_at.toISOString(),
  updatedAt: r.updated_at.toISOString(),
});

/** The operator's view: credentials never shown. */
export const agentView = (a: Agent) => ({ ...a, tools: a.tools.map(publicTool) });

function columns(ctx: Pick<Ctx, 'secrets'>, input: AgentInput): Row {
  const out: Row = {};
  if (input.name !== undefined) out.name = input.name;
  if (input.systemPrompt !== undefined) out.system_prompt = input.systemPrompt;
  if (input.model !== undefined) out.model = input.model;
  if (input.tools !== undefined) out.tools = JSON.stringify(sealTools(agentToolsSchema.parse(input.tools), ctx.secrets));
  if (input.handoffRoster !== undefined) out.handoff_roster = JSON.stringify(handoffRosterSchema.parse(input.handoffRoster));
  if (input.handoffEnabled !== undefined) out.handoff_enabled = input.handoffEnabled;
  if (input.isPublic !== undefined) out.is_public = input.isPublic;
  return out;
}

export async function createAgent(
  ctx: Pick<Ctx, 'db' | 'clock' | 'secrets'>,
  tenantId: string,
  input: AgentInput & { name: string },
): Promise<Agent> {
  const now = ctx.clock.now();
  const [row] = await ctx.db('agents')
    .insert({ id: uuid(), tenant_id: tenantId, ...columns(ctx, input), created_at: now, updated_at: now })
    .returning('*');
  return toAgent(row);
}

export async function updateAgent(ctx: Pick<Ctx, 'db' | 'clock' | 'secrets'>, agentId: string, input: AgentInput): Promise<Agent> {
  if (!isUuid(agentId)) throw new NotFound(`Unknown agent ${agentId}`);
  const [row] = await ctx.db('agents')
    .where({ id: agentId })
    .update({ ...columns(ctx, input), updated_at: ctx.clock.now() })
    .returning('*');
  if (!row) throw new NotFound(`Unknown agent ${agentId}`);
  return toAgent(row);
}

export async function listAgents(ctx: Pick<Ctx, 'db'>, tenantId: string): Promise<Agent[]> {
  return (await ctx.db('agents').where({ tenant_id: tenantId }).orderBy('created_at')).map(toAgent);
}

/** An agent the company may use: its own or a public one; anything else is unknown (404). */
export async function getUsableAgent(ctx: Pick<Ctx, 'db'>, tenantId: string, agentId: string): Promise<Agent> {
  if (!isUuid(agentId)) throw new NotFound(`Unknown agent ${agentId}`);
  const row = await ctx.db('agents')
    .where({ id: agentId })
    .andWhere((q) => q.where({ tenant_id: tenantId }).orWhere({ is_public: true }))
    .first();
  if (!row) throw new NotFound(`Unknown agent ${agentId}`);
  return toAgent(row);
}
